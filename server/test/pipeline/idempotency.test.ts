import { randomUUID } from 'node:crypto';
import { jobSchema } from '@roomstager/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { DrawingEngine, FailingEngine, invalidImageError } from './fakes.ts';
import { api, balanceOf, ledgerOf, workerFor, type Client } from './pipeline-helpers.ts';

/** A replayed job submission (same Idempotency-Key) answers the first job and debits once. */
describe.each(databaseKinds)('idempotent job submissions on %s', (kind) => {
  let t: TestApp;
  let alice: Client;
  let a: ReturnType<typeof api>;
  let photo: string;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
    alice = await createSignedInUser(t, { name: 'alice', credits: 100 });
    a = api(t, alice);
    photo = await a.upload();
  });
  afterEach(async () => {
    // Leave no job pending for the next test's worker runs.
    while (await workerFor(t, new DrawingEngine()).runOnce()) {
      // drain
    }
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const keyed = (key: string) => ({ 'idempotency-key': key });
  const jobCount = async () => (await t.container.database.db.select({ n: count() }).from(jobs).where(eq(jobs.userId, alice.id)))[0]?.n ?? 0;
  const usageRows = async (jobId: string) => (await ledgerOf(t, alice.id)).filter((r) => r.jobId === jobId && r.type === 'usage');
  const failAll = async () => {
    while (await workerFor(t, new FailingEngine(invalidImageError)).runOnce()) {
      // drain
    }
  };

  it('answers a replayed creation with the first job (201), without a second debit', async () => {
    const key = randomUUID();
    const body = { originalImageUrl: photo, style: 'modern', userLabel: ' Loft ' };
    const jobsBefore = await jobCount();
    const balance = await balanceOf(t, alice.id);
    const first = await a.createJob(body, keyed(key));
    expect(first.statusCode, first.body).toBe(201);
    const job = jobSchema.parse(first.json());
    // The same request again; an equivalent body (label spacing, the default room type) is the same request.
    for (const again of [body, { ...body, userLabel: 'Loft', roomType: 'living_room' }]) {
      const replay = await a.createJob(again, keyed(key));
      expect(replay.statusCode, replay.body).toBe(201);
      expect(jobSchema.parse(replay.json()).id).toBe(job.id);
    }
    expect(await jobCount()).toBe(jobsBefore + 1);
    expect(await usageRows(job.id)).toHaveLength(1);
    expect(await balanceOf(t, alice.id)).toBe(balance - 1);

    // Without a key every request is a new job, as before.
    expect((await a.createJob(body)).json().id).not.toBe((await a.createJob(body)).json().id);
    expect(await balanceOf(t, alice.id)).toBe(balance - 3);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const key = `key_${randomUUID().slice(0, 8)}`;
    const first = await a.createJob({ originalImageUrl: photo, style: 'modern' }, keyed(key));
    expect(first.statusCode).toBe(201);
    const jobsBefore = await jobCount();
    const balance = await balanceOf(t, alice.id);
    const changed = await a.createJob({ originalImageUrl: photo, style: 'luxury' }, keyed(key));
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/already used for a different request/) });
    // The same key on another call that debits is another request too.
    const regenerate = await a.call('POST', `/api/jobs/${first.json().id}/regenerate`, {}, keyed(key));
    expect(regenerate.statusCode).toBe(422);
    expect(await jobCount()).toBe(jobsBefore);
    expect(await balanceOf(t, alice.id)).toBe(balance);
    // Keys are per user: bob may use the same one.
    const bob = api(t, await createSignedInUser(t, { name: 'bob', credits: 5 }));
    const bobs = await bob.createJob({ originalImageUrl: await bob.upload(), style: 'luxury' }, keyed(key));
    expect(bobs.statusCode).toBe(201);
  });

  it('validates the key: 8-100 letters, digits, "-" or "_"', async () => {
    const jobsBefore = await jobCount();
    for (const bad of ['short', 'x'.repeat(101), 'white space', 'semi;colon']) {
      const res = await a.createJob({ originalImageUrl: photo, style: 'modern' }, keyed(bad));
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(/^Invalid Idempotency-Key header/);
    }
    expect(await jobCount()).toBe(jobsBefore);
  });

  it('makes regenerate idempotent: one new job per key, 201 again on a replay', async () => {
    const source = await a.stage(photo, 'modern');
    const key = randomUUID();
    const balance = await balanceOf(t, alice.id);
    const first = await a.call('POST', `/api/jobs/${source.id}/regenerate`, { style: 'luxury' }, keyed(key));
    expect(first.statusCode).toBe(201);
    const replay = await a.call('POST', `/api/jobs/${source.id}/regenerate`, { style: 'luxury' }, keyed(key));
    expect(replay.statusCode).toBe(201);
    expect(replay.json().id).toBe(first.json().id);
    expect((await a.call('POST', `/api/jobs/${source.id}/regenerate`, { style: 'traditional' }, keyed(key))).statusCode).toBe(422);
    expect(await balanceOf(t, alice.id)).toBe(balance - 1);
  });

  it('makes retry idempotent: a replay answers the job (200) without a debit, even after it failed again', async () => {
    const job = await a.stage(photo, 'modern');
    await failAll();
    const key = randomUUID();
    const balance = await balanceOf(t, alice.id);
    const first = await a.call('POST', `/api/jobs/${job.id}/retry`, undefined, keyed(key));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: job.id, status: 'pending' });
    expect((await a.call('POST', `/api/jobs/${job.id}/retry`, undefined, keyed(key))).statusCode).toBe(200);
    await failAll();
    const late = await a.call('POST', `/api/jobs/${job.id}/retry`, undefined, keyed(key));
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ id: job.id, status: 'failed' });
    expect(await usageRows(job.id)).toHaveLength(2);
    // Refunded once it failed again: the one retry cost nothing in the end, and no other was debited.
    expect(await balanceOf(t, alice.id)).toBe(balance);
    // A new press of Retry (a new key) retries it again.
    expect((await a.call('POST', `/api/jobs/${job.id}/retry`, undefined, keyed(randomUUID()))).json().status).toBe('pending');
    expect(await usageRows(job.id)).toHaveLength(3);
  });

  it.runIf(kind === 'postgres')('creates one job and one debit for 20 concurrent replays', async () => {
    const jobsBefore = await jobCount();
    const balance = await balanceOf(t, alice.id);
    const key = randomUUID();
    const body = { originalImageUrl: photo, style: 'minimalist' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => a.createJob(body, keyed(key))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((r) => r.json().id as string));
    expect(ids.size).toBe(1);
    expect(await jobCount()).toBe(jobsBefore + 1);
    expect(await usageRows([...ids][0] as string)).toHaveLength(1);
    expect(await balanceOf(t, alice.id)).toBe(balance - 1);
  });

  it.runIf(kind === 'postgres')('retries once for 20 concurrent replays of a retry', async () => {
    const job = await a.stage(photo, 'modern');
    await failAll();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => a.call('POST', `/api/jobs/${job.id}/retry`, undefined, keyed(key))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await usageRows(job.id)).toHaveLength(2);
  });
});
