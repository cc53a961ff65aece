import { environmentManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import type { PaymentResult } from '@roomstager/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api-client.ts';
import {
  approveWithRestart,
  captureAndRecord,
  errorCode,
  INSTRUMENT_DECLINED,
  INSTRUMENT_DECLINED_TEXT,
  isInstrumentDeclined,
  PAYMENT_ERRORS,
  PaymentFlowError,
  PENDING_POLL,
  pendingPaymentQuery,
  pendingPollDelay,
  pendingVerdict,
  verdictOf,
  type CompleteOutcome,
} from '../src/features/checkout/payment-flow.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const result = (status: PaymentResult['status'], balance = 3): PaymentResult => ({ id: 'ORDER1', status, pack: 'starter', credits: 10, balance, captureId: 'CAP1' });

/** A fake server: answers each call with the next of `answers` (the last one repeats) and records the calls. */
function fakeServer(answers: Array<() => Response>) {
  const calls: Array<{ url: string; body: unknown; at: number }> = [];
  const fetchStub = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined, at: Date.now() });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] as () => Response;
    return answer();
  });
  vi.stubGlobal('fetch', fetchStub);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('capture errors keep the server code', () => {
  it('turns INSTRUMENT_DECLINED into a recoverable error telling the buyer to choose another way to pay', async () => {
    const calls = fakeServer([() => json(422, { message: 'Your payment method was declined. Please choose another way to pay.', error: 'INSTRUMENT_DECLINED' })]);
    const captured = vi.fn();
    const err = await captureAndRecord('ORDER1', captured).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentFlowError);
    expect(err).toMatchObject({ code: INSTRUMENT_DECLINED, message: INSTRUMENT_DECLINED_TEXT });
    expect((err as Error).cause).toBeInstanceOf(ApiError);
    expect(isInstrumentDeclined(err)).toBe(true);
    expect(captured).not.toHaveBeenCalled();
    expect(calls.map((c) => c.url)).toEqual(['/api/paypal/order/ORDER1/capture']);
  });

  it("keeps the processing-failed text for other failures, with their code", async () => {
    fakeServer([() => json(422, { message: 'The payment was declined.', error: 'PAYMENT_DECLINED' })]);
    const err = await captureAndRecord('ORDER1', () => undefined).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: PAYMENT_ERRORS.processingFailed, code: 'PAYMENT_DECLINED' });
    expect(isInstrumentDeclined(err)).toBe(false);

    fakeServer([() => json(502, { message: 'PayPal is unavailable' })]);
    const err502 = await captureAndRecord('ORDER1', () => undefined).catch((e: unknown) => e);
    expect(err502).toMatchObject({ message: PAYMENT_ERRORS.processingFailed, code: undefined });

    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await captureAndRecord('ORDER1', () => undefined).catch((e: unknown) => e)).toMatchObject({ message: PAYMENT_ERRORS.network });
  });

  it('says the credits failed when the confirmation fails after the capture', async () => {
    fakeServer([() => json(200, result('COMPLETED', 13)), () => json(500, { message: 'boom', error: 'INTERNAL' })]);
    const captured = vi.fn();
    const err = await captureAndRecord('ORDER1', captured).catch((e: unknown) => e);
    expect(captured).toHaveBeenCalledOnce();
    expect(err).toMatchObject({ message: PAYMENT_ERRORS.creditFailed, code: 'INTERNAL' });
  });

  it('reads the code of an ApiError or a flow error, and nothing else', () => {
    expect(errorCode(new ApiError('x', 422, 'INSTRUMENT_DECLINED'))).toBe('INSTRUMENT_DECLINED');
    expect(errorCode(new PaymentFlowError('x', 'ORDER_NOT_APPROVED'))).toBe('ORDER_NOT_APPROVED');
    expect(errorCode(new ApiError('x', 500, { nested: true }))).toBeUndefined();
    expect(errorCode(new Error('x'))).toBeUndefined();
  });
});

describe("PayPal's onApprove", () => {
  it('returns actions.restart() when the funding source is declined', async () => {
    fakeServer([() => json(422, { message: 'declined', error: 'INSTRUMENT_DECLINED' })]);
    let restarted = false;
    const actions = {
      restart: vi.fn(async () => {
        restarted = true;
      }),
    };
    // The page's complete(): capture, and on a declined instrument, ask for a restart.
    const complete = async (orderID: string): Promise<CompleteOutcome> => {
      try {
        await captureAndRecord(orderID, () => undefined);
        return 'done';
      } catch (err) {
        return isInstrumentDeclined(err) ? 'restart' : 'done';
      }
    };
    await approveWithRestart('ORDER1', actions, complete);
    expect(actions.restart).toHaveBeenCalledOnce();
    // onApprove's promise settles only once the restart has (PayPal waits on it).
    expect(restarted).toBe(true);
  });

  it('does not restart after a success or another failure', async () => {
    const actions = { restart: vi.fn() };
    await approveWithRestart('ORDER1', actions, async () => 'done');
    expect(actions.restart).not.toHaveBeenCalled();
  });
});

