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
import type { Db, Executor } from '../../db/client.ts';
import { centsToValue, type PayPalClient, type PayPalOrder } from '../../integrations/paypal.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import { PaymentError } from './errors.ts';
import { PaymentsRepository } from './payments.repository.ts';
import { describeError, type EventLog } from './paypal-answers.ts';
import { Reconciliation } from './reconciliation.ts';
import { Refunds } from './refunds.ts';
import { orderNotFound, Settlement } from './settlement.ts';
import { Webhooks, type WebhookOutcome } from './webhooks.ts';

export type { EventLog } from './paypal-answers.ts';

/** Claim priority of a buyer's jobs (jobs.priority; higher is claimed first). */
export const PRIORITY_BY_PACK: Readonly<Record<CreditPackId, number>> = { starter: 0, professional: 1, enterprise: 2 };

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
 * ledger row. What PayPal says counts, never what the browser says. The capture path is
 * settlement.ts (its state machine capture.ts), the webhooks webhooks.ts, refunds refunds.ts,
 * reconciliation reconciliation.ts.
 */
export class PaymentsService {
  private readonly repository: PaymentsRepository;
  private readonly settlement: Settlement;
  private readonly webhooks: Webhooks;
  private readonly reconciliation: Reconciliation;

  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
    private readonly paypal: PayPalClient,
    private readonly options: PaymentsServiceOptions,
  ) {
    this.repository = new PaymentsRepository(db);
    this.settlement = new Settlement(db, this.repository, credits, paypal);
    const refunds = new Refunds(db, this.repository, credits, paypal);
    this.webhooks = new Webhooks(this.repository, paypal, this.settlement, refunds, options.webhookId);
    this.reconciliation = new Reconciliation(this.repository, paypal, this.settlement);
  }

  clientInfo(): PaypalClientIdResponse {
    return { clientId: this.options.clientId, environment: this.options.environment };
  }

  /** Creates the PayPal order for a pack and the pending payment tied to the user. */
  async createOrder(userId: string, packId: CreditPackId, log: EventLog): Promise<PaymentOrderResponse> {
    const pack = packById(packId);
    const payment = await this.repository.insert({ userId, pack: pack.id, credits: pack.credits, amountCents: pack.priceUsd * 100, currency: PAYMENT_CURRENCY, status: 'created' });
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
      await this.repository.update(payment.id, { status: 'failed', statusDetail: 'CREATE_ORDER_FAILED' });
      log.error({ event: 'payment.create_failed', paymentId: payment.id, ...describeError(err) }, 'PayPal order creation failed');
      throw new PaymentError('PAYMENT_PROVIDER_ERROR', 'Failed to create order. Please try again.');
    }
    await this.repository.update(payment.id, { providerOrderId: order.id });
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
    const payment = await this.repository.findByOrder(orderId, userId);
    if (!payment) {
      log.warn({ event: 'security.payment_order_refused', userId, orderId }, 'capture of an unknown or foreign order refused');
      throw orderNotFound();
    }
    await this.settlement.settle(payment.id, log);
    return this.result(payment.id);
  }

  /** The priority of a user's new jobs: buyers of Professional or Enterprise are claimed first. */
  async priorityForUser(executor: Executor, userId: string): Promise<number> {
    const packs = await this.repository.completedPacks(executor, userId);
    return Math.max(0, ...packs.map((pack) => PRIORITY_BY_PACK[pack] ?? 0));
  }

  /** Whether the user holds a purchase of the pack: captured and not refunded. */
  async hasBought(userId: string, pack: CreditPackId): Promise<boolean> {
    return (await this.repository.completedPacks(this.db, userId)).includes(pack);
  }

  /** Money spent, in cents: completed purchases (refunded ones gave the money back). */
  totalSpentCents(userId: string, executor?: Executor): Promise<number> {
    return this.repository.completedCents(userId, executor);
  }

  /** Payments PayPal never told us the end of, asked about again (reconciliation.ts); answers how many were claimed. */
  reconcileStale(afterMs: number, limit: number, log: EventLog): Promise<number> {
    return this.reconciliation.reconcileStale(afterMs, limit, log);
  }

  /** A PayPal webhook delivery (webhooks.ts). */
  handleWebhook(raw: string, headers: Record<string, string | string[] | undefined>, log: EventLog): Promise<WebhookOutcome> {
    return this.webhooks.handle(raw, headers, log);
  }

  private async result(paymentId: string): Promise<PaymentResult> {
    const payment = await this.repository.find(paymentId);
    if (!payment) throw orderNotFound();
    const balance = await this.credits.balance(payment.userId);
    return {
      id: payment.providerOrderId ?? '',
      status: payment.status.toUpperCase() as PaymentStatus,
      pack: payment.pack,
      credits: payment.credits,
      balance,
      captureId: payment.captureId,
    };
  }
}
