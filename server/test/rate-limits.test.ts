import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { rateLimits, signInAttempts } from '../src/db/schema.ts';
import { RateLimitsService } from '../src/domain/rate-limits/rate-limits.service.ts';
import { SWEEP_BATCH } from '../src/worker/sweeps.ts';
import { createWorker } from '../src/worker/worker.ts';
import { createSignedInUser, createTestApp, databaseKinds, postgresUrl, sameOrigin, type TestApp } from './helpers.ts';

const json = { ...sameOrigin, 'content-type': 'application/json' };

/** An upload the route refuses (400) after counting it: the limit, not the photo, is under test. */
const badUpload = (t: TestApp, cookie: string) =>
  t.app.inject({ method: 'POST', url: '/api/upload', headers: { ...json, cookie }, payload: JSON.stringify({ imageData: '', filename: 'a.jpg' }) });

const signInStart = (t: TestApp, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url: '/api/auth/google', remoteAddress });

/** Where a sign-in route redirected: the path and its error code, if any. */
function landing(res: { headers: Record<string, unknown> }): { path: string; error: string | null } {
  const url = new URL(String(res.headers.location));
  return { path: url.pathname, error: url.searchParams.get('error') };
}

const rowCount = async (t: TestApp) => (await t.container.database.db.select({ n: count() }).from(rateLimits))[0]?.n;

