import { useNavigate } from 'react-router';
import { ArrowLeft, Check } from 'lucide-react';
import { CREDIT_PACKS, type CreditPack } from '@roomstager/contracts';
import { usePageMeta } from '../../app/use-page-meta.ts';
import { SimpleHeader } from '../../components/layout/simple-header.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { useSession } from '../auth/use-session.ts';

/** Where the plan chosen while signed out is remembered until checkout. */
export const INTENDED_PLAN_KEY = 'roomstager.intendedPlan';

export function PricingPage() {
  usePageMeta('/pricing');
  const navigate = useNavigate();
  const { data: user } = useSession();

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
    navigate(`/login?returnTo=${encodeURIComponent(checkout)}`);
  };

  return (
    <>
      <SimpleHeader />
      <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <Button variant="ghost" className="-ml-3" onClick={() => navigate(-1)}>
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
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {CREDIT_PACKS.map((pack) => (
            <Card key={pack.id} className={pack.popular ? 'relative flex flex-col border-accent-700 p-6 ring-2 ring-accent-700' : 'flex flex-col p-6'}>
              {pack.popular && (
                <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent-700 px-3 py-1 text-xs font-semibold text-white">
                  Most Popular
                </span>
              )}
              <h2 className="text-xl font-semibold">{pack.name}</h2>
              <p className="mt-4">
                <span className="text-4xl font-bold">${pack.priceUsd}</span>
                <span className="text-stone-600"> one-time</span>
              </p>
              <p className="mt-1 text-sm text-stone-600">{pack.credits} credits</p>
              <ul className="mt-6 flex-1 space-y-2 text-sm text-stone-700">
                {pack.features.map((f) => (
                  <li key={f} className="flex items-start gap-2">
                    <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-700" />
                    {f}
                  </li>
                ))}
              </ul>
              <Button variant={pack.popular ? 'primary' : 'outline'} className="mt-8 w-full" onClick={() => choose(pack)}>
                Choose {pack.name}
              </Button>
            </Card>
          ))}
        </div>
        <p className="mt-10 text-center">
          <ButtonLink to="/generate" variant="ghost">
            Back to Generate
          </ButtonLink>
        </p>
      </main>
    </>
  );
}
