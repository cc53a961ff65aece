import { STYLES, type Style } from '@roomstager/contracts';
import { cn } from '../../lib/cn.ts';
import { PHOTOS, responsivePhoto } from '../../lib/responsive-image.ts';
import { STYLE_INFO } from '../../lib/style-info.ts';


interface StylePickerProps {
  value: Style | null;
  onChange: (style: Style) => void;
  disabled?: boolean;
}

/** Four styles, each with its name and an example picture (staged by the local engine). */
export function StylePicker({ value, onChange, disabled }: StylePickerProps) {
  return (
    <fieldset disabled={disabled}>
      <legend className="text-base font-semibold text-stone-900">Choose a style</legend>
      <div className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {STYLES.map((style) => {
          const photo = responsivePhoto(`style-${style}`, '');
          const checked = value === style;
          return (
            <label
              key={style}
              className={cn(
                'group cursor-pointer overflow-hidden rounded-xl border bg-white shadow-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-700',
                checked ? 'border-accent-700 ring-2 ring-accent-700' : 'border-stone-200 hover:border-stone-400',
              )}
            >
              <input
                type="radio"
                name="style"
                value={style}
                checked={checked}
                onChange={() => onChange(style)}
                className="sr-only"
              />
              <picture>
                {photo.sources?.map((s) => <source key={s.type} type={s.type} srcSet={s.srcSet} sizes="(min-width: 1024px) 240px, 45vw" />)}
                <img
                  src={photo.src}
                  srcSet={photo.srcSet}
                  sizes="(min-width: 1024px) 240px, 45vw"
                  alt=""
                  width={PHOTOS[`style-${style}`].width}
                  height={PHOTOS[`style-${style}`].height}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] w-full object-cover"
                />
              </picture>
              <span className="block p-3">
                <span className="block text-sm font-semibold text-stone-900">{STYLE_INFO[style].name}</span>
                <span className="mt-0.5 block text-xs text-stone-600">{STYLE_INFO[style].description}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