describe.each(databaseKinds)('rate limits counted in the database on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '2', PAYMENT_RATE_LIMIT: '2', SIGN_IN_RATE_LIMIT: '2', JOB_RATE_LIMIT: '2' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts hits in a fixed window per key and starts a new window once it has ended', async () => {
    const { rateLimits: counters } = t.container;
    const first = await counters.hit('window-test', 400);
    expect(first).toEqual({ count: 1, ttlMs: 400 });
    const second = await counters.hit('window-test', 400);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeGreaterThan(0);
    expect(second.ttlMs).toBeLessThanOrEqual(400);
    expect((await counters.hit('other-key', 400)).count).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await counters.hit('window-test', 400)).toEqual({ count: 1, ttlMs: 400 });
  });

  it('answers 429 with retry-after per user and per route, as the in-memory store did', async () => {
    const alice = await createSignedInUser(t, { name: 'alice' });
    const bob = await createSignedInUser(t, { name: 'bob' });
    const order = (cookie: string, url = '/api/paypal/order') => t.app.inject({ method: 'POST', url, headers: { ...json, cookie }, payload: '{}' });
    expect((await order(alice.cookie)).statusCode).toBe(400);
    expect((await order(alice.cookie)).statusCode).toBe(400);
    const limited = await order(alice.cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.stringMatching(/^Too many payment requests/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // Another route with the same bucket name counts on its own, and so does another user.
    expect((await order(alice.cookie, '/api/payments/create-order')).statusCode).toBe(400);
    expect((await order(bob.cookie)).statusCode).toBe(400);

    expect((await badUpload(t, alice.cookie)).statusCode).toBe(400);
    expect((await badUpload(t, alice.cookie)).statusCode).toBe(400);
    const uploads = await badUpload(t, alice.cookie);
    expect(uploads.statusCode).toBe(429);
    expect(uploads.json().message).toMatch(/Too many uploads/);
    expect(Number(uploads.headers['retry-after'])).toBeGreaterThan(0);

    const keys = (await t.container.database.db.select().from(rateLimits)).map((r) => [r.key, r.count]);
    expect(keys).toEqual(
      expect.arrayContaining([
        [`POST /api/paypal/order paypal-order:${alice.id}`, 3],
        [`POST /api/payments/create-order paypal-order:${alice.id}`, 1],
        [`POST /api/upload upload:${alice.id}`, 3],
      ]),
    );
  });

  it('limits job creations, regenerations and retries per user', async () => {
    const alice = await createSignedInUser(t, { name: 'alice' });
    const bob = await createSignedInUser(t, { name: 'bob' });
    // Refused bodies (400) and unknown jobs (404) count: the limit, not the job, is under test.
    const submit = (cookie: string, url = '/api/jobs') => t.app.inject({ method: 'POST', url, headers: { ...json, cookie }, payload: '{}' });
    expect((await submit(alice.cookie)).statusCode).toBe(400);
    expect((await submit(alice.cookie)).statusCode).toBe(400);
    const limited = await submit(alice.cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.stringMatching(/^Too many stagings started\. Please wait \d+ seconds/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(59);
    expect((await submit(bob.cookie)).statusCode).toBe(400);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const action of ['regenerate', 'retry']) {
      const url = `/api/jobs/${missing}/${action}`;
      expect((await submit(alice.cookie, url)).statusCode).toBe(404);
      expect((await submit(alice.cookie, url)).statusCode).toBe(404);
      expect((await submit(alice.cookie, url)).statusCode).toBe(429);
    }
  });

  it('limits sign-in start, callback and return URL each on their own, per client address', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < 2; i++) expect(landing(await signInStart(t, address)).path).toBe('/dev/oidc/authorize');
    expect(landing(await signInStart(t, address))).toEqual({ path: '/login', error: 'RATE_LIMITED' });
    expect(landing(await signInStart(t, '203.0.113.8')).path).toBe('/dev/oidc/authorize');
    const callback = await t.app.inject({ method: 'GET', url: '/api/auth/google/callback?code=x&state=y', remoteAddress: address });
    expect(landing(callback).error).not.toBe('RATE_LIMITED');
    const returnUrl = () => t.app.inject({ method: 'POST', url: '/api/auth/store-return-url', headers: json, payload: '{}', remoteAddress: address });
    expect((await returnUrl()).statusCode).toBe(400);
    expect((await returnUrl()).statusCode).toBe(400);
    expect((await returnUrl()).json()).toMatchObject({ error: 'RATE_LIMITED' });
  });

  it('is swept by the workers once a window has ended, a batch at a time', async () => {
    const { db } = t.container.database;
    await db.delete(rateLimits);
    const ended = Array.from({ length: SWEEP_BATCH + 5 }, (_, i) => ({ key: `ended-${i}`, count: 3, resetsAt: sql`now() - interval '1 second'` }));
    await db.insert(rateLimits).values([...ended, { key: 'live', count: 1, resetsAt: sql`now() + interval '1 minute'` }]);
    const worker = createWorker(t.container, { concurrency: 0 });
    expect(await worker.sweepRateLimits()).toBe(SWEEP_BATCH + 5);
    expect((await db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key)).toEqual(['live']);

    // The running worker's sweep loop does it at start (and every WORKER_SWEEP_MS).
    await db.insert(rateLimits).values({ key: 'ended', count: 1, resetsAt: sql`now() - interval '1 second'` });
    worker.start();
    try {
      await expect.poll(() => rowCount(t), { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.stop();
    }
  });
});

describe('behind one trusted proxy hop (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1', SIGN_IN_RATE_LIMIT: '2' } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** The proxy (the socket peer) appends the address it saw to whatever chain the client sent. */
  const viaProxy = (forwardedFor: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/store-return-url', headers: { ...json, 'x-forwarded-for': forwardedFor }, payload: '{}', remoteAddress: '10.0.0.2' });

  it('keys signed-out limits by the address the proxy saw, whatever chain the client forged', async () => {
    const client = '198.51.100.9';
    expect((await viaProxy(client)).statusCode).toBe(400);
    expect((await viaProxy(`203.0.113.1, ${client}`)).statusCode).toBe(400);
    const forged = await viaProxy(`203.0.113.2, 192.0.2.77, ${client}`);
    expect(forged.statusCode).toBe(429);
    expect(forged.json()).toMatchObject({ error: 'RATE_LIMITED' });
    // Another client behind the same proxy has its own count.
    expect((await viaProxy('198.51.100.10')).statusCode).toBe(400);
    const keys = (await t.container.database.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key).sort();
    expect(keys).toEqual(['sign-in-return-url:198.51.100.10', `sign-in-return-url:${client}`]);
  });
});

