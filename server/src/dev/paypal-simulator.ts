import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { escapeHtml } from '../html.ts';
import { centsToValue, valueToCents } from '../integrations/paypal.ts';
import { sendDevPage } from './dev-page.ts';

/**
 * The development stand-in for PayPal: mounted under /dev/paypal when the app runs outside
 * production without PAYPAL_CLIENT_ID/SECRET. It speaks the REST wire format of the calls the
 * app makes (OAuth2 token, Orders v2 create/get/capture with PayPal-Request-Id idempotency and
 * `Prefer`, Payments v2 get capture and get refund, verify-webhook-signature) and behaves as PayPal does where it matters: an order
 * nobody approved cannot be captured (ORDER_NOT_APPROVED), a second capture is refused
 * (ORDER_ALREADY_CAPTURED), an order can be COMPLETED while its capture is PENDING or
 * DECLINED. Its approval page (`approve` link) stands in for PayPal's checkout window.
 *
 * Tests drive what PayPal decides: `nextCapture('PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED')`,
 * `approve(orderId)`, `voidOrder(orderId)`, `rejectConcurrentDuplicates(holdMs)`, and signed
 * webhook deliveries (`completeCapture`, `refundCapture`, `webhookDelivery`) to POST to
 * /api/paypal/webhook. Deliveries are signed with a secret of this
 * process (HMAC instead of PayPal's certificate), checked by its verify-webhook-signature.
 */

export const SIMULATOR_WEBHOOK_ID = 'WH-ROOMSTAGER-SIMULATOR';
const AUTH_ALGO = 'HMACSHA256';
const TOKEN_TTL_S = 32_400;
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

