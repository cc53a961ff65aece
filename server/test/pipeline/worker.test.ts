import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import { normaliseEngineOutput } from '../../src/domain/images/image-files.ts';
import { classifyEngineError, FAILURE_MESSAGES } from '../../src/worker/retry-policy.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { b64, DrawingEngine, FailingEngine, FlakyEngine, GatedEngine, HangingEngine, makeJpeg } from './fakes.ts';
import { api, balanceOf, ledgerOf, workerFor, type Client } from './pipeline-helpers.ts';

const stagedFiles = async (t: TestApp) => {
  try {
    return (await readdir(path.join(t.container.config.DATA_DIR, 'images'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
};

describe('engine error classification', () => {
  it('retries only what may pass', () => {
    expect(classifyEngineError(Object.assign(new Error('x'), { status: 503 }), false)).toBe('transient');
    expect(classifyEngineError(Object.assign(new Error('x'), { status: 429 }), false)).toBe('transient');
    expect(classifyEngineError(Object.assign(new Error('x'), { transient: true }), false)).toBe('transient');
    expect(classifyEngineError(Object.assign(new Error('x'), { code: 'ECONNRESET' }), false)).toBe('transient');
    expect(classifyEngineError(Object.assign(new Error('x'), { status: 400 }), false)).toBe('permanent');
    expect(classifyEngineError(new Error('bug'), false)).toBe('permanent');
    expect(classifyEngineError(new Error('aborted'), true)).toBe('timeout');
  });
});

describe.each(databaseKinds)('the worker on %s', (kind) => {
  let t: TestApp;
  let alice: Client;
  let a: ReturnType<typeof api>;
  let photo: string;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000' } });
    alice = await createSignedInUser(t, { name: 'alice', credits: 40 });
    a = api(t, alice);
    photo = await a.upload();
  });
  afterEach(async () => {
    // Nothing is left queued for the next test.
    await t.container.database.db.delete(jobs).where(sql`${jobs.status} in ('pending', 'processing')`);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('retries a transient failure with backoff, then completes, charging once', async () => {
    const before = await a.credits();
    const job = await a.stage(photo);
    const engine = new FlakyEngine(2);
    await workerFor(t, engine, { maxAttempts: 3 }).runOnce();
    const done = await a.job(job.id);
    expect(done.status).toBe('completed');
    expect(engine.calls).toBe(3);
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row?.attempts).toBe(3);
    expect(await a.credits()).toBe(before - 1);
  });

  it('fails for good after the attempt limit, and refunds', async () => {
    const before = await a.credits();
    const job = await a.stage(photo);
    const engine = new FlakyEngine(5);
    await workerFor(t, engine, { maxAttempts: 2 }).runOnce();
    expect(engine.calls).toBe(2);
    expect(await a.job(job.id)).toMatchObject({ status: 'failed', errorMessage: FAILURE_MESSAGES.generic, creditsUsed: 0 });
    expect(await a.credits()).toBe(before);
  });

  it('stops an engine that takes too long, tells the user, and refunds', async () => {
    const before = await a.credits();
    const job = await a.stage(photo);
    await workerFor(t, new HangingEngine(), { engineTimeoutMs: 150 }).runOnce();
    expect(await a.job(job.id)).toMatchObject({ status: 'failed', errorMessage: FAILURE_MESSAGES.timeout });
    const deaf = await a.stage(photo);
    await workerFor(t, new HangingEngine(true), { engineTimeoutMs: 150 }).runOnce();
    expect((await a.job(deaf.id)).status).toBe('failed');
    expect(await a.credits()).toBe(before);
  });

  it('claims higher priority first, then the oldest', async () => {
    const first = await a.stage(photo);
    const second = await a.stage(photo);
    const third = await a.stage(photo);
    await t.container.database.db.update(jobs).set({ priority: 10 }).where(eq(jobs.id, third.id));
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const claimed = await t.container.queue.claim();
      order.push(claimed?.id ?? 'none');
    }
    expect(order).toEqual([third.id, first.id, second.id]);
    expect(await t.container.queue.claim()).toBeNull();
  });

  it('shares the queue among concurrent workers: every job claimed and run exactly once', async () => {
    const user = await createSignedInUser(t, { name: 'many', credits: 20 });
    const u = api(t, user);
    const image = await u.upload();
    const created = [];
    for (let i = 0; i < 16; i++) created.push(await u.stage(image));
    const engine = new DrawingEngine();
    const claimedBy = new Map<string, number>();
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (;;) {
          const job = await t.container.queue.claim();
          if (!job) return;
          claimedBy.set(job.id, (claimedBy.get(job.id) ?? 0) + 1);
          const out = await engine.stage({ image: await makeJpeg(), contentType: 'image/jpeg', style: job.style, roomType: job.roomType, signal: AbortSignal.timeout(5_000) });
          const image = await normaliseEngineOutput(out.image);
          const { id, storageKey } = await t.container.images.storeFiles(image);
          expect(await t.container.queue.complete(job, { variations: [{ id, storageKey, image }], engine: engine.name, engineMs: 1 })).toBe(true);
        }
      }),
    );
    expect(claimedBy.size).toBe(16);
    expect([...claimedBy.values()].every((n) => n === 1)).toBe(true);
    for (const job of created) expect((await u.job(job.id)).status).toBe('completed');
    expect(await balanceOf(t, user.id)).toBe(4);
  });

  it('takes up a job whose lease expired; the first worker finishing late changes nothing', async () => {
    const before = await a.credits();
    const job = await a.stage(photo);
    const slow = new GatedEngine();
    const first = workerFor(t, slow, { leaseMs: 60_000 });
    const firstRun = first.runOnce();
    await slow.started.promise;
    const [held] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(held?.status).toBe('processing');
    // The first worker's lease runs out (as if it had stalled).
    await t.container.database.db.update(jobs).set({ leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(jobs.id, job.id));

    const rescuer = new DrawingEngine();
    expect(await workerFor(t, rescuer).runOnce()).toBe(true);
    const done = await a.job(job.id);
    expect(done.status).toBe('completed');
    const files = await stagedFiles(t);

    slow.gate.resolve();
    await firstRun;
    const after = await a.job(job.id);
    expect(after).toEqual(done);
    expect(await stagedFiles(t)).toBe(files); // the late result was removed again
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row?.attempts).toBe(2);
    expect(await a.credits()).toBe(before - 1);
    expect((await ledgerOf(t, alice.id)).filter((r) => r.jobId === job.id)).toHaveLength(1);
  });

  it('fences every write on the lease token', async () => {
    const job = await a.stage(photo);
    const claimed = await t.container.queue.claim();
    expect(claimed?.id).toBe(job.id);
    if (!claimed) return;
    const stale = { ...claimed, leaseToken: '00000000-0000-4000-8000-000000000000' };
    expect(await t.container.queue.renew(stale)).toBe(false);
    expect(await t.container.queue.fail(stale, 'nope')).toBe(false);
    expect(await t.container.queue.release(stale)).toBe(false);
    expect(await t.container.queue.recordAttempt(stale)).toBeNull();
    const balance = await balanceOf(t, alice.id);
    expect(await t.container.queue.fail(claimed, FAILURE_MESSAGES.generic)).toBe(true);
    expect(await t.container.queue.fail(claimed, FAILURE_MESSAGES.generic)).toBe(false); // once only
    expect(await balanceOf(t, alice.id)).toBe(balance + 1);
  });

  it('lets a processing job be deleted: credit refunded, the late result discarded', async () => {
    const before = await a.credits();
    const files = await stagedFiles(t);
    const job = await a.stage(photo);
    const slow = new GatedEngine();
    const run = workerFor(t, slow).runOnce();
    await slow.started.promise;
    expect((await a.call('DELETE', `/api/jobs/${job.id}`)).statusCode).toBe(204);
    slow.gate.resolve();
    await run;
    expect((await a.call('GET', `/api/jobs/${job.id}`)).statusCode).toBe(404);
    expect(await stagedFiles(t)).toBe(files);
    expect(await a.credits()).toBe(before);
  });

  it('fails a job whose runs keep dying with their workers, and refunds', async () => {
    const before = await a.credits();
    const job = await a.stage(photo);
    await t.container.database.db.update(jobs).set({ attempts: 3 }).where(eq(jobs.id, job.id));
    const engine = new DrawingEngine();
    await workerFor(t, engine, { maxAttempts: 3 }).runOnce();
    expect(engine.calls).toBe(0);
    expect(await a.job(job.id)).toMatchObject({ status: 'failed', errorMessage: FAILURE_MESSAGES.generic });
    expect(await a.credits()).toBe(before);
  });

  it('wakes at once for a job created in its process, and stops gracefully releasing the job in hand', async () => {
    const engine = new DrawingEngine();
    const worker = workerFor(t, engine, { pollMs: 60_000 });
    const unsubscribe = t.container.jobs.onQueued(() => worker.wake());
    worker.start();
    try {
      const started = Date.now();
      const job = await a.stage(photo);
      await expect.poll(async () => (await a.job(job.id)).status, { timeout: 5_000, interval: 20 }).toBe('completed');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await worker.stop(1_000);
      unsubscribe();
    }

    const hanging = new HangingEngine();
    const second = workerFor(t, hanging);
    second.start();
    const job = await a.stage(photo);
    await hanging.started.promise;
    await second.stop(100);
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ status: 'pending', leaseToken: null, attempts: 0 });
  });

  it('runs a job with the test engine it asked for, outside production only', async () => {
    const before = await a.credits();
    const res = await a.createJob({ originalImageUrl: photo, style: 'modern' }, { 'x-test-staging-engine': 'fail' });
    const job = res.json();
    await workerFor(t, new DrawingEngine()).runOnce();
    expect(await a.job(job.id)).toMatchObject({ status: 'failed', errorMessage: FAILURE_MESSAGES.generic });
    expect(await a.credits()).toBe(before);
    const unknown = (await a.createJob({ originalImageUrl: photo, style: 'modern' }, { 'x-test-staging-engine': 'nope' })).json();
    await workerFor(t, new DrawingEngine()).runOnce();
    expect((await a.job(unknown.id)).status).toBe('completed');
  });

  it('does not run a failing engine by header in production', async () => {
    expect(t.container.config.production).toBe(false);
    const prod = await createTestApp({
      kind: 'pglite',
      env: {
        NODE_ENV: 'production',
        GOOGLE_CLIENT_ID: 'id',
        GOOGLE_CLIENT_SECRET: 'secret',
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 'secret',
        PAYPAL_WEBHOOK_ID: 'webhook',
        PUBLIC_URL: 'https://app.example',
      },
    });
    try {
      expect(prod.container.testEngines.size).toBe(0);
      const user = await createSignedInUser(prod, { name: 'p' });
      const image = await prod.container.uploads.upload(user.id, { imageData: b64(await makeJpeg()), filename: 'a.jpg' });
      const res = await prod.app.inject({
        method: 'POST',
        url: '/api/jobs',
        headers: { origin: 'https://app.example', 'content-type': 'application/json', cookie: user.cookie.replace('rs_session', '__Host-rs_session'), 'x-test-staging-engine': 'fail' },
        payload: JSON.stringify({ originalImageUrl: image.imageUrl, style: 'modern' }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await prod.container.database.db.select().from(jobs).where(eq(jobs.id, res.json().id));
      expect(row?.requestedEngine).toBeNull();
    } finally {
      await prod.close();
    }
  });

  it('the failing engine also fails jobs as STAGING_ENGINE=fail', async () => {
    const failing = new FailingEngine();
    const job = await a.stage(photo);
    await workerFor(t, failing).runOnce();
    expect(failing.calls).toBe(1);
    expect((await a.job(job.id)).status).toBe('failed');
  });
});
