import { useNavigate } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import type { CreditPack } from '@roomstager/contracts';
import { MainContent, SkipLink } from '../../components/layout/main-content.tsx';
import { SimpleHeader } from '../../components/layout/simple-header.tsx';
import { PackGrid } from '../../components/pack-card.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { loginPath } from '../../lib/login-path.ts';
import { useSession } from '../../lib/session.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';

/** Where the plan chosen while signed out is remembered until checkout. */
export const INTENDED_PLAN_KEY = 'roomstager.intendedPlan';

export function PricingPage() {
  usePageMeta('/pricing');
  const navigate = useNavigate();
  const { data: user } = useSession();
  const hydrated = useHydrated();

  const choose = (pack: CreditPack) => {
    const checkout = `/checkout/${pack.priceUsd}`;
    if (user) {
      navigate(checkout);
      return;
    }
    try {
      window.localStorage.setItem(INTENDED_PLAN_KEY, String(pack.priceUsd));
    } catch {
      // Storage may be unavailable (private mode); the returnTo still carries the plan.
    }
    navigate(loginPath(checkout));
  };

  return (
    <>
      <SkipLink />
      <SimpleHeader />
      <MainContent className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <Button variant="ghost" className="-ml-3" onClick={() => navigate(-1)} disabled={!hydrated}>
            <ArrowLeft aria-hidden className="size-4" />
            Back
          </Button>
          {user && (
            <p className="text-sm text-stone-600">
              Logged in as <span className="font-semibold text-stone-900">{user.username}</span>
            </p>
          )}
        </div>
        <h1 className="mt-6 text-center text-3xl font-bold tracking-tight sm:text-4xl">Choose your credit pack</h1>
        <p className="mx-auto mt-3 max-w-2xl text-center text-stone-600">
          One credit stages one photo. Pay once, use your credits whenever you like: they never expire.
        </p>
        <PackGrid
          heading="h2"
          price={(pack) => (
            <>
              <p className="mt-4">
                <span className="text-4xl font-bold">${pack.priceUsd}</span>
                <span className="text-stone-600"> one-time</span>
              </p>
              <p className="mt-1 text-sm text-stone-600">{pack.credits} credits</p>
            </>
          )}
          action={(pack) => (
            <Button variant={pack.popular ? 'primary' : 'outline'} className="mt-8 w-full" onClick={() => choose(pack)} disabled={!hydrated}>
              Choose {pack.name}
            </Button>
          )}
        />
        <p className="mt-10 text-center">
          <ButtonLink to="/generate" variant="ghost">
            Back to Generate
          </ButtonLink>
        </p>
      </MainContent>
    </>
  );
}
