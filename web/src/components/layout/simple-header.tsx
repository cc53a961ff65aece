import { lazy, Suspense } from 'react';
import { useSession } from '../../lib/session.ts';
import { Logo } from './logo.tsx';

// The signed-in bar (with its menu library) loads only for visitors who have a session.
const AppHeader = lazy(() => import('./app-header.tsx').then((m) => ({ default: m.AppHeader })));

function PlainBar() {
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
        <Logo />
      </div>
    </header>
  );
}

/** Public pages other than the landing page: the signed-in top bar when a user exists, else a quiet bar. */
export function SimpleHeader() {
  const { data: user } = useSession();
  if (!user) return <PlainBar />;
  return (
    <Suspense fallback={<PlainBar />}>
      <AppHeader user={user} />
    </Suspense>
  );
}
