import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { centsToValue, valueToCents } from '../../integrations/paypal.ts';

export const SIMULATOR_WEBHOOK_ID = 'WH-ROOMSTAGER-SIMULATOR';
export const AUTH_ALGO = 'HMACSHA256';
export const TOKEN_TTL_S = 32_400;
const MAX_ORDERS = 10_000;

export type CaptureOutcome = 'COMPLETED' | 'PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED';

interface Money {
  currency_code: string;
  value: string;
}

interface SimCapture {
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  reason: string | undefined;
  amount: Money;
  refundedCents: number;
  createTime: string;
  updateTime: string;
}

interface SimRefund {
  id: string;
  captureId: string;
  amount: Money;
  /** The capture's refunded total once this refund was made. */
  totalRefunded: Money;
  customId: string | undefined;
  time: string;
}

export interface SimOrder {
  id: string;
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  intent: string;
  unit: { reference_id: string; custom_id?: string; invoice_id?: string; description?: string; amount: Money };
  paymentSource: boolean;
  returnUrl: string | undefined;
  cancelUrl: string | undefined;
  payerId: string | undefined;
  capture: SimCapture | undefined;
  createTime: string;
  updateTime: string;
}

/** A REST answer: status and JSON body. */
export type Result = { status: number; body: unknown };

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** PayPal-looking ids: 17 upper-case letters and digits. */
export function paypalId(): string {
  const bytes = randomBytes(17);
  return [...bytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

export function paypalError(status: number, name: string, message: string, issue?: string, description?: string) {
  return {
    status,
    body: {
      name,
      message,
      debug_id: randomBytes(7).toString('hex'),
      ...(issue ? { details: [{ issue, description: description ?? issue }] } : {}),
      links: issue ? [{ href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`, rel: 'information_link', method: 'GET' }] : [],
    },
  };
}

export const UNPROCESSABLE = 'The requested action could not be performed, semantically incorrect, or failed business validation.';

/**
 * PayPal's side of the simulator, without HTTP: access tokens, orders and their captures, refunds,
 * webhook signatures, and the resources PayPal answers with. It behaves as PayPal does where it
 * matters: an order nobody approved cannot be captured (ORDER_NOT_APPROVED), a second capture is
 * refused (ORDER_ALREADY_CAPTURED), an order can be COMPLETED while its capture is PENDING or
 * DECLINED.
 */
export class SimulatedPayPal {
  readonly webhookId = SIMULATOR_WEBHOOK_ID;
  private readonly signingKey = randomBytes(32);
  private readonly orders = new Map<string, SimOrder>();
  private readonly tokens = new Map<string, number>();
  private readonly refunds = new Map<string, SimRefund>();
  private readonly outcomes: CaptureOutcome[] = [];

  /** `baseUrl`: where the simulator is reachable; its resources link there. */
  constructor(readonly baseUrl: string) {}

  /** What the next capture decides (queued; COMPLETED when the queue is empty). */
  nextCapture(outcome: CaptureOutcome): void {
    this.outcomes.push(outcome);
  }

  /** The buyer approves the order (what the Approve button does). */
  approve(orderId: string): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`No simulated order ${orderId}`);
    if (order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED') {
      order.status = 'APPROVED';
      order.payerId = paypalId().slice(0, 13);
      order.updateTime = new Date().toISOString();
    }
  }

  /** The order is voided (PayPal voids orders after too many declined captures, or on request). */
  voidOrder(orderId: string): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`No simulated order ${orderId}`);
    order.status = 'VOIDED';
    order.updateTime = new Date().toISOString();
  }

  /** Makes every issued access token invalid (PayPal then answers 401). */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** A new access token, valid TOKEN_TTL_S seconds. */
  issueToken(): string {
    const token = `A21AA${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    for (const [t, exp] of this.tokens) if (exp < now) this.tokens.delete(t);
    this.tokens.set(token, now + TOKEN_TTL_S * 1000);
    return token;
  }

  tokenValid(token: string): boolean {
    const expires = this.tokens.get(token);
    return expires !== undefined && expires > Date.now();
  }

  order(orderId: string): Readonly<SimOrder> | undefined {
    return this.orders.get(orderId);
  }

  /** PayPal completes a PENDING capture: the capture turns COMPLETED; answers the capture resource. */
  completeCapture(orderId: string): Record<string, unknown> {
    const order = this.requireCaptured(orderId);
    const capture = order.capture as SimCapture;
    capture.status = 'COMPLETED';
    capture.reason = undefined;
    capture.updateTime = new Date().toISOString();
    return this.captureResource(order, capture);
  }

  /**
   * The merchant refunds (or the buyer's bank reverses) `value` of the capture (what is left of
   * it when absent); the capture turns PARTIALLY_REFUNDED or REFUNDED. Answers the refund resource.
   */
  refundCapture(orderId: string, value?: string): Record<string, unknown> {
    const order = this.requireCaptured(orderId);
    const capture = order.capture as SimCapture;
    const total = valueToCents(capture.amount.value) ?? 0;
    const cents = value === undefined ? total - capture.refundedCents : valueToCents(value);
    if (cents === null || cents <= 0 || capture.refundedCents + cents > total) throw new Error(`Cannot refund ${value ?? 'the rest'} of capture ${capture.id}`);
    capture.refundedCents += cents;
    capture.status = capture.refundedCents === total ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.updateTime = new Date().toISOString();
    const currency = capture.amount.currency_code;
    const refund: SimRefund = {
      id: paypalId(),
      captureId: capture.id,
      amount: { currency_code: currency, value: centsToValue(cents) },
      totalRefunded: { currency_code: currency, value: centsToValue(capture.refundedCents) },
      customId: order.unit.custom_id,
      time: capture.updateTime,
    };
    this.refunds.set(refund.id, refund);
    return { ...this.refundResource(refund), ...(order.unit.invoice_id ? { invoice_id: order.unit.invoice_id } : {}) };
  }

  /** Where PayPal's signing certificate would be (the deliveries name it; verification checks it). */
  get certUrl(): string {
    return `${this.baseUrl}/v1/notifications/certs/CERT-SIMULATOR`;
  }

  /** The signature of a delivery: HMAC with a key of this process, in place of PayPal's certificate. */
  signature(transmissionId: string, time: string, webhookId: string, body: string): string {
    const digest = createHash('sha256').update(body).digest('hex');
    return createHmac('sha256', this.signingKey).update(`${transmissionId}|${time}|${webhookId}|${digest}`).digest('base64');
  }

  private requireCaptured(orderId: string): SimOrder {
    const order = this.orders.get(orderId);
    if (!order?.capture) throw new Error(`Simulated order ${orderId} has no capture`);
    return order;
  }

  private notFound(id: string) {
    return paypalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID', `Specified resource ID ${id} does not exist. Please check the resource ID and try again.`);
  }

  getOrder(orderId: string): Result {
    const order = this.orders.get(orderId);
    return order ? { status: 200, body: this.representation(order) } : this.notFound(orderId);
  }

  getCapture(captureId: string): Result {
    const order = [...this.orders.values()].find((o) => o.capture?.id === captureId);
    return order?.capture ? { status: 200, body: this.captureResource(order, order.capture) } : this.notFound(captureId);
  }

  getRefund(refundId: string): Result {
    const refund = this.refunds.get(refundId);
    return refund ? { status: 200, body: this.refundResource(refund) } : this.notFound(refundId);
  }

  /** POST /v2/checkout/orders with its JSON body (undefined: not well-formed JSON). */
  createOrder(input: Record<string, unknown> | undefined): Result {
    const malformed = (description: string, field = '/') =>
      ({
        status: 400,
        body: {
          name: 'INVALID_REQUEST',
          message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
          debug_id: randomBytes(7).toString('hex'),
          details: [{ field, issue: 'INVALID_PARAMETER_VALUE', description }],
        },
      }) as const;
    if (!input) return malformed('The request JSON is not well formed.');
    if (input.intent !== 'CAPTURE') return malformed('Only intent CAPTURE is simulated.', '/intent');
    const units = input.purchase_units;
    if (!Array.isArray(units) || units.length !== 1) return malformed('Exactly one purchase unit is simulated.', '/purchase_units');
    const unit = units[0] as Record<string, unknown>;
    const amount = (unit?.amount ?? {}) as Record<string, unknown>;
    if (typeof amount.currency_code !== 'string' || !/^[A-Z]{3}$/.test(amount.currency_code)) {
      return malformed('Currency code is invalid.', '/purchase_units/@reference_id==\'default\'/amount/currency_code');
    }
    if (typeof amount.value !== 'string' || !/^\d{1,10}(\.\d{2})?$/.test(amount.value) || Number(amount.value) <= 0) {
      return malformed('Amount value is invalid.', '/purchase_units/@reference_id==\'default\'/amount/value');
    }
    const paypalSource = ((input.payment_source as Record<string, unknown> | undefined)?.paypal ?? undefined) as Record<string, unknown> | undefined;
    const context = (paypalSource?.experience_context ?? {}) as Record<string, unknown>;
    const sameOriginUrl = (v: unknown) => {
      if (typeof v !== 'string') return undefined;
      try {
        return new URL(v).href;
      } catch {
        return undefined;
      }
    };
    const now = new Date().toISOString();
    const order: SimOrder = {
      id: paypalId(),
      status: paypalSource ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      intent: 'CAPTURE',
      unit: {
        reference_id: typeof unit.reference_id === 'string' ? unit.reference_id : 'default',
        ...(typeof unit.custom_id === 'string' ? { custom_id: unit.custom_id } : {}),
        ...(typeof unit.invoice_id === 'string' ? { invoice_id: unit.invoice_id } : {}),
        ...(typeof unit.description === 'string' ? { description: unit.description } : {}),
        amount: { currency_code: amount.currency_code, value: amount.value },
      },
      paymentSource: Boolean(paypalSource),
      returnUrl: sameOriginUrl(context.return_url),
      cancelUrl: sameOriginUrl(context.cancel_url),
      payerId: undefined,
      capture: undefined,
      createTime: now,
      updateTime: now,
    };
    if (this.orders.size >= MAX_ORDERS) {
      const oldest = this.orders.keys().next().value;
      if (oldest !== undefined) this.orders.delete(oldest);
    }
    this.orders.set(order.id, order);
    return { status: 201, body: this.representation(order) };
  }

  /** POST /v2/checkout/orders/{id}/capture with its JSON body (undefined: not well-formed JSON). */
  capture(orderId: string, input: Record<string, unknown> | undefined): Result {
    const order = this.orders.get(orderId);
    if (!order) return this.notFound(orderId);
    if (input === undefined) return paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', 'MALFORMED_REQUEST_JSON');
    if (order.status === 'VOIDED') {
      return paypalError(422, 'UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'ORDER_NOT_APPROVED', 'The order was voided.');
    }
    if (order.status === 'COMPLETED') {
      return paypalError(422, 'UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'ORDER_ALREADY_CAPTURED', "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.");
    }
    if (order.status !== 'APPROVED') {
      return paypalError(422, 'UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment. Please redirect the payer to the \'rel\':\'approve\' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.');
    }
    const outcome = this.outcomes.shift() ?? 'COMPLETED';
    if (outcome === 'INSTRUMENT_DECLINED') {
      // The buyer must choose another funding source: the order needs approving again.
      order.status = order.paymentSource ? 'PAYER_ACTION_REQUIRED' : 'CREATED';
      order.updateTime = new Date().toISOString();
      return paypalError(422, 'UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'INSTRUMENT_DECLINED', "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.");
    }
    const now = new Date().toISOString();
    order.capture = {
      id: paypalId(),
      status: outcome,
      reason: outcome === 'PENDING' ? 'PENDING_REVIEW' : undefined,
      amount: order.unit.amount,
      refundedCents: 0,
      createTime: now,
      updateTime: now,
    };
    // As PayPal does: the order is COMPLETED even when its capture is PENDING or DECLINED.
    order.status = 'COMPLETED';
    order.updateTime = now;
    return { status: 201, body: this.representation(order) };
  }

  /** POST /v1/notifications/verify-webhook-signature with its raw body. */
  verify(raw: string): Result {
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', 'MALFORMED_REQUEST_JSON');
    }
    for (const field of ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id']) {
      if (typeof input[field] !== 'string' || !input[field]) {
        return paypalError(400, 'VALIDATION_ERROR', 'Invalid request - see details', 'MISSING_REQUIRED_PARAMETER', `${field} is required`);
      }
    }
    // The event as it was sent, byte for byte (the client splices it in last; in the fields
    // before it a quote is always escaped, so the first match is the key itself).
    const marker = raw.indexOf('"webhook_event":');
    const event = marker >= 0 ? raw.slice(marker + '"webhook_event":'.length, raw.lastIndexOf('}')).trim() : '';
    const expected = this.signature(String(input.transmission_id), String(input.transmission_time), String(input.webhook_id), event);
    const ok =
      input.auth_algo === AUTH_ALGO &&
      input.cert_url === this.certUrl &&
      input.webhook_id === this.webhookId &&
      constantTimeEqual(String(input.transmission_sig), expected);
    return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
  }

  private captureResource(order: SimOrder, capture: SimCapture): Record<string, unknown> {
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.reason ? { status_details: { reason: capture.reason } } : {}),
      amount: capture.amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      ...(capture.status === 'COMPLETED' || capture.status === 'PARTIALLY_REFUNDED' || capture.status === 'REFUNDED'
        ? {
            seller_receivable_breakdown: {
              gross_amount: capture.amount,
              paypal_fee: { currency_code: capture.amount.currency_code, value: '0.00' },
              net_amount: capture.amount,
            },
          }
        : {}),
      ...(order.unit.custom_id ? { custom_id: order.unit.custom_id } : {}),
      ...(order.unit.invoice_id ? { invoice_id: order.unit.invoice_id } : {}),
      supplementary_data: { related_ids: { order_id: order.id } },
      create_time: capture.createTime,
      update_time: capture.updateTime,
      links: [
        { href: `${this.baseUrl}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
        { href: `${this.baseUrl}/v2/payments/captures/${capture.id}/refund`, rel: 'refund', method: 'POST' },
        { href: `${this.baseUrl}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  private refundResource(refund: SimRefund): Record<string, unknown> {
    return {
      id: refund.id,
      status: 'COMPLETED',
      amount: refund.amount,
      ...(refund.customId ? { custom_id: refund.customId } : {}),
      seller_payable_breakdown: { gross_amount: refund.amount, net_amount: refund.amount, total_refunded_amount: refund.totalRefunded },
      create_time: refund.time,
      update_time: refund.time,
      links: [
        { href: `${this.baseUrl}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
        { href: `${this.baseUrl}/v2/payments/captures/${refund.captureId}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  private representation(order: SimOrder): Record<string, unknown> {
    const self = { href: `${this.baseUrl}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' };
    const approveHref = `${this.baseUrl}/checkoutnow?token=${order.id}`;
    const links =
      order.status === 'CREATED'
        ? [self, { href: approveHref, rel: 'approve', method: 'GET' }, { href: `${self.href}`, rel: 'update', method: 'PATCH' }, { href: `${self.href}/capture`, rel: 'capture', method: 'POST' }]
        : order.status === 'PAYER_ACTION_REQUIRED'
          ? [self, { href: approveHref, rel: 'payer-action', method: 'GET' }]
          : order.status === 'APPROVED'
            ? [self, { href: `${self.href}/capture`, rel: 'capture', method: 'POST' }]
            : [self];
    const payer = order.payerId
      ? { payer: { name: { given_name: 'Simulated', surname: 'Buyer' }, email_address: 'buyer@example.com', payer_id: order.payerId, address: { country_code: 'US' } } }
      : {};
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      ...(order.paymentSource || order.payerId
        ? { payment_source: { paypal: order.payerId ? { email_address: 'buyer@example.com', account_id: order.payerId, account_status: 'VERIFIED', name: { given_name: 'Simulated', surname: 'Buyer' }, address: { country_code: 'US' } } : {} } }
        : {}),
      purchase_units: [
        {
          ...order.unit,
          payee: { email_address: 'merchant@roomstager.example', merchant_id: 'ROOMSTAGERSIM' },
          ...(order.capture ? { payments: { captures: [this.captureResource(order, order.capture)] } } : {}),
        },
      ],
      ...payer,
      create_time: order.createTime,
      update_time: order.updateTime,
      links,
    };
  }
}
