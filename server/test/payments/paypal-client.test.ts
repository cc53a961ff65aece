import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { centsToValue, PayPalApiError, PayPalClient, valueToCents } from '../../src/integrations/paypal.ts';

/**
 * The PayPal client against a local HTTP fake that answers with response bodies written by hand
 * from PayPal's Orders v2 / OAuth2 / webhooks documentation and the server SDK's types (nothing
 * can be recorded offline).
 */

// POST /v1/oauth2/token (PayPal "Get an access token").
const TOKEN = (n: number) => ({
  scope: 'https://uri.paypal.com/services/invoicing https://uri.paypal.com/services/payments/payment/authcapture',
  access_token: `A21AAFEpH4PsADK7qSS7pSRsgzfENtu-Q1ysgEDVDESseMHBYXVJYE8ovjj68elIDy8nF26AwPhfXTIeWAZHSLIsQkSYz9ifg-${n}`,
  token_type: 'Bearer',
  app_id: 'APP-80W284485P519543T',
  expires_in: 31668,
  nonce: '2020-04-03T15:35:36ZaYZlGvEkV4yVSz8g6bAKFoGSEzuy3CQcz3ljhibkOHg',
});

// POST /v2/checkout/orders with Prefer: return=representation and payment_source.paypal.
const CREATED_ORDER = {
  id: '5O190127TN364715T',
  intent: 'CAPTURE',
  status: 'PAYER_ACTION_REQUIRED',
  payment_source: { paypal: {} },
  purchase_units: [
    {
      reference_id: 'professional',
      amount: { currency_code: 'USD', value: '89.00' },
      payee: { email_address: 'merchant@example.com', merchant_id: 'C7CYMKZDG8D6E' },
      description: 'Professional pack: 50 credits',
      custom_id: '5b1f3c8e-2d1b-4a51-9b6e-1f2a3b4c5d6e',
      invoice_id: '5b1f3c8e-2d1b-4a51-9b6e-1f2a3b4c5d6e',
    },
  ],
  create_time: '2026-11-23T10:00:00Z',
  links: [
    { href: 'https://api.sandbox.paypal.com/v2/checkout/orders/5O190127TN364715T', rel: 'self', method: 'GET' },
    { href: 'https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T', rel: 'payer-action', method: 'GET' },
  ],
};

// POST /v2/checkout/orders/{id}/capture, 201 with Prefer: return=representation.
const CAPTURED_ORDER = {
  id: '5O190127TN364715T',
  status: 'COMPLETED',
  payment_source: {
    paypal: { name: { given_name: 'John', surname: 'Doe' }, email_address: 'customer@example.com', account_id: 'QYR5Z8XDVJNXQ' },
  },
  purchase_units: [
    {
      reference_id: 'professional',
      payments: {
        captures: [
          {
            id: '3C679366HH908993F',
            status: 'COMPLETED',
            amount: { currency_code: 'USD', value: '89.00' },
            final_capture: true,
            seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
            seller_receivable_breakdown: {
              gross_amount: { currency_code: 'USD', value: '89.00' },
              paypal_fee: { currency_code: 'USD', value: '3.60' },
              net_amount: { currency_code: 'USD', value: '85.40' },
            },
            custom_id: '5b1f3c8e-2d1b-4a51-9b6e-1f2a3b4c5d6e',
            links: [
              { href: 'https://api.sandbox.paypal.com/v2/payments/captures/3C679366HH908993F', rel: 'self', method: 'GET' },
              { href: 'https://api.sandbox.paypal.com/v2/payments/captures/3C679366HH908993F/refund', rel: 'refund', method: 'POST' },
            ],
            create_time: '2026-11-23T10:01:00Z',
            update_time: '2026-11-23T10:01:00Z',
          },
        ],
      },
    },
  ],
  payer: { name: { given_name: 'John', surname: 'Doe' }, email_address: 'customer@example.com', payer_id: 'QYR5Z8XDVJNXQ' },
  links: [{ href: 'https://api.sandbox.paypal.com/v2/checkout/orders/5O190127TN364715T', rel: 'self', method: 'GET' }],
};

