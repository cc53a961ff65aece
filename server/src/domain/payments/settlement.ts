import { packById } from '@roomstager/contracts';
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../../db/client.ts';
import { PayPalApiError, type PayPalCapture, type PayPalClient, type PayPalOrder } from '../../integrations/paypal.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import { NotFoundError } from '../errors.ts';
import { captureTransition } from './capture.ts';
import { captureDeclined, declinedInstrument, notApproved, paymentFailed, providerFailed } from './errors.ts';
import type { PaymentRow, PaymentsRepository } from './payments.repository.ts';
import { capturesOf, describeError, type EventLog } from './paypal-answers.ts';

/**
 * After a capture call failed, an APPROVED order is read again after these pauses until it shows
 * a capture: another process's capture with the same PayPal-Request-Id may still be running
 * (PayPal may refuse the second one, e.g. PREVIOUS_REQUEST_IN_PROGRESS, instead of waiting).
 */
const CAPTURE_RECHECK_DELAYS_MS = [200, 500, 1_000] as const;

export const orderNotFound = () => new NotFoundError('Order not found');

/**
 * The capture path every caller shares (the capture route, the browser's confirmation, the
 * webhooks, reconciliation): asks PayPal, then applies the capture's transition. Only the
 * transaction whose conditional update moves the payment to `completed` writes the ledger row.
 */
export class Settlement {
  /** Settlements in flight in this process, by payment id: concurrent calls share one PayPal capture. */
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly repository: PaymentsRepository,
    private readonly credits: CreditsService,
    private readonly paypal: PayPalClient,
  ) {}

  /** Brings the payment up to date with PayPal, joining a settlement of it already in flight here; throws the error the caller should see, if any. */
  settle(paymentId: string, log: EventLog): Promise<void> {
    const running = this.inflight.get(paymentId);
    if (running) return running;
    const promise = this.settlePayment(paymentId, log).finally(() => this.inflight.delete(paymentId));
    this.inflight.set(paymentId, promise);
    return promise;
  }

  private async settlePayment(paymentId: string, log: EventLog): Promise<void> {
    const payment = await this.repository.load(paymentId);
    const orderId = payment.providerOrderId;
    if (!orderId) throw orderNotFound();
    let order: PayPalOrder;
    if (payment.status === 'pending') {
      order = await this.askPayPal(() => this.paypal.getOrder(orderId), payment, log);
    } else if (payment.status === 'created') {
      try {
        order = await this.paypal.captureOrder(orderId, `capture-${payment.id}-${payment.captureAttempt}`);
      } catch (err) {
        if (!(err instanceof PayPalApiError)) throw err;
        if (err.issue === 'INSTRUMENT_DECLINED' || err.issue === 'ORDER_NOT_APPROVED') {
          // A refusal that captured nothing. PayPal answers a PayPal-Request-Id with its first
          // answer again, so the next capture (the buyer chose another funding source, or approved
          // at last) needs a fresh request id or it would be refused forever.
          await this.repository.bumpCaptureAttempt(payment, err.issue);
          if (err.issue === 'ORDER_NOT_APPROVED') throw notApproved();
          log.info({ event: 'payment.instrument_declined', paymentId: payment.id, debugId: err.debugId }, 'PayPal declined the instrument');
          throw declinedInstrument();
        }
        // Captured by another request or process (ORDER_ALREADY_CAPTURED), being captured by one
        // with the same request id, or captured before the answer was lost: what counts is the
        // order as PayPal has it.
        const captured = await this.capturedOrder(orderId, payment, log);
        if (!captured) {
          log.error({ event: 'payment.capture_failed', paymentId: payment.id, ...describeError(err) }, 'PayPal capture failed');
          throw providerFailed();
        }
        order = captured;
      }
    } else {
      return throwForStatus(payment);
    }
    const capture = capturesOf(order)[0];
    if (capture) await this.apply(payment, capture, log);
    else if (payment.status === 'created') throw notApproved();
    return throwForStatus(await this.repository.load(payment.id));
  }

  /** The order once it shows a capture (waiting a little while it is APPROVED), or undefined. */
  private async capturedOrder(orderId: string, payment: PaymentRow, log: EventLog): Promise<PayPalOrder | undefined> {
    for (const pause of [0, ...CAPTURE_RECHECK_DELAYS_MS]) {
      if (pause > 0) await delay(pause);
      const order = await this.askPayPal(() => this.paypal.getOrder(orderId), payment, log);
      if (capturesOf(order).length > 0) return order;
      if (order.status !== 'APPROVED') return undefined;
    }
    return undefined;
  }

  private async askPayPal(call: () => Promise<PayPalOrder>, payment: PaymentRow, log: EventLog): Promise<PayPalOrder> {
    try {
      return await call();
    } catch (err) {
      log.error({ event: 'payment.lookup_failed', paymentId: payment.id, ...describeError(err) }, 'PayPal order lookup failed');
      throw providerFailed();
    }
  }

  /**
   * Records what a capture says (capture.ts): COMPLETED credits the pack (once), PENDING waits,
   * DECLINED and FAILED end the payment. A capture whose amount, currency or custom id is not
   * the payment's is refused and logged as a security event.
   */
  async apply(payment: PaymentRow, capture: PayPalCapture, log: EventLog): Promise<void> {
    const transition = captureTransition(payment, capture);
    const now = new Date();
    switch (transition.to) {
      case 'failed':
        await this.repository.transition(payment.id, transition.from, { status: 'failed', statusDetail: transition.statusDetail, updatedAt: now });
        log.warn(
          { event: 'security.payment_mismatch', paymentId: payment.id, captureId: capture.id, amount: capture.amount, customId: capture.custom_id },
          'PayPal capture does not match the payment: not credited',
        );
        return;
      case 'completed': {
        const credited = await this.db.transaction(async (tx) => {
          const row = await this.repository.transition(
            payment.id,
            transition.from,
            { status: 'completed', captureId: transition.captureId, statusDetail: null, completedAt: now, updatedAt: now },
            tx,
          );
          if (!row) return false;
          await this.credits.creditPurchase(tx, { userId: row.userId, paymentId: row.id, pack: packById(row.pack), credits: row.credits });
          return true;
        });
        if (credited) {
          log.info({ event: 'payment.completed', paymentId: payment.id, captureId: capture.id, credits: payment.credits }, 'purchase credited');
        }
        return;
      }
      case 'pending':
        await this.repository.transition(payment.id, transition.from, { status: 'pending', captureId: transition.captureId, statusDetail: transition.statusDetail, updatedAt: now });
        log.info({ event: 'payment.pending', paymentId: payment.id, captureId: capture.id, reason: capture.status_details?.reason }, 'PayPal holds the capture');
        return;
      case 'declined':
        await this.repository.transition(payment.id, transition.from, { status: 'declined', captureId: transition.captureId, statusDetail: transition.statusDetail, updatedAt: now });
        log.info({ event: 'payment.declined', paymentId: payment.id, captureId: capture.id }, 'PayPal declined the capture');
        return;
      case null:
        log.info({ event: 'payment.capture_status', paymentId: payment.id, status: capture.status }, 'capture status left to its webhook');
    }
  }
}

function throwForStatus(payment: PaymentRow): void {
  if (payment.status === 'declined') throw captureDeclined();
  if (payment.status === 'failed') throw paymentFailed();
}
