import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { AlertTriangle, ShieldCheck } from 'lucide-react';
import { packByPrice, type CreditPack, type PaymentResult } from '@roomstager/contracts';
import { PackFeatures } from '../../components/pack-card.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { cn } from '../../lib/cn.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { createSimulatorOrder, usePaypalConfig } from './api.ts';
import {
  asPurchaseError,
  captureAndRecord,
  INSTRUMENT_DECLINED_TEXT,
  isInstrumentDeclined,
  LoginRequiredError,
  PAYMENT_ERRORS,
  pendingPaymentQuery,
  PENDING_TEXTS,
  SUCCESS_REDIRECT_MS,
  verdictOf,
  type PaymentHandlers,
  type PaymentState,
  type PendingVerdict,
} from './payment-flow.ts';

// PayPal's own button (and its SDK) only loads where real PayPal is configured.
const PayPalCheckout = lazy(() => import('./paypal-buttons.tsx'));

const STATE_TEXT: Record<PaymentState, string> = {
  loading: 'Loading payment options...',
  ready: 'Ready to pay',
  'order-created': 'Order created. Waiting for your approval...',
  approved: 'Payment approved. Completing your payment...',
  captured: 'Payment received. Adding your credits...',
  'credits-recorded': 'Credits added! Taking you to your credits...',
  error: 'PayPal Error',
};

function OrderSummary({ pack }: { pack: CreditPack }) {
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold">Order summary</h2>
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-stone-600">Package</dt>
          <dd className="font-medium">{pack.name}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-stone-600">Credits</dt>
          <dd className="font-medium">{pack.credits}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-stone-200 pt-3 text-base">
          <dt className="font-semibold">Total</dt>
          <dd className="font-bold">${pack.priceUsd.toFixed(2)} USD</dd>
        </div>
      </dl>
      <PackFeatures pack={pack} className="mt-6" />
      <p className="mt-6 rounded-lg bg-accent-50 p-3 text-sm text-accent-900">Credits never expire</p>
    </Card>
  );
}

/** The PayPal simulator's button: the same server calls and states, approved on the simulator's page. */
function SimulatorButton({ handlers }: { handlers: PaymentHandlers }) {
  const [pending, setPending] = useState(false);
  useEffect(() => handlers.setState('ready'), [handlers]);
  const pay = async () => {
    setPending(true);
    try {
      const order = await createSimulatorOrder(handlers.pack);
      handlers.setState('order-created');
      if (!order.approveUrl) throw new Error(PAYMENT_ERRORS.createFailed);
      window.location.assign(order.approveUrl);
    } catch (error) {
      setPending(false);
      handlers.onPurchaseError(error);
    }
  };
  return (
    <div className="rounded-xl border-2 border-dashed border-amber-400 bg-amber-50 p-4">
      <p className="text-sm font-semibold text-amber-900">Development payment (PayPal simulator)</p>
      <p className="mt-1 text-sm text-amber-900">No real money moves. The simulator speaks PayPal's API, so the real checkout code runs.</p>
      <Button className="mt-3 w-full" size="lg" onClick={pay} disabled={pending}>
        Pay ${handlers.pack.priceUsd.toFixed(2)} with the PayPal simulator
      </Button>
    </div>
  );
}

interface PendingPaymentInfo {
  orderID: string;
  result: PaymentResult;
  startedAt: number;
}

/** A PENDING capture: asks the server again with a bounded backoff until PayPal decides. */
function PendingPaymentWatcher({ pending, onVerdict }: { pending: PendingPaymentInfo; onVerdict: (verdict: PendingVerdict) => void }) {
  const poll = useQuery(pendingPaymentQuery(pending.orderID, pending.result, pending.startedAt));
  const verdict = verdictOf(poll, pending.startedAt);
  const reported = useRef(false);
  useEffect(() => {
    if (verdict.kind === 'waiting' || reported.current) return;
    reported.current = true;
    onVerdict(verdict);
  }, [verdict, onVerdict]);
  return null;
}

interface CheckoutHandlers extends PaymentHandlers {
  succeed: () => void;
  pendingVerdict: (verdict: PendingVerdict) => void;
}

