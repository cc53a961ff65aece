import { randomBytes, randomUUID } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { sendDevPage } from '../dev-page.ts';
import { approvalPageBody, PAGE_BODIES, STYLESHEET } from './approval-page.ts';
import { AUTH_ALGO, constantTimeEqual, paypalError, paypalId, SimulatedPayPal, TOKEN_TTL_S, UNPROCESSABLE, type CaptureOutcome, type Result, type SimOrder } from './state.ts';

export { SIMULATOR_WEBHOOK_ID, type CaptureOutcome } from './state.ts';

export interface WebhookDelivery {
  headers: Record<string, string>;
  /** The body exactly as PayPal would send it (pretty-printed, so re-serialising it changes it). */
  body: string;
  event: { id: string; event_type: string; resource: Record<string, unknown> };
}

/**
 * The development stand-in for PayPal: mounted under /dev/paypal when the app runs outside
 * production without PAYPAL_CLIENT_ID/SECRET. This is its HTTP side: the REST wire format of the
 * calls the app makes (OAuth2 token, Orders v2 create/get/capture with PayPal-Request-Id
 * idempotency and `Prefer`, Payments v2 get capture and get refund, verify-webhook-signature),
 * answered from the state machine in state.ts, which behaves as PayPal does where it matters;
 * and the approval page (approval-page.ts, the `approve` link) in place of PayPal's checkout window.
 *
 * Tests drive what PayPal decides: `nextCapture('PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED')`,
 * `approve(orderId)`, `voidOrder(orderId)`, `rejectConcurrentDuplicates(holdMs)`, and signed
 * webhook deliveries (`completeCapture`, `refundCapture`, `webhookDelivery`) to POST to
 * /api/paypal/webhook. Deliveries are signed with a secret of this
 * process (HMAC instead of PayPal's certificate), checked by its verify-webhook-signature.
 */
export class PayPalSimulator {
  readonly clientId = 'roomstager-simulator';
  /** Generated at start, known only to this process. */
  readonly clientSecret = randomBytes(24).toString('base64url');
  /** PayPal's side: orders, captures, refunds, tokens, signatures (state.ts). */
  private readonly state: SimulatedPayPal;
  private readonly idempotent = new Map<string, Result>();
  /** Idempotent calls still running; with `holdMs` set, a second call with the same key is refused meanwhile. */
  private readonly inFlight = new Set<string>();
  private holdMs: number | undefined;
  private readonly basePath: string;
  private app: FastifyInstance | undefined;

  /** `baseUrl`: where the simulator is reachable, e.g. http://localhost:3000/dev/paypal. */
  constructor(readonly baseUrl: string) {
    this.basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
    this.state = new SimulatedPayPal(baseUrl);
  }

  get webhookId(): string {
    return this.state.webhookId;
  }

  get description(): string {
    return `PayPal simulator (stand-in) at ${this.basePath}`;
  }

  // ---- test controls ------------------------------------------------------------------------

  /** What the next capture decides (queued; COMPLETED when the queue is empty). */
  nextCapture(outcome: CaptureOutcome): void {
    this.state.nextCapture(outcome);
  }

  /** The buyer approves the order (what the Approve button does). */
  approve(orderId: string): void {
    this.state.approve(orderId);
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
    this.state.voidOrder(orderId);
  }

  /** Makes every issued access token invalid (PayPal then answers 401). */
  expireTokens(): void {
    this.state.expireTokens();
  }

  order(orderId: string): Readonly<SimOrder> | undefined {
    return this.state.order(orderId);
  }