describe('polling a PENDING capture', () => {
  it('backs off from 2 s, doubling, up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(pendingPollDelay)).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('decides on completion, failure and the time limit, and waits otherwise', () => {
    const startedAt = 1_000_000;
    const at = startedAt + 5000;
    expect(pendingVerdict({ data: result('PENDING'), at, startedAt })).toEqual({ kind: 'waiting' });
    expect(pendingVerdict({ data: result('COMPLETED', 13), at, startedAt })).toEqual({ kind: 'completed', result: result('COMPLETED', 13) });
    expect(pendingVerdict({ data: result('DECLINED'), at, startedAt })).toEqual({ kind: 'failed', message: PAYMENT_ERRORS.processingFailed });
    expect(pendingVerdict({ data: result('REFUNDED'), at, startedAt })).toEqual({ kind: 'failed', message: PAYMENT_ERRORS.processingFailed });
    expect(pendingVerdict({ error: new ApiError('declined', 422, 'PAYMENT_DECLINED'), at, startedAt })).toMatchObject({ kind: 'failed' });
    // Errors that may pass keep waiting: network, rate limit, server or PayPal unavailable.
    expect(pendingVerdict({ error: new TypeError('Failed to fetch'), at, startedAt })).toEqual({ kind: 'waiting' });
    expect(pendingVerdict({ error: new ApiError('slow down', 429, 'RATE_LIMITED'), at, startedAt })).toEqual({ kind: 'waiting' });
    expect(pendingVerdict({ error: new ApiError('PayPal down', 502), at, startedAt })).toEqual({ kind: 'waiting' });
    expect(pendingVerdict({ data: result('PENDING'), at: startedAt + PENDING_POLL.timeLimitMs, startedAt })).toEqual({ kind: 'timed-out' });
    // A completion seen at the limit still counts.
    expect(pendingVerdict({ data: result('COMPLETED', 13), at: startedAt + PENDING_POLL.timeLimitMs, startedAt }).kind).toBe('completed');
  });

  describe('with TanStack Query', () => {
    let client: QueryClient;
    beforeEach(() => {
      vi.useFakeTimers({ now: 1_000_000 });
      // Node has no window: let the observer run its interval as it does in the browser.
      environmentManager.setIsServer(() => false);
      client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchInterval: false, staleTime: Infinity } } });
    });
    afterEach(() => {
      client.clear();
      environmentManager.setIsServer(() => typeof window === 'undefined');
    });

    function watch(orderID: string) {
      const startedAt = Date.now();
      const observer = new QueryObserver(client, pendingPaymentQuery(orderID, result('PENDING'), startedAt));
      const unsubscribe = observer.subscribe(() => undefined);
      const verdict = () => verdictOf(observer.getCurrentResult(), startedAt);
      return { startedAt, unsubscribe, verdict };
    }

    it('asks again with a growing delay and stops when the payment completes', async () => {
      const calls = fakeServer([() => json(200, result('PENDING')), () => json(200, result('PENDING')), () => json(200, result('COMPLETED', 13))]);
      const { startedAt, unsubscribe, verdict } = watch('ORDER1');
      expect(verdict()).toEqual({ kind: 'waiting' });
      await vi.advanceTimersByTimeAsync(1999);
      expect(calls).toHaveLength(0); // the PENDING answer itself is the first state: no immediate refetch
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(4000);
      expect(calls).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(8000);
      expect(calls).toHaveLength(3);
      expect(calls.map((c) => c.at - startedAt)).toEqual([2000, 6000, 14_000]);
      expect(calls[0]).toMatchObject({ url: '/api/payments/paypal-success', body: { orderID: 'ORDER1' } });
      expect(verdict()).toEqual({ kind: 'completed', result: result('COMPLETED', 13) });
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(calls).toHaveLength(3);
      unsubscribe();
    });

    it('stops with the failure text when PayPal declines the held payment', async () => {
      const calls = fakeServer([() => json(200, result('PENDING')), () => json(422, { message: 'The payment was declined.', error: 'PAYMENT_DECLINED' })]);
      const { unsubscribe, verdict } = watch('ORDER2');
      await vi.advanceTimersByTimeAsync(6000);
      expect(calls).toHaveLength(2);
      expect(verdict()).toEqual({ kind: 'failed', message: PAYMENT_ERRORS.processingFailed });
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(calls).toHaveLength(2);
      unsubscribe();
    });

    it('rides out transient errors and gives up at the time limit, having asked a bounded number of times', async () => {
      const calls = fakeServer([() => json(502, { message: 'PayPal is unavailable', error: 'PAYPAL_UNAVAILABLE' }), () => json(200, result('PENDING'))]);
      const { startedAt, unsubscribe, verdict } = watch('ORDER3');
      await vi.advanceTimersByTimeAsync(PENDING_POLL.timeLimitMs - 1);
      expect(verdict()).toEqual({ kind: 'waiting' });
      await vi.advanceTimersByTimeAsync(1);
      expect(verdict()).toEqual({ kind: 'timed-out' });
      // 2, 6, 14, 30, 60, 90 s, then a last one at the limit.
      expect(calls.map((c) => c.at - startedAt)).toEqual([2000, 6000, 14_000, 30_000, 60_000, 90_000, 120_000]);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(calls).toHaveLength(7);
      unsubscribe();
    });
  });
});
