import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loginPath } from '../../lib/login-path.ts';
import { logoutState } from '../../lib/logout.ts';
import { useSession } from '../../lib/session.ts';
import { toast } from '../ui/use-toast.ts';

function Spinner() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center" role="status" aria-label="Loading your session">
      <div className="size-8 animate-spin rounded-full border-4 border-stone-200 border-t-accent-700" />
    </div>
  );
}

/**
 * A protected page waits with a spinner while the session loads; without a user
 * it says so and sends the visitor to /login with returnTo set to the current path and query.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: user, isPending, isError, error } = useSession();
  const location = useLocation();
  const told = useRef(false);
  const leaving = logoutState.leaving;
  const signedOut = !isPending && !isError && !user && !leaving;

  // The guard that was showing when the user logged out goes away with the page.
  useEffect(
    () => () => {
      logoutState.leaving = false;
    },
    [],
  );

  useEffect(() => {
    if (told.current) return;
    if (signedOut) {
      told.current = true;
      toast({ title: 'Authentication Required', description: 'Please sign in to access this page.', variant: 'destructive' });
    } else if (isError) {
      told.current = true;
      toast({ title: 'Authentication Error', description: error.message, variant: 'destructive' });
    }
  }, [signedOut, isError, error]);

  if (isPending) return <Spinner />;
  if (user) return <>{children}</>;
  if (leaving) return null;
  const returnTo = `${location.pathname}${location.search}`;
  return <Navigate to={loginPath(returnTo)} replace />;
}
