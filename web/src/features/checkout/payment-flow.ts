import type { CreditPack, PaymentResult } from '@roomstager/contracts';
import { ApiError } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { captureOrder, confirmPayment } from './api.ts';

/** The payment button's states. */
export type PaymentState = 'loading' | 'ready' | 'order-created' | 'approved' | 'captured' | 'credits-recorded' | 'error';

/** The payment error texts. */
export const PAYMENT_ERRORS = {
  loadFailed: 'Failed to load PayPal. Please refresh the page.',
  initFailed: 'Failed to initialize PayPal. Please refresh the page.',
  initFailedShort: 'PayPal initialization failed',
  createFailed: 'Failed to create order. Please try again.',
  processingFailed: 'Payment processing failed. Please try again.',
  creditFailed: 'Payment completed but credit processing failed. Please contact support.',
  network: 'Payment failed. Please check your connection and try again.',
  cancelled: 'Payment was cancelled. You can try again when ready.',
  renderFailed: 'Failed to render PayPal button. Please refresh the page.',
} as const;

/** Redirect to /credits?success=true this long after success. */
export const SUCCESS_REDIRECT_MS = 500;

export class LoginRequiredError extends Error {
  constructor() {
    super('Please log in to continue');
    this.name = 'LoginRequiredError';
  }
}

/** Purchase creation: a 401 (or a redirect to sign-in) means the session is gone. */
export function asPurchaseError(error: unknown): Error {
  if (error instanceof ApiError && (error.status === 401 || error.status === 302)) return new LoginRequiredError();
  if (error instanceof TypeError) return new Error(PAYMENT_ERRORS.network);
  return error instanceof Error ? error : new Error(PAYMENT_ERRORS.createFailed);
}

/** PayPal's answer when the buyer's funding source is declined at capture: recoverable, the buyer picks another. */
export const INSTRUMENT_DECLINED = 'INSTRUMENT_DECLINED';

/** The same words the server answers INSTRUMENT_DECLINED with, telling the buyer to pick another way to pay. */
export const INSTRUMENT_DECLINED_TEXT = 'Your payment method was declined. Please choose another way to pay.';

/** Shown while PayPal holds a PENDING capture, and when polling gives up waiting for it. */
export const PENDING_TEXTS = {
  waiting: 'PayPal is still processing your payment. Your credits will be added as soon as it completes.',
  timedOut:
    'PayPal has not confirmed your payment yet. Your credits will be added automatically as soon as PayPal confirms it; you can check your balance on the Credits & Billing page.',
} as const;

/** A failed step of the payment flow: the text to show, and the server's error code when it sent one. */
export class PaymentFlowError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PaymentFlowError';
  }
}

/** The server's error code (`error` of the answer's body), if the error carries one. */
export function errorCode(error: unknown): string | undefined {
  if (error instanceof PaymentFlowError) return error.code;
  if (error instanceof ApiError && typeof error.error === 'string') return error.error;
  return undefined;
}

export const isInstrumentDeclined = (error: unknown): boolean => errorCode(error) === INSTRUMENT_DECLINED;

/** Capture on the server, then confirm: the server credits from what PayPal says, never from captureData. */
export async function captureAndRecord(orderID: string, onCaptured: () => void): Promise<PaymentResult> {
  let captureData: PaymentResult;
  try {
    captureData = await captureOrder(orderID);
  } catch (error) {
    if (isInstrumentDeclined(error)) throw new PaymentFlowError(INSTRUMENT_DECLINED_TEXT, INSTRUMENT_DECLINED, { cause: error });
    throw new PaymentFlowError(error instanceof TypeError ? PAYMENT_ERRORS.network : PAYMENT_ERRORS.processingFailed, errorCode(error), { cause: error });
  }
  onCaptured();
  try {
    return await confirmPayment(orderID, captureData);
  } catch (error) {
    throw new PaymentFlowError(PAYMENT_ERRORS.creditFailed, errorCode(error), { cause: error });
  }
}

/** How `complete` ended: done (success, pending or an error shown), or PayPal must let the buyer choose again. */
export type CompleteOutcome = 'done' | 'restart';

/** What a payment button (PayPal's, or the simulator's) reports to the checkout page. */
export interface PaymentHandlers {
  pack: CreditPack;
  setState: (state: PaymentState) => void;
  fail: (message: string) => void;
  onPurchaseError: (error: unknown) => void;
  /** 'restart' when PayPal declined the funding source: the buyer chooses another. */
  complete: (orderID: string) => Promise<CompleteOutcome>;
  cancelled: () => void;
}