function Checkout({ pack }: { pack: CreditPack }) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<PaymentState>('loading');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingPaymentInfo | null>(null);
  const config = usePaypalConfig();
  const returned = useRef(false);

  const handlers = useRef<CheckoutHandlers | null>(null);
  if (!handlers.current) {
    handlers.current = {
      pack,
      setState,
      fail: (message) => {
        setError(message);
        setState('error');
      },
      onPurchaseError: (err) => {
        const e = asPurchaseError(err);
        if (e instanceof LoginRequiredError) {
          toast({ title: 'Login Required', description: 'Please log in to purchase credits.', variant: 'destructive' });
          navigate('/login');
          return;
        }
        toast({ title: 'Purchase Failed', description: e.message, variant: 'destructive' });
        setState('ready');
      },
      succeed: () => {
        setState('credits-recorded');
        // The balance, history and stats all changed: read them again.
        void queryClient.invalidateQueries({ queryKey: queryKeys.session });
        void queryClient.invalidateQueries({ queryKey: queryKeys.creditTransactions });
        void queryClient.invalidateQueries({ queryKey: queryKeys.userStats });
        window.setTimeout(() => navigate('/credits?success=true'), SUCCESS_REDIRECT_MS);
      },
      complete: async (orderID) => {
        setState('approved');
        setNotice(null);
        try {
          const result: PaymentResult = await captureAndRecord(orderID, () => setState('captured'));
          if (result.status === 'PENDING') {
            // PayPal holds the payment; keep asking until it decides (or we stop waiting).
            setNotice(PENDING_TEXTS.waiting);
            setState('approved');
            setPending({ orderID, result, startedAt: Date.now() });
            return 'done';
          }
          handlers.current?.succeed();
          return 'done';
        } catch (err) {
          if (isInstrumentDeclined(err)) {
            // Recoverable: PayPal's window reopens (restart) for another funding source.
            setNotice(INSTRUMENT_DECLINED_TEXT);
            setState('ready');
            return 'restart';
          }
          setError((err as Error).message);
          setState('error');
          return 'done';
        }
      },
      pendingVerdict: (verdict) => {
        setPending(null);
        if (verdict.kind === 'completed') {
          setNotice(null);
          handlers.current?.succeed();
        } else if (verdict.kind === 'failed') {
          setNotice(null);
          setError(verdict.message);
          setState('error');
        } else if (verdict.kind === 'timed-out') {
          setNotice(PENDING_TEXTS.timedOut);
          setState('ready');
        }
      },
      cancelled: () => {
        setNotice(PAYMENT_ERRORS.cancelled);
        setState('ready');
      },
    };
  }

  // Back from PayPal's (or the simulator's) approval page: ?token=ORDER&PayerID=.. once approved,
  // or ?cancelled=true. Only PayPal's PayerID says the buyer approved: an address with a token alone
  // (typed, bookmarked, or a cancelled flow) must not capture an order nobody approved.
  useEffect(() => {
    if (returned.current) return;
    const params = new URLSearchParams(location.search);
    const token = params.get('token');
    if (!token && !params.has('cancelled')) return;
    returned.current = true;
    window.history.replaceState(window.history.state, '', location.pathname);
    if (token && params.get('PayerID') && params.get('cancelled') !== 'true') void handlers.current?.complete(token);
    else handlers.current?.cancelled();
  }, [location.search, location.pathname]);

  const h = handlers.current;
  const busy = state === 'approved' || state === 'captured';
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <OrderSummary pack={pack} />
      <Card className="p-6">
        <h2 className="text-lg font-semibold">Payment</h2>
        <p className="mt-1 flex items-center gap-2 text-sm text-stone-600">
          <ShieldCheck aria-hidden className="size-4 text-accent-700" />
          Secure payment with PayPal. One-time purchase, no subscription.
        </p>
        <p className="mt-4 text-sm font-medium text-stone-800" role="status" aria-live="polite" data-testid="payment-state">
          {state === 'error' ? '' : STATE_TEXT[state]}
        </p>
        {notice && (
          <Alert className="mt-4" variant="default">
            {notice}
          </Alert>
        )}
        {state === 'error' ? (
          <Alert variant="destructive" className="mt-4">
            <p className="flex items-center gap-2 font-semibold">
              <AlertTriangle aria-hidden className="size-4" />
              PayPal Error
            </p>
            <p className="mt-1">{error}</p>
            <Button variant="outline" className="mt-3" onClick={() => window.location.reload()}>
              Reload Page
            </Button>
          </Alert>
        ) : config.isError ? (
          <Alert variant="destructive" className="mt-4">
            <p className="font-semibold">PayPal Error</p>
            <p className="mt-1">{PAYMENT_ERRORS.initFailedShort}</p>
            <p className="mt-1">{PAYMENT_ERRORS.initFailed}</p>
            <Button variant="outline" className="mt-3" onClick={() => window.location.reload()}>
              Reload Page
            </Button>
          </Alert>
        ) : config.data && state !== 'credits-recorded' ? (
          config.data.environment === 'simulator' ? (
            busy ? null : (
              <div className="mt-4">
                <SimulatorButton handlers={h} />
              </div>
            )
          ) : (
            // PayPal's button stays mounted (inert) while the payment completes: onApprove's
            // actions.restart() needs it when PayPal declines the funding source.
            <div className={cn('mt-4', busy && 'pointer-events-none opacity-50')} inert={busy} aria-busy={busy}>
              <Suspense fallback={<p className="text-sm text-stone-600">Loading PayPal...</p>}>
                <PayPalCheckout clientId={config.data.clientId} handlers={h} />
              </Suspense>
            </div>
          )
        ) : null}
        {pending && <PendingPaymentWatcher key={pending.orderID} pending={pending} onVerdict={h.pendingVerdict} />}
      </Card>
    </div>
  );
}

export default function CheckoutPage() {
  usePageMeta('/checkout');
  const { amount = '' } = useParams();
  const navigate = useNavigate();
  const pack = /^\d+$/.test(amount) ? packByPrice(Number(amount)) : undefined;

  // Only the three packs can be bought; anything else goes back to the plans.
  useEffect(() => {
    if (pack) return;
    toast({ title: 'Package not found', description: 'That credit package does not exist. Please choose one of our plans.', variant: 'destructive' });
    navigate('/pricing', { replace: true });
  }, [pack, navigate]);

  if (!pack) return null;
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      <p className="mt-2 text-stone-600">
        {pack.name} pack: {pack.credits} credits for ${pack.priceUsd}
      </p>
      <div className="mt-8">
        <Checkout pack={pack} />
      </div>
    </>
  );
}
