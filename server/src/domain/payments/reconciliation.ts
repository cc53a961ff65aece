import { PayPalApiError, type PayPalClient, type PayPalOrder } from '../../integrations/paypal.ts';
import { PaymentError } from './errors.ts';
import type { PaymentRow, PaymentsRepository } from './payments.repository.ts';
import { capturesOf, describeError, type EventLog } from './paypal-answers.ts';
import type { Settlement } from './settlement.ts';

/** PayPal's approval window: an order nobody approved within it can no longer be paid. */
export const APPROVAL_WINDOW_MS = 3 * 3_600_000;

/** Longest pause between two reconciliation checks of one payment (a capture can stay PENDING for days). */
const RECONCILE_MAX_DELAY_MS = 6 * 3_600_000;

/**
 * Reconciliation of payments PayPal never told us the end of (the buyer closed the window after
 * approving; a PENDING capture; webhooks missing), run by every worker's sweep.
 */
export class Reconciliation {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly paypal: PayPalClient,
    private readonly settlement: Settlement,
  ) {}

  /**
   * Claims up to `limit` payments `created` or `pending` for longer than `afterMs` whose next
   * check is due, pushing that check back first (`afterMs`, doubling per check, at most 6 h), so
   * a failing PayPal or an order nobody approves costs one call per payment per pause, and
   * concurrent workers skip each other's claims. Then it asks PayPal and settles through the
   * capture path. Answers how many it claimed.
   */
  async reconcileStale(afterMs: number, limit: number, log: EventLog): Promise<number> {
    const now = new Date();
    const claimed = await this.repository.claimDueForCheck(now, afterMs, RECONCILE_MAX_DELAY_MS, limit);
    for (const row of claimed) {
      try {
        await this.reconcile(row, now, log);
      } catch (err) {
        log.warn({ event: 'payment.reconcile_failed', paymentId: row.id, ...describeError(err) }, 'PayPal reconciliation of a payment failed; checked again later');
      }
    }
    return claimed.length;
  }

  /** One payment due for reconciliation: what PayPal says of its order decides. */
  private async reconcile(row: PaymentRow, now: Date, log: EventLog): Promise<void> {
    const outOfWindow = now.getTime() - row.createdAt.getTime() > APPROVAL_WINDOW_MS;
    const orderId = row.providerOrderId;
    if (!orderId) {
      // PayPal never answered the order's creation.
      if (outOfWindow) await this.endUnsettled(row.id, 'ORDER_EXPIRED', log);
      return;
    }
    let order: PayPalOrder;
    try {
      order = await this.paypal.getOrder(orderId);
    } catch (err) {
      // PayPal forgets orders nobody approved once they expire.
      if (err instanceof PayPalApiError && err.status === 404 && outOfWindow) return this.endUnsettled(row.id, 'ORDER_EXPIRED', log);
      throw err;
    }
    const capture = capturesOf(order)[0];
    if (capture) return this.settlement.apply(await this.repository.load(row.id), capture, log);
    if (order.status === 'APPROVED') {
      try {
        await this.settlement.settle(row.id, log);
      } catch (err) {
        // A declined capture or a provider error: recorded and logged by the capture path.
        if (!(err instanceof PaymentError)) throw err;
      }
      return;
    }
    if (order.status === 'VOIDED') return this.endUnsettled(row.id, 'ORDER_VOIDED', log);
    if (outOfWindow) await this.endUnsettled(row.id, 'ORDER_EXPIRED', log);
  }

  /** A payment PayPal will never capture (order voided or expired) ends `failed`, if nothing settled it meanwhile. */
  private async endUnsettled(paymentId: string, detail: 'ORDER_EXPIRED' | 'ORDER_VOIDED', log: EventLog): Promise<void> {
    const row = await this.repository.transition(paymentId, ['created'], { status: 'failed', statusDetail: detail });
    if (row) log.info({ event: 'payment.order_ended', paymentId, reason: detail }, 'PayPal order expired or voided: payment ended');
  }
}
