import { z } from 'zod';

const moneySchema = z.looseObject({ currency_code: z.string(), value: z.string() });

const linkSchema = z.looseObject({ href: z.string(), rel: z.string(), method: z.string().optional() });

export const paypalCaptureSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  status_details: z.looseObject({ reason: z.string().optional() }).optional(),
  amount: moneySchema.optional(),
  custom_id: z.string().optional(),
  invoice_id: z.string().optional(),
  final_capture: z.boolean().optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
  supplementary_data: z
    .looseObject({ related_ids: z.looseObject({ order_id: z.string().optional() }).optional() })
    .optional(),
  links: z.array(linkSchema).optional(),
});
export type PayPalCapture = z.infer<typeof paypalCaptureSchema>;

/** A refund of a capture; `total_refunded_amount` is PayPal's running total over all refunds of it. */
export const paypalRefundSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  amount: moneySchema.optional(),
  custom_id: z.string().optional(),
  seller_payable_breakdown: z.looseObject({ total_refunded_amount: moneySchema.optional() }).optional(),
  links: z.array(linkSchema).optional(),
});
export type PayPalRefund = z.infer<typeof paypalRefundSchema>;

const purchaseUnitSchema = z.looseObject({
  reference_id: z.string().optional(),
  custom_id: z.string().optional(),
  invoice_id: z.string().optional(),
  description: z.string().optional(),
  amount: moneySchema.optional(),
  payments: z.looseObject({ captures: z.array(paypalCaptureSchema).optional() }).optional(),
});

export const paypalOrderSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  intent: z.string().optional(),
  purchase_units: z.array(purchaseUnitSchema).optional(),
  links: z.array(linkSchema).optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
});
export type PayPalOrder = z.infer<typeof paypalOrderSchema>;

const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
});

const verifySchema = z.looseObject({ verification_status: z.string() });

/** PayPal's error body (`name`, `message`, `debug_id`, `details[{issue, description}]`), OAuth errors too. */
const errorBodySchema = z.looseObject({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z.array(z.looseObject({ issue: z.string().optional(), description: z.string().optional() })).optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** A PayPal answer that is not a success, or that does not have the documented shape. */
export class PayPalApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 for network failures and timeouts. */
    readonly status: number,
    /** PayPal's error name (UNPROCESSABLE_ENTITY, RESOURCE_NOT_FOUND...). */
    readonly errorName: string | undefined,
    /** The first `details[].issue` (INSTRUMENT_DECLINED, ORDER_ALREADY_CAPTURED, ORDER_NOT_APPROVED...). */
    readonly issue: string | undefined,
    readonly debugId: string | undefined,
  ) {
    super(message);
    this.name = 'PayPalApiError';
  }
}

export interface CreateOrderBody {
  intent: 'CAPTURE';
  purchase_units: Array<{
    reference_id?: string;
    custom_id?: string;
    invoice_id?: string;
    description?: string;
    amount: { currency_code: string; value: string };
  }>;
  payment_source?: {
    paypal?: {
      experience_context?: {
        brand_name?: string;
        shipping_preference?: 'NO_SHIPPING' | 'GET_FROM_FILE' | 'SET_PROVIDED_ADDRESS';
        user_action?: 'PAY_NOW' | 'CONTINUE';
        return_url?: string;
        cancel_url?: string;
      };
    };
  };
}

/** The transmission headers PayPal signs a webhook delivery with. */
export interface WebhookTransmission {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
}

export interface PayPalClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** Retries after a 5xx, 429 or network error (default 3). */
  maxRetries?: number;
  /** First backoff; doubled each retry, with jitter (default 300 ms). */
  backoffMs?: number;
  /** One request's timeout (default 20 s). */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Renew the token this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

interface RequestOptions {
  body?: string;
  requestId?: string;
  prefer?: string;
}

/**
 * A thin client for the PayPal REST calls RoomStager makes (Orders v2 and webhook
 * verification), on `fetch` with zod at the edge:
 * - OAuth2 client-credentials token, cached until shortly before it expires, fetched once for
 *   concurrent callers, renewed once when PayPal answers 401;
 * - create, get and capture order, get capture and refund, create and capture with a `PayPal-Request-Id` so that a
 *   retried call is never a second order or a second capture;
 * - verify-webhook-signature, with the event's raw bytes spliced in (re-serialising changes them
 *   and verification then fails);
 * - 5xx, 429 and network errors retried with exponential backoff (same request id); redirects
 *   are never followed; secrets and tokens are never logged.
 */
export class PayPalClient {
  private token: { value: string; expiresAt: number } | undefined;
  private tokenPromise: Promise<string> | undefined;
  private readonly fetchFn: typeof fetch;
  private readonly maxRetries: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly baseUrl: string;

