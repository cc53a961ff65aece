import {
  PAYMENT_CURRENCY,
  PAYMENT_INTENT,
  packById,
  packPurchaseDescription,
  type CreditPackId,
  type PaymentOrderResponse,
  type PaymentResult,
  type PaymentStatus,
  type PaypalClientIdResponse,
} from '@roomstager/contracts';
import { setTimeout as delay } from 'node:timers/promises';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { Db, Executor } from '../../db/client.ts';
import { payments, users, webhookEvents } from '../../db/schema.ts';
import {
  centsToValue,
  PayPalApiError,
  valueToCents,
  type PayPalCapture,
  type PayPalClient,
  type PayPalOrder,
  type WebhookTransmission,
} from '../../integrations/paypal.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import { captureDeclined, declinedInstrument, notApproved, PaymentError, paymentFailed, providerFailed } from './errors.ts';

/** The structured logger the routes pass in (pino's shape); security events carry `event: 'security.*'`. */
export interface EventLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

type PaymentRow = typeof payments.$inferSelect;

/** Claim priority of a buyer's jobs (jobs.priority; higher is claimed first). */
export const PRIORITY_BY_PACK: Readonly<Record<CreditPackId, number>> = { starter: 0, professional: 1, enterprise: 2 };

const orderNotFound = () => new NotFoundError('Order not found');

const webhookEventSchema = z.looseObject({
  id: z.string().min(1).max(255),
  event_type: z.string().min(1).max(255),
  resource_type: z.string().optional(),
  resource: z.looseObject({
    id: z.string().optional(),
    status: z.string().optional(),
    custom_id: z.string().optional(),
    supplementary_data: z
      .looseObject({
        related_ids: z.looseObject({ order_id: z.string().optional(), capture_id: z.string().optional() }).optional(),
      })
      .optional(),
    links: z.array(z.looseObject({ href: z.string(), rel: z.string() })).optional(),
  }),
});
type WebhookEvent = z.infer<typeof webhookEventSchema>;

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

const WEBHOOK_HEADERS = {
  authAlgo: 'paypal-auth-algo',
  certUrl: 'paypal-cert-url',
  transmissionId: 'paypal-transmission-id',
  transmissionSig: 'paypal-transmission-sig',
  transmissionTime: 'paypal-transmission-time',
} as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * After a capture call failed, an APPROVED order is read again after these pauses until it shows
 * a capture: another process's capture with the same PayPal-Request-Id may still be running
 * (PayPal may refuse the second one, e.g. PREVIOUS_REQUEST_IN_PROGRESS, instead of waiting).
 */
const CAPTURE_RECHECK_DELAYS_MS = [200, 500, 1_000] as const;

/** PayPal's approval window: an order nobody approved within it can no longer be paid. */
export const APPROVAL_WINDOW_MS = 3 * 3_600_000;

/** Longest pause between two reconciliation checks of one payment (a capture can stay PENDING for days). */
const RECONCILE_MAX_DELAY_MS = 6 * 3_600_000;

export interface PaymentsServiceOptions {
  publicOrigin: string;
  /** What the checkout page loads: the REST app's client id, and whether PayPal is simulated. */
  clientId: string;
  environment: PaypalClientIdResponse['environment'];
  /** PAYPAL_WEBHOOK_ID (the simulator's own id with the simulator); undefined: webhooks refused. */
  webhookId: string | undefined;
}

/**
 * Purchases of credit packs through PayPal Orders v2. The server alone prices a pack; an order
 * is tied to the user who created it; crediting happens once per capture, whichever of the
 * capture call, the browser's confirmation and PayPal's webhook gets there first: only the
 * transaction that moves the payment row to `completed` (a conditional update) writes the
 * ledger row. What PayPal says counts, never what the browser says.
 */