describe.each(databaseKinds)('when the rate-limit counters cannot be reached, on %s', (kind) => {
  let t: TestApp;
  let user: { id: string; cookie: string };
  beforeAll(async () => {
    t = await createTestApp({ kind });
    user = await createSignedInUser(t);
    await t.container.database.db.execute(sql`drop table rate_limits`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('fails closed: limited routes refuse the request, and sign-in redirects with its usual failure', async () => {
    expect((await badUpload(t, user.cookie)).statusCode).toBe(500);
    const order = await t.app.inject({ method: 'POST', url: '/api/paypal/order', headers: { ...json, cookie: user.cookie }, payload: '{"amount":9}' });
    expect(order.statusCode).toBe(500);
    expect(order.json()).toEqual({ message: 'Internal server error' });
    const start = await signInStart(t);
    expect(start.statusCode).toBe(302);
    expect(landing(start)).toEqual({ path: '/login', error: 'OAuthSignin' });
    expect(landing(await t.app.inject({ method: 'GET', url: '/api/auth/google/callback?code=x&state=y' }))).toEqual({ path: '/login', error: 'Callback' });
    // Nothing behind the limits ran.
    expect(await t.container.database.db.select().from(signInAttempts)).toEqual([]);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/store-return-url', headers: json, payload: '{"returnTo":"/gallery"}' })).statusCode).toBe(500);
    // Routes without a limit are untouched.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: user.cookie } })).statusCode).toBe(200);
  });
});

describe('RATE_LIMIT_STORE', () => {
  it('is database unless memory is asked for, and nothing else', () => {
    expect(loadConfig({}).RATE_LIMIT_STORE).toBe('database');
    expect(loadConfig({ RATE_LIMIT_STORE: '' }).RATE_LIMIT_STORE).toBe('database');
    expect(loadConfig({ RATE_LIMIT_STORE: 'memory' }).RATE_LIMIT_STORE).toBe('memory');
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE/);
  });

  it('memory keeps the counters in the process: the limits hold, the table stays empty', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_STORE: 'memory', UPLOAD_RATE_LIMIT: '1', SIGN_IN_RATE_LIMIT: '1' } });
    try {
      const user = await createSignedInUser(t);
      expect((await badUpload(t, user.cookie)).statusCode).toBe(400);
      expect((await badUpload(t, user.cookie)).statusCode).toBe(429);
      expect(landing(await signInStart(t)).path).toBe('/dev/oidc/authorize');
      expect(landing(await signInStart(t)).error).toBe('RATE_LIMITED');
      expect(await rowCount(t)).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!postgresUrl)('two server processes on one PostgreSQL', () => {
  const LIMIT = 30;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { UPLOAD_RATE_LIMIT: String(LIMIT), SIGN_IN_RATE_LIMIT: '3' };
    a = await createTestApp({ kind: 'postgres', env });
    b = await createTestApp({ env, joinDatabaseUrl: a.databaseUrl as string });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('share one limit: the requests allowed are spread over both, the next gets 429 with retry-after', async () => {
    const user = await createSignedInUser(a);
    const statuses = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await badUpload(i % 2 ? b : a, user.cookie)).statusCode);
    expect(statuses).toEqual(Array(LIMIT).fill(400));
    for (const app of [a, b]) {
      const limited = await badUpload(app, user.cookie);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/Too many uploads/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    }

    // The window ends (moved to now, as a minute passing would): both processes allow again.
    await a.container.database.db.update(rateLimits).set({ resetsAt: sql`now()` }).where(eq(rateLimits.key, `POST /api/upload upload:${user.id}`));
    expect((await badUpload(b, user.cookie)).statusCode).toBe(400);
    expect((await badUpload(a, user.cookie)).statusCode).toBe(400);
  });

  it('share the sign-in limit per client address', async () => {
    const address = '198.51.100.20';
    expect(landing(await signInStart(a, address)).path).toBe('/dev/oidc/authorize');
    expect(landing(await signInStart(b, address)).path).toBe('/dev/oidc/authorize');
    expect(landing(await signInStart(a, address)).path).toBe('/dev/oidc/authorize');
    expect(landing(await signInStart(b, address))).toEqual({ path: '/login', error: 'RATE_LIMITED' });
    expect(landing(await signInStart(a, address))).toEqual({ path: '/login', error: 'RATE_LIMITED' });
  });

  it('count 50 concurrent requests over both exactly', async () => {
    const user = await createSignedInUser(a);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => badUpload(i % 2 ? b : a, user.cookie)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(LIMIT);
    expect(codes.filter((c) => c === 429)).toHaveLength(50 - LIMIT);
    const [row] = await a.container.database.db.select().from(rateLimits).where(eq(rateLimits.key, `POST /api/upload upload:${user.id}`));
    expect(row?.count).toBe(50);
  });

  it('lose no hit among 400 concurrent ones from two connection pools', async () => {
    const other = await openDatabase({ kind: 'postgres', url: a.databaseUrl as string, poolSize: 20 });
    try {
      const counters = [a.container.rateLimits, new RateLimitsService(other.db)];
      const counts = await Promise.all(Array.from({ length: 400 }, (_, i) => counters[i % 2]?.hit('contended', 60_000)));
      expect(counts.map((c) => c?.count).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    } finally {
      await other.close();
    }
  });
});
