import { packById } from '@roomstager/contracts';
import type { Db } from '../../db/client.ts';
import { PayPalApiError, valueToCents, type PayPalCapture, type PayPalClient } from '../../integrations/paypal.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import type { PaymentRow, PaymentsRepository } from './payments.repository.ts';
import { captureIdOf, type EventLog } from './paypal-answers.ts';

/**
 * The credits `refundedCents` of a payment stand for, floored: with R cents refunded in all of a
 * payment of A cents for C credits, floor(C x R / A); the buyer keeps a fraction of a credit.
 */
export function creditsForRefund(payment: Pick<PaymentRow, 'credits' | 'amountCents'>, refundedCents: number): number {
  return Math.floor((payment.credits * refundedCents) / payment.amountCents);
}

/** Refunds and reversals of captured payments (docs/decisions/0008-paypal-exactly-once.md). */
export class Refunds {
  constructor(
    private readonly db: Db,
    private readonly repository: PaymentsRepository,
    private readonly credits: CreditsService,
    private readonly paypal: PayPalClient,
  ) {}

  /**
   * What PayPal has refunded or reversed of the payment's capture, in cents, read from PayPal
   * (never from the event): the whole amount when the capture is REFUNDED (or REVERSED), the
   * refund's running total when it is PARTIALLY_REFUNDED; undefined when the capture is not ours
   * or PayPal does not confirm a refund.
   */
  async refundedCents(payment: PaymentRow, captureId: string, refundId: string | undefined, log: EventLog): Promise<number | undefined> {
    let capture: PayPalCapture;
    try {
      capture = await this.paypal.getCapture(captureId);
    } catch (err) {
      // No such capture at PayPal: the event names one that does not exist.
      if (err instanceof PayPalApiError && err.status === 404) return undefined;
      throw err;
    }
    const ours =
      (payment.captureId === null || payment.captureId === capture.id) &&
      (capture.custom_id === payment.id || capture.supplementary_data?.related_ids?.order_id === payment.providerOrderId);
    if (!ours) {
      log.warn({ event: 'security.payment_mismatch', paymentId: payment.id, captureId: capture.id, customId: capture.custom_id }, 'refunded capture is not this payment\'s');
      return undefined;
    }
    if (capture.status === 'REFUNDED' || capture.status === 'REVERSED') return payment.amountCents;
    if (capture.status !== 'PARTIALLY_REFUNDED' || !refundId) return undefined;
    const refund = await this.paypal.getRefund(refundId);
    const total = refund.seller_payable_breakdown?.total_refunded_amount;
    if (captureIdOf(refund.links) !== capture.id || total?.currency_code !== payment.currency) return undefined;
    const cents = valueToCents(total.value);
    return cents === null ? undefined : Math.min(cents, payment.amountCents);
  }

  /**
   * A refund or reversal of `refundedCents` in all (PayPal's running total): the credits it
   * stands for, less those earlier refunds already took, are removed as far as they are unspent
   * (never below zero); the rest is added to the payment's shortfall and it is logged as a
   * security event. A full refund ends the payment `refunded`. A replay, or an older refund's
   * smaller total, changes nothing.
   */
  async reverse(paymentId: string, refundedCents: number, kind: string, log: EventLog): Promise<void> {
    const outcome = await this.db.transaction(async (tx) => {
      const row = await this.repository.lock(tx, paymentId);
      if (!row || refundedCents <= row.refundedCents || row.status === 'refunded') return undefined;
      const now = new Date();
      const full = refundedCents >= row.amountCents;
      const ended = full ? { status: 'refunded' as const, statusDetail: kind, refundedAt: now } : { statusDetail: 'PARTIALLY_REFUNDED' };
      if (row.status !== 'completed') {
        // Nothing was credited: a created or pending one simply ends refunded.
        const end = full && (row.status === 'created' || row.status === 'pending') ? ended : {};
        await this.repository.update(row.id, { refundedCents, ...end, updatedAt: now }, tx);
        return { userId: row.userId, removed: 0, shortfall: 0, full };
      }
      const due = creditsForRefund(row, refundedCents) - creditsForRefund(row, row.refundedCents);
      const removed = await this.credits.removeRefundedPurchase(tx, { userId: row.userId, paymentId: row.id, pack: packById(row.pack), due, full });
      const shortfall = due - removed;
      await this.repository.update(row.id, { refundedCents, shortfall: row.shortfall + shortfall, ...ended, updatedAt: now }, tx);
      return { userId: row.userId, removed, shortfall, full };
    });
    if (!outcome) {
      log.info({ event: 'payment.refund_duplicate', paymentId, kind }, 'refund already recorded');
      return;
    }
    log.warn(
      { event: 'security.payment_reversed', kind, paymentId, userId: outcome.userId, refundedCents, full: outcome.full, creditsRemoved: outcome.removed, shortfall: outcome.shortfall },
      outcome.shortfall > 0 ? 'payment refunded or reversed after its credits were spent' : 'payment refunded or reversed',
    );
  }
}
