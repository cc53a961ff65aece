import { jobSchema, MAX_VARIATIONS_PER_JOB, type Job } from '@roomstager/contracts';
import { eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, jobs } from '../../src/db/schema.ts';
import type { StageInput, StageOutput } from '../../src/staging/engine.ts';
import { imageKey } from '../../src/storage/keys.ts';
import { normaliseEngineOutput } from '../../src/domain/images/image-files.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { DrawingEngine, makeJpeg } from '../pipeline/fakes.ts';
import { api, balanceOf, ledgerOf, workerFor } from '../pipeline/pipeline-helpers.ts';

/** Draws as DrawingEngine does, paid per image as a remote provider is. */
class PaidDrawingEngine extends DrawingEngine {
  override readonly name = 'paid-drawing';
  readonly chargesPerImage = true;
  asked: Array<number | undefined> = [];
  override stage(input: StageInput): Promise<StageOutput> {
    this.asked.push(input.variations);
    return super.stage(input);
  }
}

/** A paid engine whose runs fail for good. */
class PaidFailingEngine extends DrawingEngine {
  override readonly name = 'paid-failing';
  readonly chargesPerImage = true;
  override stage(): Promise<StageOutput> {
    return Promise.reject(new Error('the provider refused'));
  }
}

const imageIdOf = (url: string) => url.split('/').pop() as string;

