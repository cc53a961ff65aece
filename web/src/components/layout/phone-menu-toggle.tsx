import type { RefObject } from 'react';
import { Menu, X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

/** The button that opens and closes a top bar's phone menu; `usePhoneMenu` gives its state and ref. */
export function PhoneMenuToggle({
  open,
  onToggle,
  menuId,
  toggleRef,
  className,
}: {
  open: boolean;
  onToggle: () => void;
  /** The id of the menu it shows, for `aria-controls`. */
  menuId: string;
  toggleRef: RefObject<HTMLButtonElement | null>;
  className?: string;
}) {
  return (
    <button
      ref={toggleRef}
      type="button"
      className={cn('inline-flex size-11 items-center justify-center rounded-md text-stone-700 hover:bg-stone-100', className)}
      aria-expanded={open}
      aria-controls={menuId}
      aria-label={open ? 'Close menu' : 'Open menu'}
      onClick={onToggle}
    >
      {open ? <X aria-hidden className="size-6" /> : <Menu aria-hidden className="size-6" />}
    </button>
  );
}
