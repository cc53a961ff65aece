import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { cn } from '../../lib/cn.ts';

const MAIN_ID = 'main-content';

/**
 * The keyboard's first stop on every page, shown only when focused: past the top bar to the
 * page's own content. Focus is moved by hand so the address does not gain a '#main-content'.
 */
export function SkipLink() {
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={skip}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:inline-flex focus:min-h-11 focus:items-center focus:rounded-lg focus:bg-white focus:px-4 focus:text-sm focus:font-semibold focus:text-accent-800 focus:shadow-lg focus:outline-2 focus:outline-accent-700"
    >
      Skip to content
    </a>
  );
}

/**
 * The page's <main>, where the skip link leads; focusable by script only, without a ring around the
 * whole page. A skip link taken on a prerendered page before React hydrated it followed its href
 * natively, which moves no focus in Chromium and leaves '#main-content' in the address: once React
 * is here, the main takes the focus and the address loses the fragment.
 */
export function MainContent({ className, children }: { className?: string; children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    if (hash !== `#${MAIN_ID}`) return;
    main.current?.focus();
    void navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, search, navigate]);
  return (
    <main ref={main} id={MAIN_ID} tabIndex={-1} className={cn('focus:outline-none', className)}>
      {children}
    </main>
  );
}
