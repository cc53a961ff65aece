import { describe, expect, it } from 'vitest';
import { captureTransition } from '../../src/domain/payments/capture.ts';
import type { PayPalCapture } from '../../src/integrations/paypal.ts';

const payment = { id: '3f2b8c1e-0d4a-4e6b-9a7c-1b2c3d4e5f60', currency: 'USD', amountCents: 8900 };
const capture = (over: Partial<PayPalCapture> = {}): PayPalCapture => ({
  id: 'CAPTURE1',
  status: 'COMPLETED',
  amount: { currency_code: 'USD', value: '89.00' },
  custom_id: payment.id,
  ...over,
});

describe('the capture transition', () => {
  it('completes an unsettled payment on a matching COMPLETED capture', () => {
    expect(captureTransition(payment, capture())).toEqual({ to: 'completed', from: ['created', 'pending'], captureId: 'CAPTURE1' });
    expect(captureTransition(payment, capture({ custom_id: undefined })).to).toBe('completed');
  });

  it('holds only a created payment on PENDING, keeping PayPal\'s reason', () => {
    expect(captureTransition(payment, capture({ status: 'PENDING', status_details: { reason: 'PENDING_REVIEW' } }))).toEqual({
      to: 'pending',
      from: ['created'],
      captureId: 'CAPTURE1',
      statusDetail: 'PENDING_REVIEW',
    });
    expect(captureTransition(payment, capture({ status: 'PENDING' }))).toMatchObject({ statusDetail: null });
  });

  it('ends it declined on DECLINED or FAILED, with the reason or the status', () => {
    expect(captureTransition(payment, capture({ status: 'DECLINED' }))).toEqual({ to: 'declined', from: ['created', 'pending'], captureId: 'CAPTURE1', statusDetail: 'DECLINED' });
    expect(captureTransition(payment, capture({ status: 'FAILED', status_details: { reason: 'X' } }))).toMatchObject({ to: 'declined', statusDetail: 'X' });
  });

  it('fails it, never credited, when amount, currency or custom id is not the payment\'s', () => {
    const mismatch = { to: 'failed', from: ['created', 'pending'], statusDetail: 'CAPTURE_MISMATCH' };
    expect(captureTransition(payment, capture({ amount: { currency_code: 'USD', value: '19.00' } }))).toEqual(mismatch);
    expect(captureTransition(payment, capture({ amount: { currency_code: 'EUR', value: '89.00' } }))).toEqual(mismatch);
    expect(captureTransition(payment, capture({ amount: undefined }))).toEqual(mismatch);
    expect(captureTransition(payment, capture({ custom_id: 'someone-else' }))).toEqual(mismatch);
    // A mismatch wins over any status.
    expect(captureTransition(payment, capture({ status: 'REFUNDED', amount: { currency_code: 'USD', value: '1.00' } }))).toEqual(mismatch);
  });

  it('leaves refund statuses to their own webhooks', () => {
    expect(captureTransition(payment, capture({ status: 'REFUNDED' }))).toEqual({ to: null });
    expect(captureTransition(payment, capture({ status: 'PARTIALLY_REFUNDED' }))).toEqual({ to: null });
  });
});