  /** PayPal completes a PENDING capture: the capture turns COMPLETED; answers the signed event. */
  completeCapture(orderId: string): WebhookDelivery {
    return this.webhookDelivery('PAYMENT.CAPTURE.COMPLETED', this.state.completeCapture(orderId), 'capture');
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
    return this.webhookDelivery(eventType, this.state.refundCapture(orderId, value), 'refund');
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
      'paypal-cert-url': this.state.certUrl,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': this.state.signature(transmissionId, transmissionTime, webhookId, body),
    };
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
        const token = this.state.issueToken();
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
        return this.idempotently(req, reply, () => this.state.createOrder(parseJson(req)));
      });

      scope.get<{ Params: { id: string } }>(`${base}/v2/checkout/orders/:id`, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.sendResult(reply, this.state.getOrder(req.params.id));
      });

      scope.post<{ Params: { id: string } }>(`${base}/v2/checkout/orders/:id/capture`, exempt, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.idempotently(req, reply, () => this.state.capture(req.params.id, parseJson(req)));
      });

      scope.get<{ Params: { id: string } }>(`${base}/v2/payments/captures/:id`, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.sendResult(reply, this.state.getCapture(req.params.id));
      });

      scope.get<{ Params: { id: string } }>(`${base}/v2/payments/refunds/:id`, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.sendResult(reply, this.state.getRefund(req.params.id));
      });

      scope.post(`${base}/v1/notifications/verify-webhook-signature`, exempt, async (req, reply) => {
        if (!this.authorized(req)) return this.unauthorized(reply);
        return this.sendResult(reply, this.state.verify(typeof req.body === 'string' ? req.body : ''));
      });

      // The buyer's side: PayPal's checkout window.
      scope.get<{ Querystring: { token?: string } }>(`${base}/checkoutnow`, async (req, reply) => {
        const order = this.state.order(String(req.query.token ?? ''));
        if (!order) return this.sendHtml(reply.code(404), PAGE_BODIES.missing);
        return this.sendHtml(reply, approvalPageBody(order, this.basePath));
      });

      scope.post(`${base}/checkoutnow`, exempt, async (req, reply) => {
        const form = (req.body ?? {}) as Record<string, unknown>;
        const order = this.state.order(typeof form.token === 'string' ? form.token : '');
        if (!order) return this.sendHtml(reply.code(404), PAGE_BODIES.missing);
        if (form.action === 'approve') {
          this.state.approve(order.id);
          if (order.returnUrl) {
            const target = new URL(order.returnUrl);
            target.searchParams.set('token', order.id);
            target.searchParams.set('PayerID', order.payerId ?? '');
            return reply.redirect(target.href, 303);
          }
          return this.sendHtml(reply, PAGE_BODIES.approved);
        }
        if (order.cancelUrl) {
          const target = new URL(order.cancelUrl);
          target.searchParams.set('token', order.id);
          return reply.redirect(target.href, 303);
        }
        return this.sendHtml(reply, PAGE_BODIES.cancelled);
      });
    });
  }

  private authorized(req: FastifyRequest): boolean {
    const auth = req.headers.authorization ?? '';
    return auth.startsWith('Bearer ') && this.state.tokenValid(auth.slice(7));
  }

  private unauthorized(reply: FastifyReply) {
    return reply.code(401).send({ error: 'invalid_token', error_description: 'Token signature verification failed' });
  }

  /** PayPal-Request-Id: the same key on the same call answers the first answer again. */
  private async idempotently(req: FastifyRequest, reply: FastifyReply, run: () => Result) {
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

  private sendResult(reply: FastifyReply, result: Result, representation = true) {
    let body = result.body;
    if (!representation && result.status < 300 && body && typeof body === 'object') {
      const full = body as Record<string, unknown>;
      body = { id: full.id, status: full.status, links: full.links };
    }
    return reply.code(result.status).header('Cache-Control', 'no-store').header('paypal-debug-id', randomBytes(7).toString('hex')).send(body);
  }

  private sendHtml(reply: FastifyReply, body: string) {
    return sendDevPage(reply, { title: 'PayPal simulator', basePath: this.basePath, body });
  }
}

/** The request's JSON object body; {} when there is none, undefined when it is not a JSON object. */
function parseJson(req: FastifyRequest): Record<string, unknown> | undefined {
  if (typeof req.body !== 'string' || !req.body) return {};
  try {
    const value = JSON.parse(req.body) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
