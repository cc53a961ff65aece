import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, jobs } from '../../src/db/schema.ts';
import { imageKey, thumbnailKey } from '../../src/storage/keys.ts';
import { SWEEP_BATCH } from '../../src/worker/sweeps.ts';
import { createWorker, type Worker } from '../../src/worker/worker.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, testConfig, type TestApp } from '../helpers.ts';
import { DrawingEngine, makeJpeg } from './fakes.ts';
import { api, balanceOf, workerFor } from './pipeline-helpers.ts';

const HOUR = 3_600_000;
const idOf = (imageUrl: string) => imageUrl.split('/').pop() as string;

/** Makes images look `hours` old (created_at by the database's clock, as the sweep reads it). */
async function age(t: TestApp, ids: string[], hours: number): Promise<void> {
  await t.container.database.db
    .update(images)
    .set({ createdAt: sql`now() - ${hours} * interval '1 hour'` })
    .where(inArray(images.id, ids));
}

async function rowExists(t: TestApp, id: string): Promise<boolean> {
  const [row] = await t.container.database.db.select({ id: images.id }).from(images).where(eq(images.id, id));
  return Boolean(row);
}

async function filesOf(t: TestApp, id: string): Promise<{ image: boolean; thumbnail: boolean }> {
  const { storage } = t.container;
  return { image: await storage.exists(imageKey(id)), thumbnail: await storage.exists(thumbnailKey(id)) };
}

describe('unused upload settings', () => {
  it('default to a day and an hourly sweep, and refuse what is not a whole number in range', () => {
    const config = testConfig();
    expect([config.UNUSED_UPLOAD_TTL_HOURS, config.WORKER_SWEEP_MS]).toEqual([24, 300_000]);
    expect(testConfig({ UNUSED_UPLOAD_TTL_HOURS: '72', WORKER_SWEEP_MS: '' }).UNUSED_UPLOAD_TTL_HOURS).toBe(72);
    expect(() => testConfig({ UNUSED_UPLOAD_TTL_HOURS: '0' })).toThrow(/UNUSED_UPLOAD_TTL_HOURS/);
    expect(() => testConfig({ UNUSED_UPLOAD_TTL_HOURS: '1.5' })).toThrow(/UNUSED_UPLOAD_TTL_HOURS/);
    expect(() => testConfig({ WORKER_SWEEP_MS: 'often' })).toThrow(/WORKER_SWEEP_MS/);
  });
});

