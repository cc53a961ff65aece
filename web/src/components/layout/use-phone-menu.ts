import { useEffect, useRef, useState } from 'react';

/**
 * The open state of a top bar's phone menu. Escape closes it, as any menu, and puts focus back on
 * its toggle button rather than letting it fall to the top of the page with the menu's links.
 */
export function usePhoneMenu() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
  return { open, setOpen, toggleRef };
}
