import { jobSchema, LOCAL_VARIATIONS, type Job } from '@roomstager/contracts';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, jobVariations } from '../../src/db/schema.ts';
import { LockedEngine } from '../../src/staging/lock/engine.ts';
import { GeminiEngine } from '../../src/staging/remote/gemini.ts';
import { OpenAiEngine } from '../../src/staging/remote/openai.ts';
import { ReplicateEngine } from '../../src/staging/remote/replicate.ts';
import { imageKey } from '../../src/storage/keys.ts';
import { variationsAskedOf } from '../../src/worker/job-runner.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { DrawingEngine } from '../pipeline/fakes.ts';
import { VariationsEngine } from './listings-helpers.ts';
import { api, balanceOf, workerFor } from '../pipeline/pipeline-helpers.ts';

describe('variations asked of an engine', () => {
  it('are LOCAL_VARIATIONS for the local engine and its stand-ins, one for an engine paid per image or a request for one more', () => {
    expect(variationsAskedOf({ name: 'local', stage: () => Promise.reject(new Error()) })).toBe(LOCAL_VARIATIONS);
    expect(variationsAskedOf(new DrawingEngine())).toBe(LOCAL_VARIATIONS);
    expect(variationsAskedOf({ name: 'paid', chargesPerImage: true, stage: () => Promise.reject(new Error()) })).toBe(1);
    expect(variationsAskedOf(new DrawingEngine(), { variationOf: '7b0d1c52-54a4-4c1f-9d0e-2f4a5b6c7d8e' })).toBe(1);
  });

  it('are one for each remote provider, behind the structure lock too', () => {
    const options = { apiKey: 'k', baseUrl: 'http://127.0.0.1:1', model: 'owner/model', timeoutMs: 1 };
    for (const engine of [new OpenAiEngine(options), new GeminiEngine(options), new ReplicateEngine(options)]) {
      expect([variationsAskedOf(engine), variationsAskedOf(new LockedEngine(engine))], engine.name).toEqual([1, 1]);
    }
  });
});

describe.each(databaseKinds)('variations on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function stagedJob(engine = new VariationsEngine()) {
    const user = await createSignedInUser(t, { credits: 3 });
    const a = api(t, user);
    const job = await a.stage(await a.upload());
    expect(job).toMatchObject({ variations: [], chosenVariationId: null });
    const worker = workerFor(t, engine);
    while (await worker.runOnce());
    return { user, a, job: await a.job(job.id), engine };
  }

  const bytesOf = async (a: ReturnType<typeof api>, url: string) => {
    const res = await a.call('GET', url);
    expect(res.statusCode, url).toBe(200);
    return res.rawPayload;
  };

  it('stores every variation for one credit, the first chosen, and follows a choice everywhere', async () => {
    const { user, a, job, engine } = await stagedJob();
    expect(engine.asked).toContain(LOCAL_VARIATIONS);
    expect(job.variations).toHaveLength(LOCAL_VARIATIONS);
    expect(job.chosenVariationId).toBe(job.variations[0]?.id);
    expect(job.stagedImageUrl).toBe(job.variations[0]?.stagedImageUrl);
    expect(await balanceOf(t, user.id)).toBe(2);
    const files = await Promise.all(job.variations.map((v) => bytesOf(a, v.stagedImageUrl)));
    expect(new Set(files.map((f) => f.toString('base64'))).size).toBe(LOCAL_VARIATIONS);

    const third = job.variations[2] as Job['variations'][number];
    const res = await a.call('POST', `/api/jobs/${job.id}/variations/${third.id}/choose`);
    expect(res.statusCode, res.body).toBe(200);
    const chosen = jobSchema.parse(res.json());
    expect(chosen).toMatchObject({ chosenVariationId: third.id, stagedImageUrl: third.stagedImageUrl, thumbnailUrl: `${third.stagedImageUrl}/thumbnail`, variations: job.variations });
    expect(await a.job(job.id)).toEqual(chosen);
    expect((await a.call('GET', '/api/jobs')).json()[0]).toMatchObject({ id: job.id, chosenVariationId: third.id });
    expect((await a.call('GET', '/api/jobs?page=1')).json().jobs[0]).toMatchObject({ id: job.id, stagedImageUrl: third.stagedImageUrl });
    // The download is made from the chosen variation.
    const download = await a.call('GET', `/api/jobs/${job.id}/download?size=hd`);
    expect(download.statusCode).toBe(200);
    const [fromDownload, fromThird] = await Promise.all([sharp(download.rawPayload).stats(), sharp(files[2] as Buffer).stats()]);
    expect(fromDownload.channels.map((c) => Math.round(c.mean))).toEqual(fromThird.channels.map((c) => Math.round(c.mean)));
    // Choosing the same one again is harmless.
    expect((await a.call('POST', `/api/jobs/${job.id}/variations/${third.id}/choose`)).statusCode).toBe(200);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('leaves out a further variation that adds nothing', async () => {
    const { job } = await stagedJob(new VariationsEngine(true));
    expect(job.status).toBe('completed');
    expect(job.variations).toHaveLength(LOCAL_VARIATIONS - 1);
  });

  it("answers 404 for another user's job or variation, another job's variation, and 409 for an unfinished job", async () => {
    const { user, a, job } = await stagedJob();
    const variation = job.variations[1]?.id as string;
    const intruder = api(t, await createSignedInUser(t, { credits: 1 }));
    const answer = await intruder.call('POST', `/api/jobs/${job.id}/variations/${variation}/choose`);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ error: 'NOT_FOUND', message: 'Job not found' });

    const other = await stagedJob();
    const foreign = await a.call('POST', `/api/jobs/${job.id}/variations/${other.job.variations[1]?.id}/choose`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'NOT_FOUND', message: 'Variation not found' });
    for (const url of [`/api/jobs/${job.id}/variations/nope/choose`, `/api/jobs/nope/variations/${variation}/choose`]) {
      expect((await a.call('POST', url)).statusCode, url).toBe(404);
    }
    expect((await a.job(job.id)).chosenVariationId).toBe(job.variations[0]?.id);

    const pending = await a.stage(await a.upload());
    const early = await a.call('POST', `/api/jobs/${pending.id}/variations/${variation}/choose`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: 'JOB_NOT_COMPLETED', message: 'Only a finished staging has variations to choose from.' });

    const crossSite = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.id}/variations/${variation}/choose`, headers: { cookie: user.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
  });

  it('keeps the variations not chosen from the unused-upload sweep', async () => {
    const { a, job } = await stagedJob();
    await t.container.database.db.update(images).set({ createdAt: sql`now() - interval '3 days'` });
    await workerFor(t, new DrawingEngine(), { sweep: { ageMs: 24 * 3_600_000, intervalMs: 60_000 } }).sweepUnused();
    for (const v of job.variations) expect((await a.call('GET', v.stagedImageUrl)).statusCode).toBe(200);
  });

  it("deletes every variation's files with the job", async () => {
    const { a, job } = await stagedJob();
    const ids = job.variations.map((v) => v.stagedImageUrl.split('/').pop() as string);
    expect((await a.call('DELETE', `/api/jobs/${job.id}`)).statusCode).toBe(204);
    const db = t.container.database.db;
    expect(await db.select().from(jobVariations).where(eq(jobVariations.jobId, job.id))).toEqual([]);
    for (const id of ids) {
      expect(await db.select().from(images).where(eq(images.id, id))).toEqual([]);
      expect(await t.container.storage.exists(imageKey(id))).toBe(false);
    }
  });
});