interface SimOrder {
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

export interface WebhookDelivery {
  headers: Record<string, string>;
  /** The body exactly as PayPal would send it (pretty-printed, so re-serialising it changes it). */
  body: string;
  event: { id: string; event_type: string; resource: Record<string, unknown> };
}

const STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{color:#475569;line-height:1.5}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{font-weight:600}
dd{margin:0}
.notice{background:#fef9c3;border:1px solid #facc15;border-radius:.5rem;padding:.5rem .75rem;color:#713f12}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.7rem;font-size:1rem;font-weight:600;border-radius:.5rem;cursor:pointer;border:1px solid #1d4ed8}
button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.approve{color:#fff;background:#1d4ed8}
.approve:hover{background:#1e40af}
.cancel{color:#1d4ed8;background:#fff}
.error{color:#b91c1c;font-weight:600}
`;


const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** PayPal-looking ids: 17 upper-case letters and digits. */
function paypalId(): string {
  const bytes = randomBytes(17);
  return [...bytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

function paypalError(status: number, name: string, message: string, issue?: string, description?: string) {
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

const UNPROCESSABLE = 'The requested action could not be performed, semantically incorrect, or failed business validation.';

export class PayPalSimulator {
  readonly clientId = 'roomstager-simulator';
  /** Generated at start, known only to this process. */
  readonly clientSecret = randomBytes(24).toString('base64url');
  readonly webhookId = SIMULATOR_WEBHOOK_ID;
  private readonly signingKey = randomBytes(32);
  private readonly orders = new Map<string, SimOrder>();
  private readonly tokens = new Map<string, number>();
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private readonly refunds = new Map<string, SimRefund>();
  private readonly outcomes: CaptureOutcome[] = [];
  /** Idempotent calls still running; with `holdMs` set, a second call with the same key is refused meanwhile. */
  private readonly inFlight = new Set<string>();
  private holdMs: number | undefined;
  private readonly basePath: string;
  private app: FastifyInstance | undefined;

  /** `baseUrl`: where the simulator is reachable, e.g. http://localhost:3000/dev/paypal. */
  constructor(readonly baseUrl: string) {
    this.basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  }

  get description(): string {
    return `PayPal simulator (stand-in) at ${this.basePath}`;
  }

  // ---- test controls ------------------------------------------------------------------------

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

  /**
   * As PayPal may: while a capture is in flight (held `holdMs` here), another capture with the
   * same PayPal-Request-Id is refused (422 PREVIOUS_REQUEST_IN_PROGRESS) instead of waiting for
   * the first one's answer. `undefined` turns it off.
   */
  rejectConcurrentDuplicates(holdMs: number | undefined): void {
    this.holdMs = holdMs;
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

  order(orderId: string): Readonly<SimOrder> | undefined {
    return this.orders.get(orderId);
  }

  /** PayPal completes a PENDING capture: the capture turns COMPLETED; answers the signed event. */
  completeCapture(orderId: string): WebhookDelivery {
    const order = this.requireCaptured(orderId);
    const capture = order.capture as SimCapture;
    capture.status = 'COMPLETED';
    capture.reason = undefined;
    capture.updateTime = new Date().toISOString();
    return this.webhookDelivery('PAYMENT.CAPTURE.COMPLETED', this.captureResource(order, capture), 'capture');
  }

  /**
   * The merchant refunds (or the buyer's bank reverses) `value` of the capture (what is left of
   * it when absent); the capture turns PARTIALLY_REFUNDED or REFUNDED. Answers the signed event.
   */
  refundCapture(
    orderId: string,
    eventType: 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED' = 'PAYMENT.CAPTURE.REFUNDED',
    value?: string,
  ): WebhookDelivery {
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
    const resource = { ...this.refundResource(refund), ...(order.unit.invoice_id ? { invoice_id: order.unit.invoice_id } : {}) };
    return this.webhookDelivery(eventType, resource, 'refund');
  }

  /** A signed delivery of any event (the resource as given). */
  webhookDelivery(eventType: string, resource: Record<string, unknown>, resourceType = 'capture'): WebhookDelivery {
    const event = {
      id: `WH-${paypalId()}-${paypalId()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary: `${eventType} (simulated)`,
      resource,
      links: [],
    };
    const body = JSON.stringify(event, null, 2);
    return { headers: this.sign(body), body, event };
  }

  /** The transmission headers PayPal would send with `body`. */
  sign(body: string, webhookId = this.webhookId): Record<string, string> {
    const transmissionId = randomUUID();
    const transmissionTime = new Date().toISOString();
    return {
      'content-type': 'application/json',
      'paypal-auth-algo': AUTH_ALGO,
      'paypal-cert-url': this.certUrl,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': this.signature(transmissionId, transmissionTime, webhookId, body),
    };
  }

  private get certUrl(): string {
    return `${this.baseUrl}/v1/notifications/certs/CERT-SIMULATOR`;
  }

  private signature(transmissionId: string, time: string, webhookId: string, body: string): string {
    const digest = createHash('sha256').update(body).digest('hex');
    return createHmac('sha256', this.signingKey).update(`${transmissionId}|${time}|${webhookId}|${digest}`).digest('base64');
  }

  private requireCaptured(orderId: string): SimOrder {
    const order = this.orders.get(orderId);
    if (!order?.capture) throw new Error(`Simulated order ${orderId} has no capture`);
    return order;
  }

  // ---- the app's back channel -----------------------------------------------------------------

  /** The PayPal client's fetch: requests to the simulator are answered in-process through `inject`. */
  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const base = new URL(this.baseUrl);
    if (!this.app || url.origin !== base.origin || !url.pathname.startsWith(`${this.basePath}/`)) {
      return fetch(input, init);
    }
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const body = init?.body;
    const res = await this.app.inject({
      method: (init?.method ?? 'GET') as HTTPMethods,
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof body === 'string' ? { payload: body } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const nullBody = [101, 204, 205, 304].includes(res.statusCode);
    return new Response(nullBody ? null : res.rawPayload, { status: res.statusCode, headers: out });
  };

  // ---- routes ---------------------------------------------------------------------------------

  async mount(app: FastifyInstance): Promise<void> {
    this.app = app;
    const base = this.basePath;
    const exempt = { config: { crossSiteExempt: true } };
    await app.register(async (scope) => {
      await scope.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
      // JSON bodies arrive raw: verify-webhook-signature needs the event's exact bytes.
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));

      scope.get(`${base}/style.css`, async (_req, reply) => reply.header('Cache-Control', 'no-cache').type('text/css; charset=utf-8').send(STYLESHEET));

      scope.post(`${base}/v1/oauth2/token`, exempt, async (req, reply) => {
        reply.header('Cache-Control', 'no-store');
        const auth = req.headers.authorization ?? '';
        const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
        const colon = decoded.indexOf(':');
        const id = colon > 0 ? decoded.slice(0, colon) : '';
        const secret = colon > 0 ? decoded.slice(colon + 1) : '';
        if (id !== this.clientId || !constantTimeEqual(secret, this.clientSecret)) {
          return reply.code(401).send({ error: 'invalid_client', error_description: 'Client Authentication failed' });
        }
        const form = (req.body ?? {}) as Record<string, unknown>;
        if (form.grant_type !== 'client_credentials') {
          return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
        }
        const token = `A21AA${randomBytes(32).toString('base64url')}`;
        const now = Date.now();
        for (const [t, exp] of this.tokens) if (exp < now) this.tokens.delete(t);
        this.tokens.set(token, now + TOKEN_TTL_S * 1000);
        return reply.send({
          scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/applications/webhooks',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-ROOMSTAGER-SIM',
          expires_in: TOKEN_TTL_S,
          nonce: `${new Date().toISOString()}${randomBytes(8).toString('hex')}`,
        });
      });

      scope.post(`${base}/v2/checkout/orders`, exempt, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.idempotently(req, reply, () => this.createOrder(req));
      });

      scope.get<{ Params: { id: string } }>(`${base}/v2/checkout/orders/:id`, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        const order = this.orders.get(req.params.id);
        if (!order) return this.sendResult(reply, this.notFound(req.params.id));
        return this.sendResult(reply, { status: 200, body: this.representation(order) });
      });

      scope.post<{ Params: { id: string } }>(`${base}/v2/checkout/orders/:id/capture`, exempt, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.idempotently(req, reply, () => this.capture(req.params.id, req));
      });

      scope.get<{ Params: { id: string } }>(`${base}/v2/payments/captures/:id`, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        const order = [...this.orders.values()].find((o) => o.capture?.id === req.params.id);
        if (!order?.capture) return this.sendResult(reply, this.notFound(req.params.id));
        return this.sendResult(reply, { status: 200, body: this.captureResource(order, order.capture) });
      });

      scope.get<{ Params: { id: string } }>(`${base}/v2/payments/refunds/:id`, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        const refund = this.refunds.get(req.params.id);
        if (!refund) return this.sendResult(reply, this.notFound(req.params.id));
        return this.sendResult(reply, { status: 200, body: this.refundResource(refund) });
      });

      scope.post(`${base}/v1/notifications/verify-webhook-signature`, exempt, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.sendResult(reply, this.verify(typeof req.body === 'string' ? req.body : ''));
      });

      // The buyer's side: PayPal's checkout window.
      scope.get<{ Querystring: { token?: string } }>(`${base}/checkoutnow`, async (req, reply) => {
        const order = this.orders.get(String(req.query.token ?? ''));
        if (!order) return this.sendHtml(reply.code(404), '<h1>PayPal simulator</h1>\n  <p class="error" role="alert">This order does not exist.</p>');
        return this.sendApprovalPage(reply, order);
      });

      scope.post(`${base}/checkoutnow`, exempt, async (req, reply) => {
        const form = (req.body ?? {}) as Record<string, unknown>;
        const order = this.orders.get(typeof form.token === 'string' ? form.token : '');
        if (!order) return this.sendHtml(reply.code(404), '<h1>PayPal simulator</h1>\n  <p class="error" role="alert">This order does not exist.</p>');
        if (form.action === 'approve') {
          this.approve(order.id);
          if (order.returnUrl) {
            const target = new URL(order.returnUrl);
            target.searchParams.set('token', order.id);
            target.searchParams.set('PayerID', order.payerId ?? '');
            return reply.redirect(target.href, 303);
          }
          return this.sendHtml(reply, '<h1>Payment approved</h1>\n  <p role="status">You can close this window and return to RoomStager.</p>');
        }
        if (order.cancelUrl) {
          const target = new URL(order.cancelUrl);
          target.searchParams.set('token', order.id);
          return reply.redirect(target.href, 303);
        }
        return this.sendHtml(reply, '<h1>Payment cancelled</h1>\n  <p role="status">You can close this window and return to RoomStager.</p>');
      });
    });
  }

  private authorized(req: FastifyRequest): boolean {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) return false;
    const expires = this.tokens.get(auth.slice(7));
    return expires !== undefined && expires > Date.now();
  }

  private unauthorized(reply: FastifyReply) {
    return reply.code(401).send({ error: 'invalid_token', error_description: 'Token signature verification failed' });
  }

  private notFound(id: string) {
    return paypalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID', `Specified resource ID ${id} does not exist. Please check the resource ID and try again.`);
  }

  /** PayPal-Request-Id: the same key on the same call answers the first answer again. */
  private async idempotently(req: FastifyRequest, reply: FastifyReply, run: () => { status: number; body: unknown }) {
    const requestId = req.headers['paypal-request-id'];
    const key = typeof requestId === 'string' && requestId ? `${req.method} ${req.url} ${requestId}` : undefined;
    const stored = key ? this.idempotent.get(key) : undefined;
    let result = stored;
    if (!result && key && this.holdMs !== undefined) {
      if (this.inFlight.has(key)) {
        result = paypalError(422, 'UNPROCESSABLE_ENTITY', UNPROCESSABLE, 'PREVIOUS_REQUEST_IN_PROGRESS', 'A previous request on this resource is currently in progress. Please wait for some time and try again.');
        return this.sendResult(reply, result);
      }
      this.inFlight.add(key);
      try {
        await new Promise((resolve) => setTimeout(resolve, this.holdMs));
        result = run();
      } finally {
        this.inFlight.delete(key);
      }
    }
    result ??= run();
    if (key && !stored && result.status < 500) this.idempotent.set(key, result);
    return this.sendResult(reply, result, req.headers.prefer === 'return=representation');
  }

  private sendResult(reply: FastifyReply, result: { status: number; body: unknown }, representation = true) {
    let body = result.body;
    if (!representation && result.status < 300 && body && typeof body === 'object') {
      const full = body as Record<string, unknown>;
      body = { id: full.id, status: full.status, links: full.links };
    }
    return reply.code(result.status).header('Cache-Control', 'no-store').header('paypal-debug-id', randomBytes(7).toString('hex')).send(body);
  }

  private parseJson(req: FastifyRequest): Record<string, unknown> | undefined {
    if (typeof req.body !== 'string' || !req.body) return {};
    try {
      const value = JSON.parse(req.body) as unknown;
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  private createOrder(req: FastifyRequest): { status: number; body: unknown } {
    const input = this.parseJson(req);
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

  private capture(orderId: string, req: FastifyRequest): { status: number; body: unknown } {
    const order = this.orders.get(orderId);
    if (!order) return this.notFound(orderId);
    if (this.parseJson(req) === undefined) return paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', 'MALFORMED_REQUEST_JSON');
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

  private verify(raw: string): { status: number; body: unknown } {
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

  private sendApprovalPage(reply: FastifyReply, order: SimOrder) {
    const { unit } = order;
    const approvable = order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED';
    const state = approvable
      ? ''
      : `<p class="notice" role="status">This order is ${escapeHtml(order.status.toLowerCase())}; there is nothing to approve.</p>`;
    const body = `<h1>PayPal simulator</h1>
  <p class="notice">Development only: no money moves. This page stands in for PayPal's checkout window.</p>
  <dl>
    <dt>Item</dt><dd>${escapeHtml(unit.description ?? unit.reference_id)}</dd>
    <dt>Total</dt><dd>${escapeHtml(`${unit.amount.value} ${unit.amount.currency_code}`)}</dd>
    <dt>Order</dt><dd>${escapeHtml(order.id)}</dd>
  </dl>
  ${state}
  <form method="post" action="${escapeHtml(`${this.basePath}/checkoutnow`)}">
    <input type="hidden" name="token" value="${escapeHtml(order.id)}">
    <div class="actions">
      <button class="approve" type="submit" name="action" value="approve"${approvable ? '' : ' disabled'}>Approve</button>
      <button class="cancel" type="submit" name="action" value="cancel">Cancel</button>
    </div>
  </form>`;
    return this.sendHtml(reply, body);
  }

  private sendHtml(reply: FastifyReply, body: string) {
    return sendDevPage(reply, { title: 'PayPal simulator', basePath: this.basePath, body });
  }
}
