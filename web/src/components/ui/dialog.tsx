import type { ReactNode } from 'react';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  className?: string;
  /** Lets an inner control (an input being edited) keep Escape for itself. */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  /**
   * The element focus returns to on close, normally the opener. Radix returns focus only to a
   * Dialog.Trigger; these dialogs open from code, and without this it would fall to the page body.
   */
  returnFocus: () => HTMLElement | null | undefined;
}

/** Radix dialog: focus moves in and is trapped, Escape closes, focus returns to the opener. */
export function Dialog({ open, onOpenChange, title, description, children, className, onEscapeKeyDown, returnFocus }: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-stone-950/60" />
        <DialogPrimitive.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-4 shadow-xl sm:p-6',
            className,
          )}
          onEscapeKeyDown={onEscapeKeyDown}
          onKeyDown={(e) => {
            // Radix gives Escape to the topmost layer only, and a toast is a layer of its own: while
            // one shows, Escape would close just the toast. Pressed in the dialog, it closes the
            // dialog too, unless an inner control or the dialog's own layer has handled it already.
            const escape = e.nativeEvent;
            if (escape.key !== 'Escape' || escape.defaultPrevented) return;
            onEscapeKeyDown?.(escape);
            if (escape.defaultPrevented) return;
            escape.preventDefault();
            onOpenChange(false);
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            returnFocus()?.focus();
          }}
        >
          <DialogPrimitive.Title className="pr-10 text-xl font-semibold">{title}</DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description className="mt-1 text-sm text-stone-600">{description}</DialogPrimitive.Description>
          ) : (
            <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
          )}
          {children}
          <DialogPrimitive.Close
            aria-label="Close"
            className="absolute top-4 right-4 inline-flex size-11 items-center justify-center rounded-md text-stone-600 hover:bg-stone-100"
          >
            <X aria-hidden className="size-5" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
