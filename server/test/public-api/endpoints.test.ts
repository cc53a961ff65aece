import { randomUUID } from 'node:crypto';
import { MAX_UPLOAD_BYTES, apiAccountSchema, apiErrorSchema, apiImageSchema, apiJobListSchema, apiJobSchema, apiKeysResponseSchema } from '@roomstager/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { b64, FailingEngine, invalidImageError, makeJpeg } from '../pipeline/fakes.ts';
import { balanceOf, ledgerOf } from '../pipeline/pipeline-helpers.ts';
import { appCall, createKey, drain, formBody, grantEnterprise, newDeveloper, refundEnterprise, uploadForm, uploadWithKey, v1, type Developer } from './public-api-helpers.ts';

/** The account's stored images: a refused upload stores none. */
async function imageCount(t: TestApp, userId: string): Promise<number> {
  return (await t.container.database.db.select({ id: images.id }).from(images).where(eq(images.userId, userId))).length;
}

describe.each(databaseKinds)('the public API on %s', (kind) => {
  let t: TestApp;
  let alice: Developer;
  let bob: Developer;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { API_RATE_LIMIT: '10000' } });
    alice = await newDeveloper(t, { name: 'alice', credits: 30 });
    bob = await newDeveloper(t, { name: 'bob', credits: 5 });
  });
  afterAll(async () => {
    expect(await ledgerViolations(t.container.database)).toEqual([]);
    await t?.close();
  });

  it('key lifecycle: only Enterprise buyers create keys; listed by prefix and dates, never the secret; revoked keys are refused', async () => {
    const carol = await createSignedInUser(t, { name: 'carol' });
    const before = await appCall(t, carol.cookie, 'GET', '/api/api-keys');
    expect(apiKeysResponseSchema.parse(before.json())).toEqual({ enabled: false, keys: [] });
    const refused = await appCall(t, carol.cookie, 'POST', '/api/api-keys', { name: 'CI' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ENTERPRISE_REQUIRED', message: 'API access comes with the Enterprise pack.' });

    await grantEnterprise(t, carol.id);
    expect((await appCall(t, carol.cookie, 'POST', '/api/api-keys', { name: '  ' })).statusCode).toBe(400);
    const secret = await createKey(t, carol.cookie, 'CI');
    expect(secret).toMatch(/^rs_live_[A-Za-z0-9_-]{43}$/);
    const listed = apiKeysResponseSchema.parse((await appCall(t, carol.cookie, 'GET', '/api/api-keys')).json());
    expect(listed.enabled).toBe(true);
    expect(listed.keys).toEqual([{ id: expect.any(String), name: 'CI', prefix: secret.slice(0, 16), createdAt: expect.any(String), lastUsedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(16));

    expect((await v1(t, secret, 'GET', '/api/v1/account')).statusCode).toBe(200);
    const used = apiKeysResponseSchema.parse((await appCall(t, carol.cookie, 'GET', '/api/api-keys')).json());
    expect(used.keys[0]?.lastUsedAt).not.toBeNull();

    const keyId = listed.keys[0]?.id ?? '';
    expect((await appCall(t, alice.cookie, 'DELETE', `/api/api-keys/${keyId}`)).statusCode).toBe(404);
    expect((await appCall(t, carol.cookie, 'DELETE', `/api/api-keys/${keyId}`)).statusCode).toBe(204);
    expect((await appCall(t, carol.cookie, 'DELETE', `/api/api-keys/${keyId}`)).statusCode).toBe(404);
    const revoked = await v1(t, secret, 'GET', '/api/v1/account');
    expect(revoked.statusCode).toBe(401);
    expect(apiErrorSchema.parse(revoked.json()).error.code).toBe('INVALID_API_KEY');
    expect(apiKeysResponseSchema.parse((await appCall(t, carol.cookie, 'GET', '/api/api-keys')).json()).keys).toEqual([]);
  });

  it('answers every endpoint to a valid key, and 401 to a missing, unknown or revoked one, in one error shape', async () => {
    const upload = await v1(t, alice.key, 'POST', '/api/v1/images', { imageData: b64(await makeJpeg()), filename: 'room.jpg' });
    const imageId = apiImageSchema.parse(upload.json()).id;
    expect(upload.json().url).toBe(`http://localhost:3000/api/v1/images/${imageId}`);
    const created = await v1(t, alice.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern' });
    expect(created.statusCode, created.body).toBe(202);
    const job = apiJobSchema.parse(created.json());
    expect(job).toMatchObject({ status: 'pending', style: 'modern', roomType: 'living_room', imageId, stagedImageUrl: null, originalImageUrl: `http://localhost:3000/api/v1/images/${imageId}` });

    const revokedKey = await createKey(t, alice.cookie, 'old');
    const keys = apiKeysResponseSchema.parse((await appCall(t, alice.cookie, 'GET', '/api/api-keys')).json()).keys;
    await appCall(t, alice.cookie, 'DELETE', `/api/api-keys/${keys.find((k) => k.name === 'old')?.id}`);

    const calls: Array<[method: 'GET' | 'POST' | 'DELETE', url: string, body: unknown, ok: number]> = [
      ['POST', '/api/v1/images', { imageData: 'x', filename: 'a.jpg' }, 400],
      ['GET', `/api/v1/images/${imageId}`, undefined, 200],
      ['POST', '/api/v1/jobs', { imageId, style: 'luxury' }, 202],
      ['GET', '/api/v1/jobs', undefined, 200],
      ['GET', `/api/v1/jobs/${job.id}`, undefined, 200],
      ['GET', '/api/v1/account', undefined, 200],
      ['DELETE', `/api/v1/jobs/${randomUUID()}`, undefined, 404],
    ];
    for (const [method, url, body, ok] of calls) {
      expect((await v1(t, alice.key, method, url, body)).statusCode, `${method} ${url}`).toBe(ok);
      for (const key of [null, revokedKey, `rs_live_${'A'.repeat(43)}`, 'not-a-key']) {
        const res = await v1(t, key, method, url, body);
        expect(res.statusCode, `${method} ${url} with ${key}`).toBe(401);
        expect(apiErrorSchema.parse(res.json()).error.code).toBe('INVALID_API_KEY');
      }
      // A session cookie is no key: the API never reads it.
      const withCookie = await t.app.inject({ method, url, headers: { cookie: alice.cookie, origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' } });
      expect(withCookie.statusCode, `${method} ${url} with a session`).toBe(401);
    }
    expect((await v1(t, alice.key, 'DELETE', `/api/v1/jobs/${job.id}`)).statusCode).toBe(204);
    expect((await v1(t, alice.key, 'GET', `/api/v1/jobs/${job.id}`)).statusCode).toBe(404);
    expect(apiErrorSchema.parse((await v1(t, alice.key, 'GET', '/api/v1/nothing')).json()).error.code).toBe('NOT_FOUND');
    const invalid = await v1(t, alice.key, 'POST', '/api/v1/jobs', { imageId, style: 'baroque' });
    expect(invalid.statusCode).toBe(400);
    expect(apiErrorSchema.parse(invalid.json()).error).toMatchObject({ code: 'BAD_REQUEST', details: [{ path: 'style' }] });
    await drain(t);
  });

  it("never reaches another account's data: its ids are 404s, and lists and balances are the caller's", async () => {
    const imageId = await uploadWithKey(t, alice.key);
    const job = apiJobSchema.parse((await v1(t, alice.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern' })).json());
    const bobsBalance = await balanceOf(t, bob.id);
    for (const [method, url, body] of [
      ['GET', `/api/v1/images/${imageId}`, undefined],
      ['GET', `/api/v1/jobs/${job.id}`, undefined],
      ['DELETE', `/api/v1/jobs/${job.id}`, undefined],
      ['POST', '/api/v1/jobs', { imageId, style: 'modern' }],
    ] as const) {
      const res = await v1(t, bob.key, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(apiErrorSchema.parse(res.json()).error.code).toBe('NOT_FOUND');
    }
    const bobsJobs = apiJobListSchema.parse((await v1(t, bob.key, 'GET', '/api/v1/jobs')).json());
    expect(bobsJobs.jobs.map((j) => j.id)).not.toContain(job.id);
    expect(apiAccountSchema.parse((await v1(t, bob.key, 'GET', '/api/v1/account')).json())).toEqual({ credits: bobsBalance });
    expect(await balanceOf(t, bob.id)).toBe(bobsBalance);
    expect((await v1(t, alice.key, 'GET', `/api/v1/jobs/${job.id}`)).statusCode).toBe(200);
    await drain(t);
  });

  it('refuses an account whose Enterprise purchase was refunded (403), and one that never bought it', async () => {
    const dave = await createSignedInUser(t, { name: 'dave', credits: 3 });
    const payment = await grantEnterprise(t, dave.id);
    const key = await createKey(t, dave.cookie);
    expect((await v1(t, key, 'GET', '/api/v1/account')).statusCode).toBe(200);
    await refundEnterprise(t, payment);
    const res = await v1(t, key, 'GET', '/api/v1/account');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: { code: 'ENTERPRISE_REQUIRED', message: 'API access comes with the Enterprise pack.' } });
  });

  it('charges one credit per job with the key named in the ledger, refunds a failure once, and serves the result with the same key', async () => {
    const balance = await balanceOf(t, alice.id);
    const imageId = await uploadWithKey(t, alice.key);
    const ok = apiJobSchema.parse((await v1(t, alice.key, 'POST', '/api/v1/jobs', { imageId, style: 'luxury', roomType: 'bedroom' })).json());
    expect(await balanceOf(t, alice.id)).toBe(balance - 1);
    const usage = (await ledgerOf(t, alice.id)).find((r) => r.jobId === ok.id);
    expect(usage).toMatchObject({ type: 'usage', amount: -1, description: `Staging: Luxury (API key "Build server", ${alice.key.slice(0, 16)}...)` });
    await drain(t);
    const done = apiJobSchema.parse((await v1(t, alice.key, 'GET', `/api/v1/jobs/${ok.id}`)).json());
    expect(done.status).toBe('completed');
    expect(done.processingCompletedAt).not.toBeNull();
    const staged = await v1(t, alice.key, 'GET', new URL(done.stagedImageUrl ?? '').pathname);
    expect(staged.statusCode).toBe(200);
    expect(staged.headers['content-type']).toBe('image/jpeg');
    expect((await v1(t, bob.key, 'GET', new URL(done.stagedImageUrl ?? '').pathname)).statusCode).toBe(404);

    const failing = apiJobSchema.parse((await v1(t, alice.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern' })).json());
    await drain(t, new FailingEngine(invalidImageError));
    const failed = apiJobSchema.parse((await v1(t, alice.key, 'GET', `/api/v1/jobs/${failing.id}`)).json());
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toBeTruthy();
    expect((await ledgerOf(t, alice.id)).filter((r) => r.jobId === failing.id).map((r) => r.amount)).toEqual([-1, 1]);
    expect(await balanceOf(t, alice.id)).toBe(balance - 1);
    expect(apiAccountSchema.parse((await v1(t, alice.key, 'GET', '/api/v1/account')).json()).credits).toBe(balance - 1);
  });

  it('makes uploads and job creations idempotent by Idempotency-Key', async () => {
    const key = randomUUID();
    const first = await uploadWithKey(t, alice.key, { 'idempotency-key': key });
    expect(await uploadWithKey(t, alice.key, { 'idempotency-key': key })).toBe(first);
    const other = await v1(t, alice.key, 'POST', '/api/v1/images', { imageData: 'AAAA', filename: 'other.jpg' }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    expect(apiErrorSchema.parse(other.json()).error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const balance = await balanceOf(t, alice.id);
    const body = { imageId: first, style: 'minimalist', webhookUrl: 'https://hooks.example.com/rs' };
    const jobKey = { 'idempotency-key': randomUUID() };
    const a = await v1(t, alice.key, 'POST', '/api/v1/jobs', body, jobKey);
    const b = await v1(t, alice.key, 'POST', '/api/v1/jobs', body, jobKey);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(b.json().id).toBe(a.json().id);
    expect((await v1(t, alice.key, 'POST', '/api/v1/jobs', { ...body, webhookUrl: 'https://hooks.example.com/other' }, jobKey)).statusCode).toBe(422);
    expect((await v1(t, alice.key, 'POST', '/api/v1/jobs', body, { 'idempotency-key': 'bad key' })).statusCode).toBe(400);
    expect(await balanceOf(t, alice.id)).toBe(balance - 1);
    await drain(t);
  });

  it('takes a photo as a multipart form too, refusing a wrong field, a second part, a large or non-image file', async () => {
    const jpeg = await makeJpeg();
    const upload = await uploadForm(t, alice.key, [{ field: 'file', bytes: jpeg, filename: 'kitchen.jpg' }]);
    expect(upload.statusCode, upload.body).toBe(201);
    const { id } = apiImageSchema.parse(upload.json());
    const stored = await v1(t, alice.key, 'GET', `/api/v1/images/${id}`);
    expect([stored.statusCode, stored.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await v1(t, alice.key, 'POST', '/api/v1/jobs', { imageId: id, style: 'modern' })).statusCode).toBe(202);
    await drain(t);

    // The same file and name with one key is one upload, whether sent as a form or as JSON.
    const key = { 'idempotency-key': randomUUID() };
    const first = apiImageSchema.parse((await uploadForm(t, alice.key, [{ field: 'file', bytes: jpeg, filename: 'same.jpg' }], key)).json()).id;
    const asJson = await v1(t, alice.key, 'POST', '/api/v1/images', { imageData: b64(jpeg), filename: 'same.jpg' }, key);
    expect(asJson.json().id).toBe(first);
    expect((await uploadForm(t, alice.key, [{ field: 'file', bytes: jpeg, filename: 'other.jpg' }], key)).statusCode).toBe(422);

    const refusals: Array<[Parameters<typeof uploadForm>[2], number, string]> = [
      [[{ field: 'photo', bytes: jpeg }], 400, 'BAD_REQUEST'],
      [[{ field: 'note', text: 'hello' }, { field: 'file', bytes: jpeg }], 400, 'BAD_REQUEST'],
      [[{ field: 'file', bytes: jpeg }, { field: 'file', bytes: jpeg, filename: 'second.jpg' }], 400, 'BAD_REQUEST'],
      [[{ field: 'file', bytes: Buffer.from('not an image at all') }], 415, 'UNSUPPORTED_IMAGE_TYPE'],
      [[{ field: 'file', bytes: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0xff) }], 413, 'FILE_TOO_LARGE'],
    ];
    const images = await imageCount(t, alice.id);
    for (const [parts, status, code] of refusals) {
      const res = await uploadForm(t, alice.key, parts);
      expect([res.statusCode, apiErrorSchema.parse(res.json()).error.code], res.body).toEqual([status, code]);
    }
    expect(await imageCount(t, alice.id)).toBe(images);
    expect((await uploadForm(t, null, [{ field: 'file', bytes: jpeg }])).statusCode).toBe(401);
    const formToJobs = await t.app.inject({ method: 'POST', url: '/api/v1/jobs', headers: { authorization: `Bearer ${alice.key}`, 'content-type': (await formBody([{ field: 'file', bytes: jpeg }])).contentType }, payload: (await formBody([{ field: 'file', bytes: jpeg }])).payload });
    expect(formToJobs.statusCode).toBe(400);
  });

  it('pages the job list with an opaque cursor, newest first', async () => {
    const erin = await newDeveloper(t, { name: 'erin', credits: 10 });
    const imageId = await uploadWithKey(t, erin.key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await v1(t, erin.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern' })).json().id as string);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await v1(t, erin.key, 'GET', `/api/v1/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = apiJobListSchema.parse(res.json());
      seen.push(...page.jobs.map((j) => j.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await v1(t, erin.key, 'GET', '/api/v1/jobs?cursor=bm9wZQ')).statusCode).toBe(400);
    expect((await v1(t, erin.key, 'GET', '/api/v1/jobs?limit=101')).statusCode).toBe(400);
    await drain(t);
  });

  it('debits exactly once per job when one key creates jobs concurrently: never more jobs than credits', async () => {
    const frank = await newDeveloper(t, { name: 'frank', credits: 6 });
    const imageId = await uploadWithKey(t, frank.key);
    const answers = await Promise.all(Array.from({ length: 16 }, () => v1(t, frank.key, 'POST', '/api/v1/jobs', { imageId, style: 'traditional' })));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 202)).toHaveLength(6);
    expect(codes.filter((c) => c === 402)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 402).map((r) => apiErrorSchema.parse(r.json()).error.code)).toEqual(Array(10).fill('INSUFFICIENT_CREDITS'));
    expect(await balanceOf(t, frank.id)).toBe(0);
    const rows = await ledgerOf(t, frank.id);
    expect(rows.filter((r) => r.type === 'usage')).toHaveLength(6);
    // Concurrent replays of one keyed request: one job, one debit.
    await grantEnterprise(t, frank.id);
    const topUp = await t.container.database.db.transaction((tx) => t.container.credits.record(tx, { userId: frank.id, type: 'grant', amount: 3, description: 'Test balance' }));
    expect(topUp.balance).toBe(3);
    const key = { 'idempotency-key': randomUUID() };
    const replays = await Promise.all(Array.from({ length: 8 }, () => v1(t, frank.key, 'POST', '/api/v1/jobs', { imageId, style: 'modern' }, key)));
    expect(new Set(replays.map((r) => `${r.statusCode} ${r.json().id}`)).size).toBe(1);
    expect(await balanceOf(t, frank.id)).toBe(2);
    await drain(t, new FailingEngine(invalidImageError));
    expect(await balanceOf(t, frank.id)).toBe(9);
  });
});

describe('the public API rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '3' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts every call of a key and says so in RateLimit and RateLimit-Policy; over it, 429 with Retry-After', async () => {
    const dev = await newDeveloper(t);
    const other = await createKey(t, dev.cookie, 'second');
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await v1(t, dev.key, 'GET', '/api/v1/account');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
      seen.push(String(res.headers.ratelimit));
    }
    expect(seen.map((h) => /r=(\d+)/.exec(h)?.[1])).toEqual(['2', '1', '0']);
    const over = await v1(t, dev.key, 'GET', '/api/v1/account');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(apiErrorSchema.parse(over.json()).error.code).toBe('RATE_LIMITED');
    // Per key: the account's other key has its own window.
    expect((await v1(t, other, 'GET', '/api/v1/account')).statusCode).toBe(200);
  });
});
