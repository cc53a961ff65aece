/** A text input's or select's look: 44 px tall for a thumb, the accent outline when focused. */
export const fieldClass =
  'block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900 focus-visible:border-accent-700 focus-visible:outline-2 focus-visible:outline-accent-700';
