import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { MainContent, SkipLink } from '../../components/layout/main-content.tsx';
import { SimpleHeader } from '../../components/layout/simple-header.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { navigation } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { storeReturnUrl } from './api.ts';
import { signInErrorMessage } from './sign-in-errors.ts';

export const GOOGLE_SIGN_IN_PATH = '/api/auth/google';

function GoogleMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-5">
      <path fill="#4285F4" d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z" />
      <path fill="#34A853" d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.84 14.09A6.6 6.6 0 0 1 5.5 12c0-.73.13-1.43.34-2.09V7.07H2.18a11 11 0 0 0 0 9.86l3.66-2.84z" />
      <path fill="#EA4335" d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.07l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z" />
    </svg>
  );
}

interface SignInPageProps {
  mode: 'login' | 'signup';
}

/** /login and /signup, for visitors: someone already signed in has nothing to do here. */
function SignInPage({ mode }: SignInPageProps) {
  const { data: user } = useSession();
  if (user) return <Navigate to="/generate" replace />;
  return <SignInCard mode={mode} />;
}

/**
 * One Google button. The error alert and returnTo come from the address, which is cleaned right
 * after they are read (returnTo is kept in memory for the click).
 */
function SignInCard({ mode }: SignInPageProps) {
  usePageMeta(mode === 'login' ? '/login' : '/signup');
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const returnTo = useRef<string | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const code = params.get('error');
    if (params.has('returnTo')) returnTo.current = params.get('returnTo');
    if (code !== null) setError(signInErrorMessage(code, params.get('message')));
    if (location.search) window.history.replaceState(window.history.state, '', location.pathname);
  }, [location.search, location.pathname]);

  const signIn = async () => {
    setPending(true);
    if (returnTo.current) {
      try {
        await storeReturnUrl(returnTo.current);
      } catch {
        // The result is ignored: sign-in then lands on the default page.
      }
    }
    navigation.assign(GOOGLE_SIGN_IN_PATH);
  };

  const login = mode === 'login';
  return (
    <>
      <SkipLink />
      <SimpleHeader />
      <MainContent className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-stone-50 px-4 py-16">
        <Card className="w-full max-w-md p-8">
          <h1 className="text-center text-2xl font-bold tracking-tight">{login ? 'Welcome Back' : 'Create Your Account'}</h1>
          <p className="mt-2 text-center text-sm text-stone-600">
            {login ? 'Sign in to stage your rooms and see your gallery.' : 'Sign up to get free trial credits and stage your first room.'}
          </p>
          {error && (
            <Alert variant="destructive" className="mt-6">
              {error}
            </Alert>
          )}
          <Button variant="outline" size="lg" className="mt-6 w-full" onClick={signIn} disabled={pending || !hydrated}>
            <GoogleMark />
            {login ? 'Sign in with Google' : 'Sign up with Google'}
          </Button>
          {login ? (
            <p className="mt-6 inline-flex w-full items-center justify-center gap-2 text-sm text-stone-600">
              <ShieldCheck aria-hidden className="size-4 text-accent-700" />
              Secure authentication powered by Google
            </p>
          ) : (
            <p className="mt-6 text-center text-sm text-stone-600">
              Already have an account?{' '}
              <Link to="/login" className="font-medium text-accent-700 underline-offset-4 hover:underline">
                Sign in
              </Link>
            </p>
          )}
        </Card>
      </MainContent>
    </>
  );
}

export const LoginPage = () => <SignInPage mode="login" />;
export const SignupPage = () => <SignInPage mode="signup" />;