  constructor(private readonly options: PayPalClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffMs = options.backoffMs ?? 300;
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** `POST /v2/checkout/orders` (full representation). */
  async createOrder(body: CreateOrderBody, requestId: string): Promise<PayPalOrder> {
    const json = await this.call('POST', '/v2/checkout/orders', {
      body: JSON.stringify(body),
      requestId,
      prefer: 'return=representation',
    });
    return parse(paypalOrderSchema, json, 'order');
  }

  /** `GET /v2/checkout/orders/{id}`. */
  async getOrder(orderId: string): Promise<PayPalOrder> {
    const json = await this.call('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
    return parse(paypalOrderSchema, json, 'order');
  }

  /** `POST /v2/checkout/orders/{id}/capture` (full representation, so the capture's amount is there). */
  async captureOrder(orderId: string, requestId: string): Promise<PayPalOrder> {
    const json = await this.call('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {
      body: '{}',
      requestId,
      prefer: 'return=representation',
    });
    return parse(paypalOrderSchema, json, 'order');
  }

  /** `GET /v2/payments/captures/{id}`: the capture as it is now (refunded, reversed...). */
  async getCapture(captureId: string): Promise<PayPalCapture> {
    const json = await this.call('GET', `/v2/payments/captures/${encodeURIComponent(captureId)}`);
    return parse(paypalCaptureSchema, json, 'capture');
  }

  /** `GET /v2/payments/refunds/{id}`. */
  async getRefund(refundId: string): Promise<PayPalRefund> {
    const json = await this.call('GET', `/v2/payments/refunds/${encodeURIComponent(refundId)}`);
    return parse(paypalRefundSchema, json, 'refund');
  }

  /**
   * `POST /v1/notifications/verify-webhook-signature`. `rawEvent` is the delivery's body exactly
   * as received; it is spliced into the request unchanged. True only for SUCCESS.
   */
  async verifyWebhookSignature(transmission: WebhookTransmission, webhookId: string, rawEvent: string): Promise<boolean> {
    const head = JSON.stringify({
      auth_algo: transmission.authAlgo,
      cert_url: transmission.certUrl,
      transmission_id: transmission.transmissionId,
      transmission_sig: transmission.transmissionSig,
      transmission_time: transmission.transmissionTime,
      webhook_id: webhookId,
    });
    const body = `${head.slice(0, -1)},"webhook_event":${rawEvent}}`;
    const json = await this.call('POST', '/v1/notifications/verify-webhook-signature', { body });
    return parse(verifySchema, json, 'verification').verification_status === 'SUCCESS';
  }

  /** Forgets the cached token (tests; after rotating credentials). */
  forgetToken(): void {
    this.token = undefined;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    this.tokenPromise ??= this.fetchToken().finally(() => {
      this.tokenPromise = undefined;
    });
    return this.tokenPromise;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const res = await this.send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const json = await readJson(res);
    if (!res.ok) throw errorFrom(res.status, json, 'token');
    const token = parse(tokenSchema, json, 'token');
    const lifetime = Math.max(0, token.expires_in * 1000 - TOKEN_MARGIN_MS);
    this.token = { value: token.access_token, expiresAt: Date.now() + lifetime };
    return token.access_token;
  }

  /** One API call: bearer token (renewed once on 401), JSON in and out. */
  private async call(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<unknown> {
    let renewed = false;
    for (;;) {
      const token = await this.accessToken();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.requestId) headers['paypal-request-id'] = options.requestId;
      if (options.prefer) headers.prefer = options.prefer;
      const res = await this.send(path, { method, headers, body: options.body });
      const json = await readJson(res);
      if (res.status === 401 && !renewed) {
        // The cached token expired or was revoked early: one fresh token, one more try.
        renewed = true;
        this.token = undefined;
        continue;
      }
      if (!res.ok) throw errorFrom(res.status, json, path);
      return json;
    }
  }

  /** fetch with a timeout, no redirects, and retries with backoff on 5xx, 429 and network errors. */
  private async send(path: string, init: { method: string; headers: Record<string, string>; body?: string | undefined }): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let res: Response | undefined;
      let failure: unknown;
      try {
        res = await this.fetchFn(`${this.baseUrl}${path}`, {
          method: init.method,
          headers: init.headers,
          body: init.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        failure = err;
      }
      const retryable = res === undefined || res.status >= 500 || res.status === 429;
      if (!retryable && res) return res;
      if (attempt >= this.maxRetries) {
        if (res) return res;
        throw new PayPalApiError(`PayPal unreachable: ${failure instanceof Error ? failure.message : String(failure)}`, 0, undefined, undefined, undefined);
      }
      if (res) await res.body?.cancel().catch(() => undefined);
      const retryAfter = Number(res?.headers.get('retry-after'));
      const backoff = this.backoffMs * 2 ** attempt;
      const delay = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 30_000) : backoff + Math.random() * backoff * 0.2;
      await this.sleep(delay);
    }
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorFrom(status: number, json: unknown, what: string): PayPalApiError {
  const body = errorBodySchema.safeParse(json ?? {});
  const data = body.success ? body.data : {};
  const issue = data.details?.find((d) => d.issue)?.issue ?? data.error;
  const message = `PayPal ${what} failed with ${status}${data.name ? ` ${data.name}` : ''}${issue ? ` (${issue})` : ''}`;
  return new PayPalApiError(message, status, data.name, issue, data.debug_id);
}

function parse<S extends z.ZodType>(schema: S, json: unknown, what: string): z.output<S> {
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new PayPalApiError(`PayPal ${what} answer has an unexpected shape: ${result.error.issues[0]?.message ?? ''}`, 502, undefined, undefined, undefined);
  }
  return result.data;
}

/** Decimal string of whole cents ("89.00"); PayPal amounts are compared as strings/integers, never floats. */
export function centsToValue(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "89.00" / "89" / "89.5" -> 8900 / 8900 / 8950; null for anything else. */
export function valueToCents(value: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