/** What PayPal's onApprove hands over that the flow uses (a fake in tests). */
export interface ApproveActions {
  restart: () => void | Promise<void>;
}

/**
 * PayPal's onApprove: capture and record; when PayPal declined the funding source
 * (INSTRUMENT_DECLINED), return `actions.restart()` so the buyer picks another one in PayPal's
 * window instead of hitting a dead end.
 */
export async function approveWithRestart(
  orderID: string,
  actions: ApproveActions,
  complete: (orderID: string) => Promise<CompleteOutcome>,
): Promise<void> {
  const outcome = await complete(orderID);
  if (outcome === 'restart') return actions.restart();
}

// ---- A PENDING capture is polled until PayPal decides, with a bounded backoff ---------------------

/** First poll 2 s after the PENDING answer (the app's polling interval), doubling up to 30 s; 2 minutes in all. */
export const PENDING_POLL = { firstDelayMs: 2000, maxDelayMs: 30_000, timeLimitMs: 120_000 } as const;

/** The wait before poll number `attempt` (0 for the first). */
export function pendingPollDelay(attempt: number): number {
  return Math.min(PENDING_POLL.firstDelayMs * 2 ** Math.max(0, attempt), PENDING_POLL.maxDelayMs);
}

export type PendingVerdict =
  | { kind: 'waiting' }
  | { kind: 'completed'; result: PaymentResult }
  | { kind: 'failed'; message: string }
  | { kind: 'timed-out' };

/** A poll that failed for a reason that may pass (network, rate limit, server or PayPal unavailable). */
function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

/**
 * What the latest poll says. `at` is when it answered, `startedAt` when the PENDING answer came:
 * COMPLETED ends in success; DECLINED, FAILED or REFUNDED, or a refusal of the server (such as
 * 422 PAYMENT_DECLINED), in the processing-failed text; anything else waits, until the time limit.
 */
export function pendingVerdict(poll: { data?: PaymentResult | undefined; error?: unknown; at: number; startedAt: number }): PendingVerdict {
  if (poll.error != null) {
    if (!isTransient(poll.error)) return { kind: 'failed', message: PAYMENT_ERRORS.processingFailed };
  } else if (poll.data) {
    if (poll.data.status === 'COMPLETED') return { kind: 'completed', result: poll.data };
    if (poll.data.status !== 'PENDING' && poll.data.status !== 'CREATED') return { kind: 'failed', message: PAYMENT_ERRORS.processingFailed };
  }
  return poll.at - poll.startedAt >= PENDING_POLL.timeLimitMs ? { kind: 'timed-out' } : { kind: 'waiting' };
}

/** The state of the polling query that `pendingVerdict` and the interval read. */
export interface PendingQueryState {
  data: PaymentResult | undefined;
  error: unknown;
  dataUpdatedAt: number;
  errorUpdatedAt: number;
  dataUpdateCount: number;
  errorUpdateCount: number;
}

export function verdictOf(state: Pick<PendingQueryState, 'data' | 'error' | 'dataUpdatedAt' | 'errorUpdatedAt'>, startedAt: number): PendingVerdict {
  const errorIsLatest = state.error != null && state.errorUpdatedAt >= state.dataUpdatedAt;
  return pendingVerdict({
    data: errorIsLatest ? undefined : state.data,
    error: errorIsLatest ? state.error : undefined,
    at: Math.max(state.dataUpdatedAt, state.errorUpdatedAt),
    startedAt,
  });
}

/**
 * The polling query (TanStack Query options) of a PENDING payment: asks the server again through
 * the confirmation call, which is idempotent, owner-only and asks PayPal about a pending capture. The PENDING answer itself is the initial data, so the first poll waits its delay; every
 * answer sets the next delay, never past the time limit, and a verdict other than waiting stops it.
 */
export function pendingPaymentQuery(orderID: string, pending: PaymentResult, startedAt: number) {
  return {
    queryKey: queryKeys.pendingPayment(orderID),
    queryFn: () => confirmPayment(orderID),
    initialData: pending,
    initialDataUpdatedAt: startedAt,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    refetchInterval: (query: { state: PendingQueryState }): number | false => {
      const { state } = query;
      if (verdictOf(state, startedAt).kind !== 'waiting') return false;
      const polls = state.dataUpdateCount + state.errorUpdateCount;
      const last = Math.max(state.dataUpdatedAt, state.errorUpdatedAt);
      const left = startedAt + PENDING_POLL.timeLimitMs - last;
      return Math.max(1, Math.min(pendingPollDelay(polls), left));
    },
  };
}
