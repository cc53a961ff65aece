import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiJobSchema, webhookEventSchema, webhookSecretResponseSchema } from '@roomstager/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhooksService } from '../../src/domain/webhooks/webhooks.service.ts';
import { createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { FailingEngine, invalidImageError } from '../pipeline/fakes.ts';
import { appCall, drain, newDeveloper, uploadWithKey, v1, type Developer } from './public-api-helpers.ts';

/** The receiver's side, as /docs/api tells a developer to write it. */
function verify(secret: string, header: string, body: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver answering each POST with the next status of `statuses` (then 200). */
async function receiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/roomstager`, received, close: () => new Promise((r) => server.close(() => r())) };
}

const quiet = { info: () => undefined, warn: () => undefined };

describe.each(databaseKinds)('webhooks of API jobs on %s', (kind) => {
  let t: TestApp;
  let dev: Developer;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { API_RATE_LIMIT: '10000' } });
    dev = await newDeveloper(t, { credits: 10 });
    secret = webhookSecretResponseSchema.parse((await appCall(t, dev.cookie, 'GET', '/api/api-keys/webhook-secret')).json()).secret;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function jobWithHook(url: string): Promise<string> {
    const imageId = await uploadWithKey(t, dev.key);
    const res = await v1(t, dev.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern', webhookUrl: url });
    expect(res.statusCode, res.body).toBe(202);
    return apiJobSchema.parse(res.json()).id;
  }

  it('POSTs a signed job.completed and job.failed that the receiver verifies with the account secret', async () => {
    const hook = await receiver();
    try {
      const completed = await jobWithHook(hook.url);
      await drain(t);
      const failed = await jobWithHook(hook.url);
      await drain(t, new FailingEngine(invalidImageError));
      expect(await t.container.webhooks.deliverDue(10, quiet)).toBe(2);
      expect(hook.received).toHaveLength(2);
      for (const { headers, body } of hook.received) {
        expect(headers['content-type']).toBe('application/json');
        expect(verify(secret, String(headers['roomstager-signature']), body)).toBe(true);
        expect(verify('whsec_wrong', String(headers['roomstager-signature']), body)).toBe(false);
        expect(verify(secret, String(headers['roomstager-signature']), body.replace('modern', 'luxury'))).toBe(false);
        expect(headers['roomstager-delivery']).toBe(webhookEventSchema.parse(JSON.parse(body)).id);
      }
      // Sent at once, so in either order.
      const events = hook.received.map((r) => webhookEventSchema.parse(JSON.parse(r.body))).sort((a, b) => a.type.localeCompare(b.type));
      expect(events.map((e) => [e.type, e.data.job.id, e.data.job.status])).toEqual([
        ['job.completed', completed, 'completed'],
        ['job.failed', failed, 'failed'],
      ]);
      expect(events.find((e) => e.type === 'job.completed')?.data.job.stagedImageUrl).toMatch(/^http:\/\/localhost:3000\/api\/v1\/images\//);
      expect((await t.container.webhooks.deliveriesOf(completed)).map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([['delivered', 1, 200]]);
      // Nothing is sent twice.
      expect(await t.container.webhooks.deliverDue(10, quiet)).toBe(0);
    } finally {
      await hook.close();
    }
  });

  it('retries a failing receiver with backoff, logging each attempt, and gives up once the day is over', async () => {
    const hook = await receiver([500, 503]);
    const fast = new WebhooksService(t.container.database.db, { publicOrigin: 'http://localhost:3000', development: true, retryDelaysMs: [100, 200] });
    const lines: string[] = [];
    const log = { info: (_f: object, msg: string) => lines.push(msg), warn: (_f: object, msg: string) => lines.push(msg) };
    try {
      const jobId = await jobWithHook(hook.url);
      await drain(t);
      expect(await fast.deliverDue(10, log)).toBe(1);
      expect(await fast.deliverDue(10, log)).toBe(0); // not due again before its backoff
      await new Promise((r) => setTimeout(r, 150));
      expect(await fast.deliverDue(10, log)).toBe(1);
      await new Promise((r) => setTimeout(r, 250));
      expect(await fast.deliverDue(10, log)).toBe(1);
      expect(hook.received.map((r) => r.headers['roomstager-delivery'])).toEqual(Array(3).fill(hook.received[0]?.headers['roomstager-delivery']));
      expect(hook.received.every((r) => verify(secret, String(r.headers['roomstager-signature']), r.body))).toBe(true);
      expect(lines).toEqual(['webhook attempt failed; retried later', 'webhook attempt failed; retried later', 'webhook delivered']);
      expect((await fast.deliveriesOf(jobId)).map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([['delivered', 3, 200]]);
    } finally {
      await hook.close();
    }

    const down = await receiver(Array(50).fill(500));
    // A "day" of 600 ms: retried every 50 ms until a retry would fall after it.
    const short = new WebhooksService(t.container.database.db, { publicOrigin: 'http://localhost:3000', development: true, retryDelaysMs: [50], maxAgeMs: 600 });
    try {
      const jobId = await jobWithHook(down.url);
      await drain(t);
      for (let i = 0; i < 40 && (await short.deliveriesOf(jobId))[0]?.status === 'pending'; i++) {
        await short.deliverDue(10, quiet);
        await new Promise((r) => setTimeout(r, 60));
      }
      const [delivery] = await short.deliveriesOf(jobId);
      expect(delivery).toMatchObject({ status: 'failed', lastStatusCode: 500, lastError: 'HTTP 500' });
      expect(delivery?.attempts).toBeGreaterThanOrEqual(2);
      expect(down.received).toHaveLength(delivery?.attempts ?? 0);
      expect(await short.deliverDue(10, quiet)).toBe(0);
    } finally {
      await down.close();
    }
  });

  it('takes only https webhook URLs, or http on localhost outside production', async () => {
    const imageId = await uploadWithKey(t, dev.key);
    for (const webhookUrl of ['http://example.com/hook', 'ftp://example.com/hook', 'https://user:pw@example.com/hook']) {
      const res = await v1(t, dev.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern', webhookUrl });
      expect(res.statusCode, webhookUrl).toBeGreaterThanOrEqual(400);
      expect(['WEBHOOK_URL_NOT_ALLOWED', 'BAD_REQUEST']).toContain(res.json().error.code);
    }
    const production = new WebhooksService(t.container.database.db, { publicOrigin: 'https://roomstager.app', development: false });
    expect(() => production.checkUrl('http://localhost:8080/hook')).toThrow('webhookUrl must be an https URL');
    expect(production.checkUrl('https://hooks.example.com/rs')).toBe('https://hooks.example.com/rs');
  });

  it('outside development, refuses at delivery a host that is or resolves to a private address, and records why', async () => {
    const guarded = new WebhooksService(t.container.database.db, { publicOrigin: 'https://roomstager.app', development: false, retryDelaysMs: [60_000] });
    const hook = await receiver();
    try {
      const port = new URL(hook.url).port;
      const literal = await jobWithHook(`https://127.0.0.1:${port}/hook`);
      const named = await jobWithHook(`https://localhost:${port}/hook`);
      const mapped = await jobWithHook(`https://[::ffff:127.0.0.1]:${port}/hook`);
      await drain(t);
      expect(await guarded.deliverDue(10, quiet)).toBe(3);
      expect(hook.received).toEqual([]);
      for (const jobId of [literal, named, mapped]) {
        const [delivery] = await guarded.deliveriesOf(jobId);
        expect(delivery?.status).toBe('pending');
        expect(delivery?.lastError).toMatch(/private or reserved address/);
      }
    } finally {
      await hook.close();
    }
  });
});
