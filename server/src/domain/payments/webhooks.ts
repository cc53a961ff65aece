import { z } from 'zod';
import type { PayPalClient, WebhookTransmission } from '../../integrations/paypal.ts';
import { BadRequestError } from '../errors.ts';
import { PaymentError } from './errors.ts';
import type { PaymentRow, PaymentsRepository } from './payments.repository.ts';
import { captureIdOf, capturesOf, describeError, type EventLog } from './paypal-answers.ts';
import type { Refunds } from './refunds.ts';
import type { Settlement } from './settlement.ts';

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

/** PayPal's webhooks: verified, stored once by event id, and never trusted for money. */
export class Webhooks {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly paypal: PayPalClient,
    private readonly settlement: Settlement,
    private readonly refunds: Refunds,
    /** PAYPAL_WEBHOOK_ID (the simulator's own id with the simulator); undefined: webhooks refused. */
    private readonly webhookId: string | undefined,
  ) {}

  /**
   * A webhook delivery: verified with PayPal (raw bytes), stored once by event id, then
   * handled. Unverifiable deliveries change nothing (400). A replay is a no-op.
   */
  async handle(raw: string, headers: Record<string, string | string[] | undefined>, log: EventLog): Promise<WebhookOutcome> {
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
    const webhookId = this.webhookId;
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

    const stored = await this.repository.storeEvent({ id: event.id, eventType: event.event_type, resourceId: event.resource.id ?? null, payload: raw });
    if (!stored) {
      if (await this.repository.eventProcessed(event.id)) {
        log.info({ event: 'payment.webhook_duplicate', eventId: event.id, eventType: event.event_type }, 'PayPal webhook already handled');
        return 'duplicate';
      }
      // Stored but not handled (an earlier attempt failed, or one is running): handling is idempotent.
    }
    const outcome = await this.process(event, log);
    await this.repository.markEventProcessed(event.id);
    return outcome;
  }

  private async process(event: WebhookEvent, log: EventLog): Promise<WebhookOutcome> {
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
        if (capture) await this.settlement.apply(await this.repository.load(payment.id), capture, log);
        return 'processed';
      }
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED': {
        const captureId =
          related?.capture_id ?? captureIdOf(resource.links) ?? (event.resource_type === 'capture' ? resource.id : undefined);
        const payment = await this.findForEvent({ orderId: related?.order_id, captureId, customId: resource.custom_id });
        if (!payment || !captureId) return this.unknown(event, log);
        const refundId = event.resource_type === 'capture' ? undefined : resource.id;
        const refunded = await this.refunds.refundedCents(payment, captureId, refundId, log);
        if (refunded === undefined) {
          log.warn(
            { event: 'security.webhook_refund_unconfirmed', eventId: event.id, eventType: event.event_type, paymentId: payment.id, captureId },
            'PayPal does not confirm the refund or reversal the event reports: nothing changed',
          );
          return 'ignored';
        }
        await this.refunds.reverse(payment.id, refunded, event.event_type, log);
        return 'processed';
      }
      case 'CHECKOUT.ORDER.APPROVED': {
        // The buyer approved and closed the window before the page captured: capture here.
        const payment = resource.id ? await this.findForEvent({ orderId: resource.id }) : undefined;
        if (!payment) return this.unknown(event, log);
        try {
          await this.settlement.settle(payment.id, log);
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
      const row = await this.repository.findByOrder(ids.orderId);
      if (row) return row;
    }
    if (ids.captureId) {
      const row = await this.repository.findByCapture(ids.captureId);
      if (row) return row;
    }
    if (ids.customId && UUID_PATTERN.test(ids.customId)) {
      const row = await this.repository.find(ids.customId);
      if (row?.providerOrderId) return row;
    }
    return undefined;
  }
}
