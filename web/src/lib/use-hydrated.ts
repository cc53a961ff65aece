import { useEffect, useState } from 'react';

/**
 * False until React has hydrated the page, then true. The public pages are prerendered, so their
 * buttons show before their handlers exist: a click in between (a slow phone, a loaded machine)
 * was lost without a sign. Buttons that act through a handler stay disabled until then.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
