import type { ReactNode } from 'react';
import { useSession } from '../../lib/session.ts';
import { AppHeader } from './app-header.tsx';
import { MainContent, SkipLink } from './main-content.tsx';
import { RequireAuth } from './require-auth.tsx';

function Shell({ children }: { children: ReactNode }) {
  const { data: user } = useSession();
  return (
    <>
      <SkipLink />
      {user && <AppHeader user={user} />}
      <MainContent className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">{children}</MainContent>
    </>
  );
}

/** Every signed-in screen: the session check, the signed-in top bar, the page. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <RequireAuth>
      <Shell>{children}</Shell>
    </RequireAuth>
  );
}