describe.each(databaseKinds)('more variations of a staging by an engine paid per image, on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const runAll = async (engine: DrawingEngine = new PaidDrawingEngine()) => {
    const worker = workerFor(t, engine);
    while (await worker.runOnce());
    return engine;
  };

  /** A user with `credits` left after a completed staging by `engine`. */
  async function stagedJob(credits: number, engine: DrawingEngine = new PaidDrawingEngine(), headers: Record<string, string> = {}) {
    const user = await createSignedInUser(t, { credits: credits + 1 });
    const a = api(t, user);
    const created = await a.createJob({ originalImageUrl: await a.upload(), style: 'luxury', userLabel: 'Den' }, headers);
    expect(created.statusCode, created.body).toBe(201);
    await runAll(engine);
    const job = await a.job(created.json().id as string);
    expect(job.status).toBe('completed');
    expect(await balanceOf(t, user.id)).toBe(credits);
    return { user, a, job };
  }

  const ask = (a: ReturnType<typeof api>, jobId: string, headers: Record<string, string> = {}) => a.call('POST', `/api/jobs/${jobId}/variations`, undefined, headers);

  it('debits one credit with one ledger row, and adds the result to the staging as a further variation, its choice unchanged', async () => {
    const engine = new PaidDrawingEngine();
    const { user, a, job } = await stagedJob(2, engine);
    expect(engine.asked).toEqual([1]);
    expect(job.variations).toHaveLength(1);
    expect(job.moreVariations).toEqual({ allowed: true, pending: 0, refunded: 0 });
    const ledgerBefore = await ledgerOf(t, user.id);

    const res = await ask(a, job.id);
    expect(res.statusCode, res.body).toBe(202);
    const answered = jobSchema.parse(res.json());
    expect(answered).toMatchObject({ id: job.id, variations: job.variations, chosenVariationId: job.chosenVariationId, moreVariations: { allowed: true, pending: 1, refunded: 0 } });
    expect(await balanceOf(t, user.id)).toBe(1);
    const added = (await ledgerOf(t, user.id)).slice(ledgerBefore.length);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ type: 'usage', amount: -1, description: 'Another variation: Luxury' });
    const requestId = added[0]?.jobId as string;
    expect(requestId).not.toBe(job.id);
    const history = (await a.call('GET', '/api/credits/transactions')).json() as Array<{ description: string }>;
    expect(history.map((row) => row.description)).toContain('Another variation: Luxury');

    // The request is no job of its own anywhere the user looks.
    const onlyTheStaging = (list: Job[]) => expect(list.map((j) => j.id)).toEqual([job.id]);
    onlyTheStaging((await a.call('GET', '/api/jobs')).json());
    expect((await a.call('GET', '/api/jobs?page=1')).json()).toMatchObject({ total: 1 });
    onlyTheStaging((await t.container.jobs.listAfter(user.id, null, 10)).jobs.map((row) => ({ id: row.id }) as Job));
    for (const method of ['GET', 'DELETE'] as const) expect((await a.call(method, `/api/jobs/${requestId}`)).statusCode).toBe(404);
    expect((await ask(a, requestId)).statusCode).toBe(404);

    engine.asked = [];
    await runAll(engine);
    expect(engine.asked).toEqual([1]);
    const after = await a.job(job.id);
    expect(after.variations).toHaveLength(2);
    expect(after.variations[0]).toEqual(job.variations[0]);
    expect(after).toMatchObject({ chosenVariationId: job.chosenVariationId, stagedImageUrl: job.stagedImageUrl, moreVariations: { allowed: true, pending: 0, refunded: 0 }, creditsUsed: 1 });
    onlyTheStaging((await a.call('GET', '/api/jobs')).json());
    expect(await t.container.users.stats(user.id)).toMatchObject({ totalJobs: 1 });

    const second = after.variations[1] as Job['variations'][number];
    expect((await a.call('GET', second.stagedImageUrl)).statusCode).toBe(200);
    const chosen = await a.call('POST', `/api/jobs/${job.id}/variations/${second.id}/choose`);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ chosenVariationId: second.id, stagedImageUrl: second.stagedImageUrl });
    expect(await balanceOf(t, user.id)).toBe(1);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('refunds a variation that could not be made, as any failed staging', async () => {
    const { user, a, job } = await stagedJob(1);
    expect((await ask(a, job.id)).statusCode).toBe(202);
    expect(await balanceOf(t, user.id)).toBe(0);
    await runAll(new PaidFailingEngine());
    const after = await a.job(job.id);
    expect(after).toMatchObject({ variations: job.variations, chosenVariationId: job.chosenVariationId, moreVariations: { allowed: true, pending: 0, refunded: 1 } });
    expect(await balanceOf(t, user.id)).toBe(1);
    expect((await ledgerOf(t, user.id)).slice(-2)).toMatchObject([
      { type: 'usage', amount: -1, description: 'Another variation: Luxury' },
      { type: 'refund', amount: 1, description: 'Refund: variation failed' },
    ]);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it("refuses a staging whose variations came with its credit, an unfinished or failed one, and another user's, debiting nothing", async () => {
    const local = await stagedJob(2, new DrawingEngine());
    expect(local.job.moreVariations).toEqual({ allowed: false, pending: 0, refunded: 0 });
    const included = await ask(local.a, local.job.id);
    expect(included.statusCode).toBe(409);
    expect(included.json()).toMatchObject({ error: 'VARIATIONS_INCLUDED', message: "This staging's variations came with its credit, so more cannot be bought. Regenerate it for a new set." });

    const pending = await local.a.stage(await local.a.upload());
    expect(pending.moreVariations.allowed).toBe(false);
    const early = await ask(local.a, pending.id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: 'JOB_NOT_COMPLETED', message: 'Only a finished staging can have more variations.' });
    await runAll(new PaidFailingEngine());
    expect((await local.a.job(pending.id)).status).toBe('failed');
    expect((await ask(local.a, pending.id)).json()).toMatchObject({ error: 'JOB_NOT_COMPLETED' });
    expect(await balanceOf(t, local.user.id)).toBe(2);

    const paid = await stagedJob(2);
    const intruder = api(t, await createSignedInUser(t, { credits: 5 }));
    const foreign = await ask(intruder, paid.job.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'NOT_FOUND', message: 'Job not found' });
    expect((await ask(paid.a, 'not-a-uuid')).statusCode).toBe(404);
    const crossSite = await t.app.inject({ method: 'POST', url: `/api/jobs/${paid.job.id}/variations`, headers: { cookie: paid.user.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/jobs/${paid.job.id}/variations`, headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' } })).statusCode).toBe(401);
    expect(await balanceOf(t, paid.user.id)).toBe(2);
    expect(await intruder.credits()).toBe(5);
    expect((await paid.a.job(paid.job.id)).moreVariations.pending).toBe(0);
  });

  it('answers 402 INSUFFICIENT_CREDITS on an empty balance and changes nothing', async () => {
    const { user, a, job } = await stagedJob(0);
    const ledgerBefore = await ledgerOf(t, user.id);
    const res = await ask(a, job.id);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: 'INSUFFICIENT_CREDITS' });
    expect(await balanceOf(t, user.id)).toBe(0);
    expect(await ledgerOf(t, user.id)).toHaveLength(ledgerBefore.length);
    expect(await t.container.database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(1);
    expect((await a.job(job.id)).moreVariations).toEqual({ allowed: true, pending: 0, refunded: 0 });
  });

  it('answers a replay with the same Idempotency-Key without a second debit; the key on another request is a 422', async () => {
    const { user, a, job } = await stagedJob(3);
    const key = { 'idempotency-key': 'variation-key-0001' };
    const [first, second] = await Promise.all([ask(a, job.id, key), ask(a, job.id, key)]);
    expect([first?.statusCode, second?.statusCode]).toEqual([202, 202]);
    const again = await ask(a, job.id, key);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ moreVariations: { pending: 1 } });
    expect(await balanceOf(t, user.id)).toBe(2);

    const other = await stagedJob(3);
    // Keys are per user: another user's same key is a request of its own.
    expect((await ask(other.a, other.job.id, key)).statusCode).toBe(202);
    const reused = await a.createJob({ originalImageUrl: await a.upload(), style: 'modern' }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ error: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await balanceOf(t, user.id)).toBe(2);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it(`stops at ${MAX_VARIATIONS_PER_JOB} variations, counting those being made`, async () => {
    const { user, a, job } = await stagedJob(MAX_VARIATIONS_PER_JOB + 2);
    for (let n = 1; n < MAX_VARIATIONS_PER_JOB; n++) expect((await ask(a, job.id)).statusCode, `request ${n}`).toBe(202);
    const full = await a.job(job.id);
    expect(full.moreVariations).toEqual({ allowed: false, pending: MAX_VARIATIONS_PER_JOB - 1, refunded: 0 });
    const refused = await ask(a, job.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'VARIATION_LIMIT_REACHED', message: `A staging can have at most ${MAX_VARIATIONS_PER_JOB} variations, counting those being made. Regenerate it for more.` });
    expect(await balanceOf(t, user.id)).toBe(3);
    await runAll();
    const made = await a.job(job.id);
    expect(made.variations).toHaveLength(MAX_VARIATIONS_PER_JOB);
    expect(new Set(made.variations.map((v) => v.stagedImageUrl)).size).toBe(MAX_VARIATIONS_PER_JOB);
    expect(made.moreVariations).toEqual({ allowed: false, pending: 0, refunded: 0 });
    expect((await ask(a, job.id)).statusCode).toBe(409);
  });

  it('deletes the requests with the staging: those not yet made refunded, every file gone', async () => {
    const { user, a, job } = await stagedJob(3);
    expect((await ask(a, job.id)).statusCode).toBe(202);
    await runAll();
    expect((await ask(a, job.id)).statusCode).toBe(202);
    const made = await a.job(job.id);
    expect(made.moreVariations.pending).toBe(1);
    expect(await balanceOf(t, user.id)).toBe(1);
    const requests = await t.container.database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.variationOf, job.id));
    expect(requests).toHaveLength(2);

    expect((await a.call('DELETE', `/api/jobs/${job.id}`)).statusCode).toBe(204);
    expect(await balanceOf(t, user.id)).toBe(2);
    expect((await ledgerOf(t, user.id)).at(-1)).toMatchObject({ type: 'refund', amount: 1, description: 'Refund: variation cancelled' });
    const db = t.container.database.db;
    expect(await db.select().from(jobs).where(or(eq(jobs.id, job.id), eq(jobs.variationOf, job.id)))).toEqual([]);
    for (const url of [...made.variations.map((v) => v.stagedImageUrl), made.originalImageUrl]) {
      const id = imageIdOf(url);
      expect(await db.select().from(images).where(eq(images.id, id))).toEqual([]);
      expect(await t.container.storage.exists(imageKey(id))).toBe(false);
    }
    // The worker finds nothing left to make.
    expect(await workerFor(t, new PaidDrawingEngine()).runOnce()).toBe(false);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('discards a variation made while its staging was deleted', async () => {
    const { user, a, job } = await stagedJob(1);
    expect((await ask(a, job.id)).statusCode).toBe(202);
    const claimed = await t.container.queue.claim();
    expect(claimed?.variationOf).toBe(job.id);
    expect((await a.call('DELETE', `/api/jobs/${job.id}`)).statusCode).toBe(204);
    const image = await normaliseEngineOutput(await makeJpeg());
    const stored = { ...(await t.container.images.storeFiles(image)), image };
    expect(await t.container.queue.complete(claimed as NonNullable<typeof claimed>, { variations: [stored], engine: 'paid-drawing', engineMs: 1 })).toBe(false);
    expect(await t.container.database.db.select().from(images).where(eq(images.id, stored.id))).toEqual([]);
    expect(await balanceOf(t, user.id)).toBe(1);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('uses the development engine "paid" when the staging asks for it by header', async () => {
    const { a, job } = await stagedJob(1, new DrawingEngine(), { 'x-test-staging-engine': 'paid' });
    expect(job.variations).toHaveLength(1);
    expect(job.moreVariations.allowed).toBe(true);
    expect((await ask(a, job.id)).statusCode).toBe(202);
    await runAll(new DrawingEngine());
    const after = await a.job(job.id);
    expect(after.variations).toHaveLength(2);
    expect(after.variations[1]?.stagedImageUrl).not.toBe(after.variations[0]?.stagedImageUrl);
  });

  it('never overdraws: 5 concurrent requests on 2 credits debit exactly 2', async () => {
    const { user, a, job } = await stagedJob(2);
    const answers = await Promise.all(Array.from({ length: 5 }, () => ask(a, job.id)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([202, 202, 402, 402, 402]);
    expect(await balanceOf(t, user.id)).toBe(0);
    expect((await a.job(job.id)).moreVariations.pending).toBe(2);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('counts concurrent requests exactly against the cap: 8 at once on a staging with 1 variation make it 6', async () => {
    const { user, a, job } = await stagedJob(10);
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask(a, job.id)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([202, 202, 202, 202, 202, 409, 409, 409]);
    expect(await balanceOf(t, user.id)).toBe(5);
    expect((await a.job(job.id)).moreVariations).toEqual({ allowed: false, pending: MAX_VARIATIONS_PER_JOB - 1, refunded: 0 });
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
});