export class PaymentsService {
  /** Settlements in flight in this process, by payment id: concurrent calls share one PayPal capture. */
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
    private readonly paypal: PayPalClient,
    private readonly options: PaymentsServiceOptions,
  ) {}

  clientInfo(): PaypalClientIdResponse {
    return { clientId: this.options.clientId, environment: this.options.environment };
  }

  /** Creates the PayPal order for a pack and the pending payment tied to the user. */
  async createOrder(userId: string, packId: CreditPackId, log: EventLog): Promise<PaymentOrderResponse> {
    const pack = packById(packId);
    const [payment] = await this.db
      .insert(payments)
      .values({ userId, pack: pack.id, credits: pack.credits, amountCents: pack.priceUsd * 100, currency: PAYMENT_CURRENCY, status: 'created' })
      .returning();
    if (!payment) throw new Error('Payment row was not written');
    const checkout = `${this.options.publicOrigin}/checkout/${pack.priceUsd}`;
    let order: PayPalOrder;
    try {
      order = await this.paypal.createOrder(
        {
          intent: PAYMENT_INTENT,
          purchase_units: [
            {
              reference_id: pack.id,
              custom_id: payment.id,
              invoice_id: payment.id,
              description: packPurchaseDescription(pack),
              amount: { currency_code: PAYMENT_CURRENCY, value: centsToValue(payment.amountCents) },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                brand_name: 'RoomStager',
                shipping_preference: 'NO_SHIPPING',
                user_action: 'PAY_NOW',
                return_url: checkout,
                cancel_url: `${checkout}?cancelled=true`,
              },
            },
          },
        },
        `create-${payment.id}`,
      );
    } catch (err) {
      await this.db.update(payments).set({ status: 'failed', statusDetail: 'CREATE_ORDER_FAILED', updatedAt: new Date() }).where(eq(payments.id, payment.id));
      log.error({ event: 'payment.create_failed', paymentId: payment.id, ...describeError(err) }, 'PayPal order creation failed');
      throw new PaymentError('PAYMENT_PROVIDER_ERROR', 'Failed to create order. Please try again.');
    }
    await this.db.update(payments).set({ providerOrderId: order.id, updatedAt: new Date() }).where(eq(payments.id, payment.id));
    log.info({ event: 'payment.order_created', paymentId: payment.id, orderId: order.id, pack: pack.id }, 'payment order created');
    const approveUrl = order.links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href;
    return approveUrl ? { id: order.id, approveUrl } : { id: order.id };
  }

  /**
   * Capture (and the browser's confirmation): captures the user's order at PayPal if that has
   * not happened yet, or asks PayPal again about a pending one, and records what PayPal says.
   * Idempotent; an order another user created, or one never created here, is a 404.
   */
  async settle(userId: string, orderId: string, log: EventLog): Promise<PaymentResult> {
    const [payment] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.providerOrderId, orderId), eq(payments.userId, userId)));
    if (!payment) {
      log.warn({ event: 'security.payment_order_refused', userId, orderId }, 'capture of an unknown or foreign order refused');
      throw orderNotFound();
    }
    await this.coalesced(payment.id, () => this.settlePayment(payment.id, log));
    return this.result(payment.id);
  }

  /** The priority of a user's new jobs: buyers of Professional or Enterprise are claimed first. */
  async priorityForUser(executor: Executor, userId: string): Promise<number> {
    const rows = await executor
      .selectDistinct({ pack: payments.pack })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, 'completed')));
    return Math.max(0, ...rows.map((r) => PRIORITY_BY_PACK[r.pack] ?? 0));
  }

  /** Money spent, in cents: completed purchases (refunded ones gave the money back). */
  async totalSpentCents(userId: string, executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ total: sql<string | number | null>`coalesce(sum(${payments.amountCents}), 0)` })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, 'completed')));
    return Number(row?.total ?? 0);
  }

  /**
   * Reconciliation (PAY-11) of payments PayPal never told us the end of (the buyer closed the
   * window after approving; a PENDING capture; webhooks missing): claims up to `limit` payments
   * `created` or `pending` for longer than `afterMs` whose next check is due, pushes that check
   * back first (`afterMs`, doubling per check, at most 6 h), so a failing PayPal or an order
   * nobody approves costs one call per payment per pause, and concurrent workers skip each
   * other's claims. Then it asks PayPal and settles through the capture path. Answers how many
   * it claimed.
   */
  async reconcileStale(afterMs: number, limit: number, log: EventLog): Promise<number> {
    const now = new Date();
    const due = this.db
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          inArray(payments.status, ['created', 'pending']),
          lt(payments.createdAt, new Date(now.getTime() - afterMs)),
          or(isNull(payments.nextCheckAt), lte(payments.nextCheckAt, now)),
        ),
      )
      .orderBy(asc(payments.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(payments)
      .set({
        reconcileAttempts: sql`${payments.reconcileAttempts} + 1`,
        nextCheckAt: sql`${now.toISOString()}::timestamptz + least(${afterMs} * power(2, ${payments.reconcileAttempts}), ${RECONCILE_MAX_DELAY_MS}) * interval '1 millisecond'`,
      })
      .where(inArray(payments.id, due))
      .returning();
    for (const row of claimed) {
      try {
        await this.reconcile(row, now, log);
      } catch (err) {
        log.warn({ event: 'payment.reconcile_failed', paymentId: row.id, ...describeError(err) }, 'PayPal reconciliation of a payment failed; checked again later');
      }
    }
    return claimed.length;
  }

  /**
   * A webhook delivery: verified with PayPal (raw bytes), stored once by event id, then
   * handled. Unverifiable deliveries change nothing (400). A replay is a no-op.
   */
  async handleWebhook(raw: string, headers: Record<string, string | string[] | undefined>, log: EventLog): Promise<WebhookOutcome> {
    let event: WebhookEvent;
    try {
      event = webhookEventSchema.parse(JSON.parse(raw));
    } catch {
      log.warn({ event: 'security.webhook_malformed' }, 'malformed PayPal webhook refused');
      throw new BadRequestError('Invalid webhook event');
    }
    const header = (name: string) => {
      const v = headers[name];
      return typeof v === 'string' ? v : undefined;
    };
    const transmission = {
      authAlgo: header(WEBHOOK_HEADERS.authAlgo),
      certUrl: header(WEBHOOK_HEADERS.certUrl),
      transmissionId: header(WEBHOOK_HEADERS.transmissionId),
      transmissionSig: header(WEBHOOK_HEADERS.transmissionSig),
      transmissionTime: header(WEBHOOK_HEADERS.transmissionTime),
    };
    const webhookId = this.options.webhookId;
    if (!webhookId) {
      log.error({ event: 'security.webhook_unverifiable', eventId: event.id }, 'PAYPAL_WEBHOOK_ID is not set: PayPal webhooks cannot be verified');
      throw new PaymentError('WEBHOOK_NOT_CONFIGURED', 'Webhook verification is not configured');
    }
    if (Object.values(transmission).some((v) => !v)) {
      log.warn({ event: 'security.webhook_unverified', eventId: event.id, eventType: event.event_type, reason: 'missing transmission headers' }, 'unsigned PayPal webhook ignored');
      throw new PaymentError('WEBHOOK_UNVERIFIED', 'Webhook signature verification failed');
    }
    let verified: boolean;
    try {
      verified = await this.paypal.verifyWebhookSignature(transmission as WebhookTransmission, webhookId, raw);
    } catch (err) {
      log.error({ event: 'payment.webhook_verify_failed', eventId: event.id, ...describeError(err) }, 'PayPal webhook verification call failed');
      // PayPal delivers again later.
      throw new PaymentError('PAYMENT_PROVIDER_ERROR', 'Webhook verification unavailable');
    }
    if (!verified) {
      log.warn({ event: 'security.webhook_unverified', eventId: event.id, eventType: event.event_type, reason: 'signature' }, 'PayPal webhook with a bad signature ignored');
      throw new PaymentError('WEBHOOK_UNVERIFIED', 'Webhook signature verification failed');
    }

    const [stored] = await this.db
      .insert(webhookEvents)
      .values({ id: event.id, eventType: event.event_type, resourceId: event.resource.id ?? null, payload: raw })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id });
    if (!stored) {
      const [existing] = await this.db.select({ processedAt: webhookEvents.processedAt }).from(webhookEvents).where(eq(webhookEvents.id, event.id));
      if (existing?.processedAt) {
        log.info({ event: 'payment.webhook_duplicate', eventId: event.id, eventType: event.event_type }, 'PayPal webhook already handled');
        return 'duplicate';
      }
      // Stored but not handled (an earlier attempt failed, or one is running): handling is idempotent.
    }
    const outcome = await this.processEvent(event, log);
    await this.db.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, event.id));
    return outcome;
  }

  // ---- internals ------------------------------------------------------------------------------

  private async processEvent(event: WebhookEvent, log: EventLog): Promise<WebhookOutcome> {
    const { resource } = event;
    const related = resource.supplementary_data?.related_ids;
    switch (event.event_type) {
      case 'PAYMENT.CAPTURE.COMPLETED':
      case 'PAYMENT.CAPTURE.PENDING':
      case 'PAYMENT.CAPTURE.DECLINED':
      case 'PAYMENT.CAPTURE.DENIED': {
        const payment = await this.findForEvent({ orderId: related?.order_id, captureId: resource.id, customId: resource.custom_id });
        if (!payment?.providerOrderId) return this.unknown(event, log);
        // Never trust the event's body for money: ask PayPal for the order and apply what it says
        // (not joined with a settlement in flight, which may have read the order before this event).
        const captures = capturesOf(await this.paypal.getOrder(payment.providerOrderId));
        const capture = captures.find((c) => c.id === resource.id) ?? captures[0];
        if (capture) await this.applyCapture(await this.load(payment.id), capture, log);
        return 'processed';
      }
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED': {
        const captureId =
          related?.capture_id ?? captureIdOf(resource.links) ?? (event.resource_type === 'capture' ? resource.id : undefined);
        const payment = await this.findForEvent({ orderId: related?.order_id, captureId, customId: resource.custom_id });
        if (!payment || !captureId) return this.unknown(event, log);
        const refundId = event.resource_type === 'capture' ? undefined : resource.id;
        const refunded = await this.refundedCents(payment, captureId, refundId, log);
        if (refunded === undefined) {
          log.warn(
            { event: 'security.webhook_refund_unconfirmed', eventId: event.id, eventType: event.event_type, paymentId: payment.id, captureId },
            'PayPal does not confirm the refund or reversal the event reports: nothing changed',
          );
          return 'ignored';
        }
        await this.reverse(payment.id, refunded, event.event_type, log);
        return 'processed';
      }
      case 'CHECKOUT.ORDER.APPROVED': {
        // The buyer approved and closed the window before the page captured: capture here.
        const payment = resource.id ? await this.findForEvent({ orderId: resource.id }) : undefined;
        if (!payment) return this.unknown(event, log);
        try {
          await this.coalesced(payment.id, () => this.settlePayment(payment.id, log));
        } catch (err) {
          log.warn({ event: 'payment.approved_capture_failed', paymentId: payment.id, ...describeError(err) }, 'capture after CHECKOUT.ORDER.APPROVED failed');
        }
        return 'processed';
      }
      default:
        log.info({ event: 'payment.webhook_ignored', eventId: event.id, eventType: event.event_type }, 'PayPal webhook event type not handled');
        return 'ignored';
    }
  }

  private unknown(event: WebhookEvent, log: EventLog): WebhookOutcome {
    log.warn(
      { event: 'security.webhook_unknown_payment', eventId: event.id, eventType: event.event_type, resourceId: event.resource.id },
      'verified PayPal webhook for a payment this server does not know',
    );
    return 'ignored';
  }

  private async findForEvent(ids: { orderId?: string | undefined; captureId?: string | undefined; customId?: string | undefined }): Promise<PaymentRow | undefined> {
    if (ids.orderId) {
      const [row] = await this.db.select().from(payments).where(eq(payments.providerOrderId, ids.orderId));
      if (row) return row;
    }
    if (ids.captureId) {
      const [row] = await this.db.select().from(payments).where(eq(payments.captureId, ids.captureId));
      if (row) return row;
    }
    if (ids.customId && UUID_PATTERN.test(ids.customId)) {
      const [row] = await this.db.select().from(payments).where(eq(payments.id, ids.customId));
      if (row?.providerOrderId) return row;
    }
    return undefined;
  }

  /**
   * What PayPal has refunded or reversed of the payment's capture, in cents, read from PayPal
   * (never from the event): the whole amount when the capture is REFUNDED (or REVERSED), the
   * refund's running total when it is PARTIALLY_REFUNDED; undefined when the capture is not ours
   * or PayPal does not confirm a refund.
   */
  private async refundedCents(payment: PaymentRow, captureId: string, refundId: string | undefined, log: EventLog): Promise<number | undefined> {
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

  private async coalesced(paymentId: string, run: () => Promise<void>): Promise<void> {
    const running = this.inflight.get(paymentId);
    if (running) return running;
    const promise = run().finally(() => this.inflight.delete(paymentId));
    this.inflight.set(paymentId, promise);
    return promise;
  }

  private async load(paymentId: string): Promise<PaymentRow> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, paymentId));
    if (!row) throw new Error(`Payment ${paymentId} vanished`);
    return row;
  }

  /** Brings the payment up to date with PayPal; throws the error the caller should see, if any. */
  private async settlePayment(paymentId: string, log: EventLog): Promise<void> {
    const payment = await this.load(paymentId);
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
          await this.db
            .update(payments)
            .set({ captureAttempt: sql`${payments.captureAttempt} + 1`, statusDetail: err.issue, updatedAt: new Date() })
            .where(and(eq(payments.id, payment.id), eq(payments.captureAttempt, payment.captureAttempt)));
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
      return this.throwForStatus(payment);
    }
    const capture = capturesOf(order)[0];
    if (capture) await this.applyCapture(payment, capture, log);
    else if (payment.status === 'created') throw notApproved();
    return this.throwForStatus(await this.load(payment.id));
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

  private throwForStatus(payment: PaymentRow): void {
    if (payment.status === 'declined') throw captureDeclined();
    if (payment.status === 'failed') throw paymentFailed();
  }

  /**
   * Records what a capture says: COMPLETED credits the pack (once), PENDING waits, DECLINED and
   * FAILED end the payment. A capture whose amount, currency or custom id is not the payment's
   * is refused and logged as a security event.
   */
  private async applyCapture(payment: PaymentRow, capture: PayPalCapture, log: EventLog): Promise<void> {
    const cents = capture.amount ? valueToCents(capture.amount.value) : null;
    const matches =
      capture.amount?.currency_code === payment.currency &&
      cents === payment.amountCents &&
      (capture.custom_id === undefined || capture.custom_id === payment.id);
    if (!matches) {
      await this.db
        .update(payments)
        .set({ status: 'failed', statusDetail: 'CAPTURE_MISMATCH', updatedAt: new Date() })
        .where(and(eq(payments.id, payment.id), inArray(payments.status, ['created', 'pending'])));
      log.warn(
        { event: 'security.payment_mismatch', paymentId: payment.id, captureId: capture.id, amount: capture.amount, customId: capture.custom_id },
        'PayPal capture does not match the payment: not credited',
      );
      return;
    }
    const now = new Date();
    switch (capture.status) {
      case 'COMPLETED': {
        const credited = await this.db.transaction(async (tx) => {
          const [row] = await tx
            .update(payments)
            .set({ status: 'completed', captureId: capture.id, statusDetail: null, completedAt: now, updatedAt: now })
            .where(and(eq(payments.id, payment.id), inArray(payments.status, ['created', 'pending'])))
            .returning();
          if (!row) return false;
          await this.credits.record(tx, {
            userId: row.userId,
            type: 'purchase',
            amount: row.credits,
            description: packPurchaseDescription(packById(row.pack)),
            paymentId: row.id,
          });
          return true;
        });
        if (credited) {
          log.info({ event: 'payment.completed', paymentId: payment.id, captureId: capture.id, credits: payment.credits }, 'purchase credited');
        }
        return;
      }
      case 'PENDING':
        await this.db
          .update(payments)
          .set({ status: 'pending', captureId: capture.id, statusDetail: capture.status_details?.reason ?? null, updatedAt: now })
          .where(and(eq(payments.id, payment.id), eq(payments.status, 'created')));
        log.info({ event: 'payment.pending', paymentId: payment.id, captureId: capture.id, reason: capture.status_details?.reason }, 'PayPal holds the capture');
        return;
      case 'DECLINED':
      case 'FAILED':
        await this.db
          .update(payments)
          .set({ status: 'declined', captureId: capture.id, statusDetail: capture.status_details?.reason ?? capture.status, updatedAt: now })
          .where(and(eq(payments.id, payment.id), inArray(payments.status, ['created', 'pending'])));
        log.info({ event: 'payment.declined', paymentId: payment.id, captureId: capture.id }, 'PayPal declined the capture');
        return;
      default:
        // REFUNDED / PARTIALLY_REFUNDED arrive through their own webhook events.
        log.info({ event: 'payment.capture_status', paymentId: payment.id, status: capture.status }, 'capture status left to its webhook');
    }
  }

  /**
   * A refund or reversal of `refundedCents` in all (PayPal's running total): the credits it
   * stands for, floor(credits x refunded / amount), less those earlier refunds already took, are
   * removed as far as they are unspent (never below zero); the rest is added to the payment's
   * shortfall and it is logged as a security event. A full refund ends the payment `refunded`.
   * A replay, or an older refund's smaller total, changes nothing.
   */
  private async reverse(paymentId: string, refundedCents: number, kind: string, log: EventLog): Promise<void> {
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
      if (!row || refundedCents <= row.refundedCents || row.status === 'refunded') return undefined;
      const now = new Date();
      const full = refundedCents >= row.amountCents;
      const ended = full ? { status: 'refunded' as const, statusDetail: kind, refundedAt: now } : { statusDetail: 'PARTIALLY_REFUNDED' };
      if (row.status !== 'completed') {
        // Nothing was credited: a created or pending one simply ends refunded.
        const end = full && (row.status === 'created' || row.status === 'pending') ? ended : {};
        await tx.update(payments).set({ refundedCents, ...end, updatedAt: now }).where(eq(payments.id, row.id));
        return { userId: row.userId, removed: 0, shortfall: 0, full };
      }
      const due = creditsFor(row, refundedCents) - creditsFor(row, row.refundedCents);
      const [owner] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, row.userId)).for('update');
      const removed = Math.min(due, owner?.credits ?? 0);
      if (removed > 0) {
        await this.credits.record(tx, {
          userId: row.userId,
          type: 'purchase',
          amount: -removed,
          description: `${packById(row.pack).name} pack ${full ? 'refunded' : 'partly refunded'}: ${removed} credits removed`,
          paymentId: row.id,
        });
      }
      const shortfall = due - removed;
      await tx
        .update(payments)
        .set({ refundedCents, shortfall: sql`${payments.shortfall} + ${shortfall}`, ...ended, updatedAt: now })
        .where(eq(payments.id, row.id));
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
    if (capture) return this.applyCapture(await this.load(row.id), capture, log);
    if (order.status === 'APPROVED') {
      try {
        await this.coalesced(row.id, () => this.settlePayment(row.id, log));
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
    const [row] = await this.db
      .update(payments)
      .set({ status: 'failed', statusDetail: detail, updatedAt: new Date() })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'created')))
      .returning({ id: payments.id });
    if (row) log.info({ event: 'payment.order_ended', paymentId, reason: detail }, 'PayPal order expired or voided: payment ended');
  }

  private async result(paymentId: string): Promise<PaymentResult> {
    const [row] = await this.db
      .select({ payment: payments, balance: users.credits })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(eq(payments.id, paymentId));
    if (!row) throw orderNotFound();
    const { payment } = row;
    return {
      id: payment.providerOrderId ?? '',
      status: payment.status.toUpperCase() as PaymentStatus,
      pack: payment.pack,
      credits: payment.credits,
      balance: row.balance,
      captureId: payment.captureId,
    };
  }
}

function capturesOf(order: PayPalOrder): PayPalCapture[] {
  return order.purchase_units?.flatMap((u) => u.payments?.captures ?? []) ?? [];
}

/** The capture id in a refund's `up` link. */
function captureIdOf(links: ReadonlyArray<{ rel: string; href: string }> | undefined): string | undefined {
  const up = links?.find((l) => l.rel === 'up')?.href;
  return /\/captures\/([^/?#]+)$/.exec(up ?? '')?.[1];
}

/** The credits `refundedCents` of the payment stand for, floored: the buyer keeps a fraction of a credit. */
function creditsFor(payment: PaymentRow, refundedCents: number): number {
  return Math.floor((payment.credits * refundedCents) / payment.amountCents);
}

function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof PayPalApiError) return { status: err.status, name: err.errorName, issue: err.issue, debugId: err.debugId, message: err.message };
  return { message: err instanceof Error ? err.message : String(err) };
}