describe.each(databaseKinds)('sweeping unused uploads on %s', (kind) => {
  let t: TestApp;
  let worker: Worker;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', UNUSED_UPLOAD_TTL_HOURS: '2' } });
    worker = workerFor(t, new DrawingEngine(), { sweep: { ageMs: 24 * HOUR, intervalMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes an old upload no job uses (row, photo and thumbnail), keeps a recent one and one a job uses', async () => {
    const user = await createSignedInUser(t, { credits: 5 });
    const u = api(t, user);
    const unused = await u.upload();
    expect((await u.call('GET', `${unused}/thumbnail`)).statusCode).toBe(200);
    const recent = await u.upload();
    const used = await u.upload();
    const job = await u.stage(used);
    await workerFor(t, new DrawingEngine()).runOnce();
    const staged = (await u.job(job.id)).stagedImageUrl;
    expect(staged).toBeTruthy();
    await age(t, [idOf(unused), idOf(used), idOf(staged as string)], 25);
    await age(t, [idOf(recent)], 23);
    expect(await filesOf(t, idOf(unused))).toEqual({ image: true, thumbnail: true });

    expect(await worker.sweepUnused()).toBe(1);

    expect(await rowExists(t, idOf(unused))).toBe(false);
    expect(await filesOf(t, idOf(unused))).toEqual({ image: false, thumbnail: false });
    expect((await u.call('GET', unused)).statusCode).toBe(404);
    for (const kept of [recent, used, staged as string]) {
      expect(await rowExists(t, idOf(kept))).toBe(true);
      expect((await filesOf(t, idOf(kept))).image).toBe(true);
    }
    expect((await u.call('GET', recent)).statusCode).toBe(200);
    expect(await balanceOf(t, user.id)).toBe(4);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
    expect(await worker.sweepUnused()).toBe(0);
  });

  it('goes on past a full batch', async () => {
    const user = await createSignedInUser(t);
    const image = { jpeg: await makeJpeg(64, 48), width: 64, height: 48, sha256: '0'.repeat(64) };
    const ids: string[] = [];
    // Straight through the service: the upload route's rate limit and decoding are not the point here.
    for (let i = 0; i < SWEEP_BATCH + 5; i++) {
      const { id, storageKey } = await t.container.images.storeFiles(image);
      await t.container.images.insertRow(t.container.database.db, { id, storageKey, userId: user.id, kind: 'original', image });
      ids.push(id);
    }
    await age(t, ids, 48);
    expect(await worker.sweepUnused()).toBe(SWEEP_BATCH + 5);
    expect(await t.container.database.db.select({ id: images.id }).from(images).where(inArray(images.id, ids))).toEqual([]);
    expect(await filesOf(t, ids[0] as string)).toEqual({ image: false, thumbnail: false });
  });

  it('runs from the worker at start, with UNUSED_UPLOAD_TTL_HOURS', async () => {
    const u = api(t, await createSignedInUser(t));
    const old = await u.upload();
    const young = await u.upload();
    await age(t, [idOf(old)], 2.5);
    await age(t, [idOf(young)], 1.5);
    const started = createWorker(t.container, { concurrency: 0 });
    started.start();
    try {
      await expect.poll(() => rowExists(t, idOf(old)), { timeout: 10_000 }).toBe(false);
    } finally {
      await started.stop();
    }
    expect(await rowExists(t, idOf(young))).toBe(true);
  });

  it('never fails a job creation racing it: the creation wins, or gets 404 and pays nothing', async () => {
    const ROUNDS = 20;
    const CREDITS = 3;
    const rounds = [];
    // Uploads are limited in parallel (503 when busy): set the rounds up one by one, then race them all.
    for (let i = 0; i < ROUNDS; i++) {
      const user = await createSignedInUser(t, { name: `sweep-racer${i}`, credits: CREDITS });
      const u = api(t, user);
      rounds.push({ user, u, original: await u.upload() });
    }
    await age(t, rounds.map((r) => idOf(r.original)), 25);

    const sweepers = [0, 1, 2].map(() => workerFor(t, new DrawingEngine(), { sweep: { ageMs: 24 * HOUR, intervalMs: 60_000 } }));
    const [created, swept] = await Promise.all([
      Promise.all(rounds.map((r) => r.u.createJob({ originalImageUrl: r.original, style: 'modern' }))),
      Promise.all(sweepers.map((s) => s.sweepUnused())),
    ]);

    const db = t.container.database.db;
    let deleted = 0;
    for (const [i, { user, original }] of rounds.entries()) {
      const res = created[i]!;
      expect([201, 404], res.body).toContain(res.statusCode);
      const kept = await rowExists(t, idOf(original));
      const userJobs = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.userId, user.id));
      if (res.statusCode === 201) {
        expect(kept, 'a job was created on it: the image stays').toBe(true);
        expect(userJobs).toHaveLength(1);
        expect(await balanceOf(t, user.id)).toBe(CREDITS - 1);
      } else {
        expect(res.json().message).toBe('Image not found');
        expect(kept).toBe(false);
        expect(await filesOf(t, idOf(original))).toEqual({ image: false, thumbnail: false });
        expect(userJobs).toHaveLength(0);
        expect(await balanceOf(t, user.id)).toBe(CREDITS);
        deleted++;
      }
    }
    expect(swept.reduce((a, b) => a + b, 0)).toBe(deleted);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
});