// 422 errors of the capture call (Orders v2 error reference).
const UNPROCESSABLE = (issue: string, description: string) => ({
  name: 'UNPROCESSABLE_ENTITY',
  details: [{ issue, description }],
  message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  debug_id: 'f3f4a2b1c9d8e',
  links: [{ href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`, rel: 'information_link', method: 'GET' }],
});
const INSTRUMENT_DECLINED = UNPROCESSABLE('INSTRUMENT_DECLINED', "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.");
const ORDER_ALREADY_CAPTURED = UNPROCESSABLE('ORDER_ALREADY_CAPTURED', "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.");
// 401 of an expired token.
const EXPIRED = { error: 'invalid_token', error_description: 'Access Token not found in cache' };
// 5xx.
const INTERNAL = { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error has occurred.', debug_id: '90957fca61718' };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let script: Array<(req: Seen) => Answer | undefined> = [];
let tokensIssued = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      let answer: Answer | undefined;
      if (entry.url === '/v1/oauth2/token') {
        tokensIssued += 1;
        answer = { status: 200, body: TOKEN(tokensIssued) };
      } else {
        const next = script.shift();
        answer = next?.(entry) ?? { status: 500, body: INTERNAL };
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'paypal-debug-id': 'abc123', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
  script = [];
  tokensIssued = 0;
});

const sleeps: number[] = [];
function client(options: { maxRetries?: number } = {}) {
  sleeps.length = 0;
  return new PayPalClient({
    baseUrl,
    clientId: 'client-id',
    clientSecret: 'client-secret',
    backoffMs: 100,
    maxRetries: options.maxRetries ?? 3,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}
const apiCalls = () => seen.filter((s) => s.url !== '/v1/oauth2/token');
const tokenCalls = () => seen.filter((s) => s.url === '/v1/oauth2/token');

describe('PayPal client against PayPal response shapes', () => {
  it('gets a client-credentials token once, then creates an order with a request id and full representation', async () => {
    script = [() => ({ status: 201, body: CREATED_ORDER }), () => ({ status: 200, body: CREATED_ORDER })];
    const paypal = client();
    const order = await paypal.createOrder(
      { intent: 'CAPTURE', purchase_units: [{ reference_id: 'professional', amount: { currency_code: 'USD', value: '89.00' } }] },
      'create-1',
    );
    expect(order.id).toBe('5O190127TN364715T');
    expect(order.links?.find((l) => l.rel === 'payer-action')?.href).toContain('checkoutnow');
    await paypal.getOrder(order.id);

    expect(tokenCalls()).toHaveLength(1);
    const [token] = tokenCalls();
    expect(token?.method).toBe('POST');
    expect(token?.headers.authorization).toBe(`Basic ${Buffer.from('client-id:client-secret').toString('base64')}`);
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(token?.body).toBe('grant_type=client_credentials');

    const [create, get] = apiCalls();
    expect(create).toMatchObject({ method: 'POST', url: '/v2/checkout/orders' });
    expect(create?.headers.authorization).toBe(`Bearer ${TOKEN(1).access_token}`);
    expect(create?.headers['paypal-request-id']).toBe('create-1');
    expect(create?.headers.prefer).toBe('return=representation');
    expect(JSON.parse(create?.body ?? '')).toMatchObject({ intent: 'CAPTURE' });
    expect(get).toMatchObject({ method: 'GET', url: '/v2/checkout/orders/5O190127TN364715T' });
  });

  it('shares one token fetch between concurrent calls', async () => {
    script = Array.from({ length: 5 }, () => () => ({ status: 200, body: CAPTURED_ORDER }));
    const paypal = client();
    await Promise.all(Array.from({ length: 5 }, () => paypal.getOrder('5O190127TN364715T')));
    expect(tokenCalls()).toHaveLength(1);
    expect(apiCalls()).toHaveLength(5);
  });

  it('captures: COMPLETED with the capture details', async () => {
    script = [() => ({ status: 201, body: CAPTURED_ORDER })];
    const order = await client().captureOrder('5O190127TN364715T', 'capture-1');
    const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
    expect(capture).toMatchObject({ id: '3C679366HH908993F', status: 'COMPLETED', amount: { currency_code: 'USD', value: '89.00' } });
    expect(apiCalls()[0]).toMatchObject({ method: 'POST', url: '/v2/checkout/orders/5O190127TN364715T/capture' });
    expect(apiCalls()[0]?.headers['paypal-request-id']).toBe('capture-1');
    expect(apiCalls()[0]?.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['INSTRUMENT_DECLINED', INSTRUMENT_DECLINED],
    ['ORDER_ALREADY_CAPTURED', ORDER_ALREADY_CAPTURED],
  ])('surfaces %s as a PayPalApiError with the issue and debug id, without retrying', async (issue, body) => {
    script = [() => ({ status: 422, body })];
    const error = await client()
      .captureOrder('5O190127TN364715T', 'capture-2')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalApiError);
    expect(error).toMatchObject({ status: 422, errorName: 'UNPROCESSABLE_ENTITY', issue, debugId: 'f3f4a2b1c9d8e' });
    expect(apiCalls()).toHaveLength(1);
  });

  it('renews an expired token once on 401 and retries the call', async () => {
    script = [() => ({ status: 401, body: EXPIRED }), () => ({ status: 201, body: CAPTURED_ORDER })];
    const paypal = client();
    const order = await paypal.captureOrder('5O190127TN364715T', 'capture-3');
    expect(order.status).toBe('COMPLETED');
    expect(tokenCalls()).toHaveLength(2);
    const [first, second] = apiCalls();
    expect(first?.headers.authorization).toBe(`Bearer ${TOKEN(1).access_token}`);
    expect(second?.headers.authorization).toBe(`Bearer ${TOKEN(2).access_token}`);
    // The retried capture keeps its idempotency key.
    expect(second?.headers['paypal-request-id']).toBe('capture-3');
  });

  it('gives up after one renewal when PayPal keeps answering 401', async () => {
    script = [() => ({ status: 401, body: EXPIRED }), () => ({ status: 401, body: EXPIRED })];
    const error = await client()
      .getOrder('5O190127TN364715T')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, issue: 'invalid_token' });
    expect(tokenCalls()).toHaveLength(2);
    expect(apiCalls()).toHaveLength(2);
  });

  it('retries 5xx with exponential backoff and the same PayPal-Request-Id', async () => {
    script = [() => ({ status: 500, body: INTERNAL }), () => ({ status: 503, body: INTERNAL }), () => ({ status: 201, body: CAPTURED_ORDER })];
    const order = await client().captureOrder('5O190127TN364715T', 'capture-4');
    expect(order.status).toBe('COMPLETED');
    expect(apiCalls().map((c) => c.headers['paypal-request-id'])).toEqual(['capture-4', 'capture-4', 'capture-4']);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(100);
    expect(sleeps[0]).toBeLessThan(121);
    expect(sleeps[1]).toBeGreaterThanOrEqual(200);
    expect(sleeps[1]).toBeLessThan(241);
  });

  it('honours Retry-After on 429, and fails with the status after the last retry', async () => {
    script = [() => ({ status: 429, body: { name: 'RATE_LIMIT_REACHED', message: 'Too many requests.' }, headers: { 'retry-after': '2' } }), () => ({ status: 200, body: CAPTURED_ORDER })];
    await client().getOrder('5O190127TN364715T');
    expect(sleeps).toEqual([2000]);

    script = [() => ({ status: 502, body: INTERNAL }), () => ({ status: 502, body: INTERNAL }), () => ({ status: 502, body: INTERNAL })];
    const error = await client({ maxRetries: 2 })
      .getOrder('5O190127TN364715T')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, errorName: 'INTERNAL_SERVER_ERROR', debugId: '90957fca61718' });
    expect(sleeps).toHaveLength(2);
  });

  it('refuses an answer that does not have the documented shape', async () => {
    script = [() => ({ status: 201, body: { status: 'COMPLETED' } })];
    await expect(client().captureOrder('X', 'capture-5')).rejects.toMatchObject({ status: 502, message: expect.stringContaining('unexpected shape') });
  });

  it('does not follow redirects', async () => {
    script = [() => ({ status: 302, headers: { location: 'https://evil.example/steal' } })];
    await expect(client().getOrder('5O190127TN364715T')).rejects.toMatchObject({ status: 302 });
    expect(apiCalls()).toHaveLength(1);
  });

  it('fails cleanly when PayPal cannot be reached', async () => {
    const paypal = new PayPalClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'a', clientSecret: 'b', maxRetries: 1, sleep: async () => undefined });
    await expect(paypal.getOrder('X')).rejects.toMatchObject({ status: 0, message: expect.stringContaining('PayPal unreachable') });
  });

  it('verifies a webhook with the event bytes spliced in unchanged', async () => {
    script = [() => ({ status: 200, body: { verification_status: 'SUCCESS' } }), () => ({ status: 200, body: { verification_status: 'FAILURE' } })];
    const raw = '{\n  "id": "WH-2WR32451HC0233532-67976317FL4543714",\n  "event_type": "PAYMENT.CAPTURE.COMPLETED",\n  "resource": { "amount": { "value": "89.0" }, "x": {} }\n}';
    const transmission = {
      authAlgo: 'SHA256withRSA',
      certUrl: 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270',
      transmissionId: '103e3700-8b0c-11e9-8b8d-3f6d5b1a8d33',
      transmissionSig: 'Yt6p6kXXJEz4/ue1Cz8fyZ4h7/5M5i8iI+pH2Nlh0o3Vf7Q==',
      transmissionTime: '2026-11-23T10:02:00Z',
    };
    const paypal = client();
    expect(await paypal.verifyWebhookSignature(transmission, 'WH-ID-1', raw)).toBe(true);
    expect(await paypal.verifyWebhookSignature(transmission, 'WH-ID-1', raw)).toBe(false);
    const [call] = apiCalls();
    expect(call).toMatchObject({ method: 'POST', url: '/v1/notifications/verify-webhook-signature' });
    expect(call?.body.endsWith(`"webhook_event":${raw}}`)).toBe(true);
    expect(JSON.parse(call?.body ?? '')).toMatchObject({
      auth_algo: transmission.authAlgo,
      cert_url: transmission.certUrl,
      transmission_id: transmission.transmissionId,
      transmission_sig: transmission.transmissionSig,
      transmission_time: transmission.transmissionTime,
      webhook_id: 'WH-ID-1',
    });
  });

  it('converts money as exact decimal strings', () => {
    expect(centsToValue(8900)).toBe('89.00');
    expect(centsToValue(1905)).toBe('19.05');
    expect(valueToCents('89.00')).toBe(8900);
    expect(valueToCents('89')).toBe(8900);
    expect(valueToCents('89.5')).toBe(8950);
    for (const bad of ['89.001', '-89.00', '1e3', '', '89,00', ' 89.00']) expect(valueToCents(bad)).toBeNull();
  });
});
