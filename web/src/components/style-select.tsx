import { STYLES, type Style } from '@roomstager/contracts';
import { cn } from '../lib/cn.ts';
import { STYLE_INFO } from '../lib/style-info.ts';
import { fieldClass } from './ui/field.ts';

interface StyleSelectProps {
  id: string;
  value: Style;
  onChange: (style: Style) => void;
  disabled?: boolean;
  className?: string;
  /** Each option with its description too, where the choice is made once (a new listing). */
  describe?: boolean;
}

/** A select of the four styles by name; its label is the caller's (`htmlFor` its id). */
export function StyleSelect({ id, value, onChange, disabled, className, describe = false }: StyleSelectProps) {
  return (
    <select id={id} className={cn(fieldClass, className)} value={value} onChange={(e) => onChange(e.target.value as Style)} disabled={disabled}>
      {STYLES.map((s) => (
        <option key={s} value={s}>
          {describe ? `${STYLE_INFO[s].name}: ${STYLE_INFO[s].description}` : STYLE_INFO[s].name}
        </option>
      ))}
    </select>
  );
}
