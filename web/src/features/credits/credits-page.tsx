import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { CheckCircle2, Coins } from 'lucide-react';
import { CREDIT_PACKS } from '@roomstager/contracts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { useSession } from '../../lib/session.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { useCreditTransactions } from './api.ts';

/** US format with a short month, e.g. 'Nov 23, 2026, 9:41 AM'. */
export const formatTransactionDate = (iso: string): string =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The sign and colour follow the amount: credits in are green '+', credits out blue '-'. */
export function signedAmount(amount: number): { text: string; positive: boolean } {
  return amount >= 0 ? { text: `+${amount}`, positive: true } : { text: `-${Math.abs(amount)}`, positive: false };
}

function SuccessBanner() {
  return (
    <Alert variant="success" className="mb-6 flex items-start gap-3">
      <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-green-700" />
      <div>
        <p className="font-semibold">Payment Successful!</p>
        <p className="mt-1">Your credits have been added to your account. You can start staging your properties now.</p>
      </div>
    </Alert>
  );
}

function History() {
  const { data, isPending, isError } = useCreditTransactions();
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Credit History</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <p className="text-sm text-stone-600" role="status">
            Loading transactions...
          </p>
        ) : isError ? (
          <p className="text-sm text-red-700" role="alert">
            Could not load your transactions. Please reload the page.
          </p>
        ) : !data || data.length === 0 ? (
          <div className="py-6 text-center">
            <p className="font-medium text-stone-900">No credit transactions yet</p>
            <p className="mt-1 text-sm text-stone-600">Purchase credits to start staging your properties</p>
          </div>
        ) : (
          <ul className="divide-y divide-stone-200">
            {data.map((t) => {
              const amount = signedAmount(t.amount);
              return (
                <li key={t.id} className="flex items-center justify-between gap-4 py-3">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-stone-900">{t.description}</p>
                    <p className="text-sm text-stone-600">{formatTransactionDate(t.createdAt)}</p>
                  </div>
                  <span className={cn('shrink-0 font-semibold tabular-nums', amount.positive ? 'text-green-700' : 'text-blue-700')}>{amount.text}</span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function GetStarted() {
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Get Started with Credits</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-stone-700">Each credit generates one professionally staged room photo. Choose a pack to get going:</p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-3">
          {CREDIT_PACKS.map((p) => (
            <li key={p.id} className="rounded-lg border border-stone-200 p-4">
              <p className="font-semibold">{p.name}</p>
              <p className="text-sm text-stone-600">
                ${p.priceUsd} for {p.credits} credits
              </p>
            </li>
          ))}
        </ul>
        <ButtonLink to="/pricing" className="mt-6">
          View Pricing Plans
        </ButtonLink>
      </CardContent>
    </Card>
  );
}

export default function CreditsPage() {
  usePageMeta('/credits');
  const { data: user } = useSession();
  const location = useLocation();
  // Read once: the banner shows after a payment, and the address loses its flag at once.
  const [showBanner] = useState(() => new URLSearchParams(location.search).get('success') === 'true');
  useEffect(() => {
    if (location.search) window.history.replaceState(window.history.state, '', '/credits');
  }, [location.search]);

  if (!user) return null;
  const credits = user.credits;
  return (
    <>
      {showBanner && <SuccessBanner />}
      <h1 className="text-3xl font-bold tracking-tight">Credits &amp; Billing</h1>
      <div className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle className="text-base text-stone-600">Current Balance</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="flex items-center gap-2 text-4xl font-bold">
              <Coins aria-hidden className="size-8 text-accent-700" />
              <span data-testid="credits-page-balance">{credits}</span>
            </p>
            <p className="mt-1 text-sm text-stone-600">{credits === 1 ? 'credit' : 'credits'}</p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base text-stone-600">Status</CardTitle>
          </CardHeader>
          <CardContent>
            <Badge variant={credits > 0 ? 'success' : 'destructive'} className="text-sm">
              {credits > 0 ? 'Active' : 'No Credits'}
            </Badge>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base text-stone-600">Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            {credits === 0 ? (
              <Button disabled>Start Staging</Button>
            ) : (
              <ButtonLink to="/generate">Start Staging</ButtonLink>
            )}
            <ButtonLink to="/pricing" variant="outline">
              Buy More Credits
            </ButtonLink>
          </CardContent>
        </Card>
      </div>
      {credits === 0 && <GetStarted />}
      <History />
    </>
  );
}
