import { valueToCents, type PayPalCapture } from '../../integrations/paypal.ts';
import type { PaymentRow, PaymentStatus } from './payments.repository.ts';

/**
 * What a capture PayPal reports does to a payment: the status it moves to, from which statuses
 * (the update is conditional on them, so concurrent callers apply it once), and what it records.
 * `to: null`: nothing here (REFUNDED and PARTIALLY_REFUNDED arrive through their own webhooks).
 */
export type CaptureTransition =
  | { to: 'failed'; from: readonly PaymentStatus[]; statusDetail: 'CAPTURE_MISMATCH' }
  | { to: 'completed'; from: readonly PaymentStatus[]; captureId: string }
  | { to: 'pending'; from: readonly PaymentStatus[]; captureId: string; statusDetail: string | null }
  | { to: 'declined'; from: readonly PaymentStatus[]; captureId: string; statusDetail: string }
  | { to: null };

const UNSETTLED: readonly PaymentStatus[] = ['created', 'pending'];

/**
 * The capture state machine, without I/O. A capture whose amount, currency or custom id is not
 * the payment's fails it (never credited); COMPLETED completes it (the caller credits the pack
 * when its update wins); PENDING holds a created one; DECLINED and FAILED end it declined.
 */
export function captureTransition(payment: Pick<PaymentRow, 'id' | 'currency' | 'amountCents'>, capture: PayPalCapture): CaptureTransition {
  const cents = capture.amount ? valueToCents(capture.amount.value) : null;
  const matches =
    capture.amount?.currency_code === payment.currency &&
    cents === payment.amountCents &&
    (capture.custom_id === undefined || capture.custom_id === payment.id);
  if (!matches) return { to: 'failed', from: UNSETTLED, statusDetail: 'CAPTURE_MISMATCH' };
  switch (capture.status) {
    case 'COMPLETED':
      return { to: 'completed', from: UNSETTLED, captureId: capture.id };
    case 'PENDING':
      return { to: 'pending', from: ['created'], captureId: capture.id, statusDetail: capture.status_details?.reason ?? null };
    case 'DECLINED':
    case 'FAILED':
      return { to: 'declined', from: UNSETTLED, captureId: capture.id, statusDetail: capture.status_details?.reason ?? capture.status };
    default:
      return { to: null };
  }
}
