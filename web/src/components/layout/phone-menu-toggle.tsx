import type { RefObject } from 'react';
import { Menu, X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

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
  // The public pages' top bar is prerendered: it opens nothing until React has hydrated it.
  const hydrated = useHydrated();
  return (
    <button
      ref={toggleRef}
      type="button"
      className={cn('inline-flex size-11 items-center justify-center rounded-md text-stone-700 hover:bg-stone-100', className)}
      aria-expanded={open}
      aria-controls={menuId}
      aria-label={open ? 'Close menu' : 'Open menu'}
      disabled={!hydrated}
      onClick={onToggle}
    >
      {open ? <X aria-hidden className="size-6" /> : <Menu aria-hidden className="size-6" />}
    </button>
  );
}
