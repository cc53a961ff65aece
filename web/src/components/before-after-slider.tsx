import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { ImageOff } from 'lucide-react';
import { cn } from '../lib/cn.ts';

export interface SliderImage {
  src: string;
  alt: string;
  /** Modern formats first, e.g. [{ type: 'image/avif', srcSet }, { type: 'image/webp', srcSet }]. */
  sources?: Array<{ type: string; srcSet: string }>;
  srcSet?: string;
}

interface BeforeAfterSliderProps {
  before: SliderImage;
  after: SliderImage;
  /** Intrinsic size of the photos, so the box is reserved before they load. */
  width: number;
  height: number;
  sizes?: string;
  /** The hero image loads eagerly; everything else lazily. */
  priority?: boolean;
  label?: string;
  className?: string;
  /** 'contain' shows the whole photo (letterboxed) when its shape differs from the box. */
  fit?: 'cover' | 'contain';
}

export const clampPercent = (value: number): number => Math.min(100, Math.max(0, value));
const KEY_STEP = 5;

function Photo({
  image,
  side,
  width,
  height,
  sizes,
  priority,
  fit,
  onError,
}: {
  image: SliderImage;
  side: 'Before' | 'After';
  width: number;
  height: number;
  sizes?: string;
  priority?: boolean;
  fit: 'cover' | 'contain';
  onError: () => void;
}) {
  const imgRef = useRef<HTMLImageElement>(null);
  // A prerendered image can fail before hydration attaches onError: check once on mount.
  useEffect(() => {
    const img = imgRef.current;
    if (img?.complete && img.naturalWidth === 0) onError();
  }, [onError]);
  return (
    <picture>
      {image.sources?.map((s) => <source key={s.type} type={s.type} srcSet={s.srcSet} sizes={sizes} />)}
      <img
        ref={imgRef}
        src={image.src}
        srcSet={image.srcSet}
        sizes={sizes}
        alt={image.alt}
        width={width}
        height={height}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority && side === 'After' ? 'high' : 'auto'}
        decoding="async"
        draggable={false}
        onError={onError}
        className={cn('absolute inset-0 size-full select-none', fit === 'contain' ? 'object-contain' : 'object-cover')}
      />
    </picture>
  );
}

function Unavailable({ text }: { text: string }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-stone-100 text-sm text-stone-600">
      <ImageOff aria-hidden className="size-6" />
      <span>{text}</span>
    </div>
  );
}

/**
 * Before/after comparison (spec section 4): starts at 50%, follows mouse and touch drags,
 * arrow keys move it, always clamped to 0-100%.
 */
export function BeforeAfterSlider({
  before,
  after,
  width,
  height,
  sizes,
  priority,
  label = 'Before and after comparison',
  className,
  fit = 'cover',
}: BeforeAfterSliderProps) {
  const [position, setPosition] = useState(50);
  const [beforeFailed, setBeforeFailed] = useState(false);
  const [afterFailed, setAfterFailed] = useState(false);
  const onBeforeError = useCallback(() => setBeforeFailed(true), []);
  const onAfterError = useCallback(() => setAfterFailed(true), []);
  const boxRef = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = useCallback((clientX: number) => {
    const box = boxRef.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setPosition(clampPercent(((clientX - box.left) / box.width) * 100));
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    moveTo(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(e.clientX);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP * 2 : KEY_STEP;
    const next: Record<string, number> = {
      ArrowLeft: position - step,
      ArrowDown: position - step,
      ArrowRight: position + step,
      ArrowUp: position + step,
      Home: 0,
      End: 100,
      PageDown: position - 25,
      PageUp: position + 25,
    };
    const value = next[e.key];
    if (value === undefined) return;
    e.preventDefault();
    setPosition(clampPercent(value));
  };

  return (
    <div
      ref={boxRef}
      className={cn('relative w-full touch-pan-y overflow-hidden rounded-xl bg-stone-200 select-none', className)}
      style={{ aspectRatio: `${width} / ${height}` }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="before-after-slider"
      data-position={Math.round(position)}
    >
      {afterFailed ? (
        <Unavailable text="After image not available" />
      ) : (
        <Photo image={after} side="After" width={width} height={height} sizes={sizes} priority={priority} fit={fit} onError={onAfterError} />
      )}
      <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}>
        {beforeFailed ? (
          <Unavailable text="Before image not available" />
        ) : (
          <Photo image={before} side="Before" width={width} height={height} sizes={sizes} priority={priority} fit={fit} onError={onBeforeError} />
        )}
      </div>
      <span className="pointer-events-none absolute top-3 left-3 rounded-md bg-stone-900/75 px-2 py-1 text-xs font-semibold text-white">
        Before
      </span>
      <span className="pointer-events-none absolute top-3 right-3 rounded-md bg-stone-900/75 px-2 py-1 text-xs font-semibold text-white">
        After
      </span>
      <div className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow" style={{ left: `${position}%` }} />
      <div
        role="slider"
        tabIndex={0}
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(position)}
        aria-valuetext={`${Math.round(position)}% before`}
        onKeyDown={onKeyDown}
        className="absolute top-1/2 flex size-11 -translate-x-1/2 -translate-y-1/2 cursor-ew-resize items-center justify-center rounded-full border-2 border-white bg-accent-700 text-white shadow-lg focus-visible:outline-3 focus-visible:outline-white"
        style={{ left: `${position}%` }}
      >
        <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="m9 18-6-6 6-6M15 6l6 6-6 6" />
        </svg>
      </div>
    </div>
  );
}
