import { useEffect } from 'react';
import { PAGE_META, type PageKey } from './page-meta.ts';

/** Keeps the document's title and description in step with the page shown. */
export function usePageMeta(key: PageKey): void {
  useEffect(() => {
    const meta = PAGE_META[key];
    document.title = meta.title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  }, [key]);
}
