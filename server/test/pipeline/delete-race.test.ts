import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, jobs } from '../../src/db/schema.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { api, balanceOf } from './pipeline-helpers.ts';

const ROUNDS = 20;
const CREDITS = 5;

/**
 * Deleting the last job of an original races a creation and a regeneration on that original.
 * Each loser answers 404 and debits nothing; the original stays exactly when a job uses it.
 */
describe.each(databaseKinds)('delete racing create and regenerate on one original, on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${ROUNDS} rounds in parallel: no 500, losers 404, credits exact, no orphan or missing original`, async () => {
    // Uploads are limited in parallel (503 when busy): set the rounds up one by one, then race them all.
    const setups = [];
    for (let i = 0; i < ROUNDS; i++) {
      const user = await createSignedInUser(t, { name: `racer${i}`, credits: CREDITS });
      const u = api(t, user);
      const original = await u.upload();
      setups.push({ user, u, original, source: await u.stage(original) });
    }
    const rounds = await Promise.all(
      setups.map(async ({ user, u, original, source }) => {
        const [deleted, created, regenerated] = await Promise.all([
          u.call('DELETE', `/api/jobs/${source.id}`),
          u.createJob({ originalImageUrl: original, style: 'luxury' }),
          u.call('POST', `/api/jobs/${source.id}/regenerate`, { style: 'minimalist' }),
        ]);
        return { user, original, deleted, created, regenerated };
      }),
    );

    const db = t.container.database.db;
    for (const { user, original, deleted, created, regenerated } of rounds) {
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect([201, 404], created.body).toContain(created.statusCode);
      expect([201, 404], regenerated.body).toContain(regenerated.statusCode);
      if (created.statusCode === 404) expect(created.json().message).toBe('Image not found');
      if (regenerated.statusCode === 404) expect(regenerated.json().message).toBe('Job not found');

      // The source job was debited and refunded on delete; only the winners cost a credit.
      const winners = [created, regenerated].filter((r) => r.statusCode === 201).length;
      expect(await balanceOf(t, user.id)).toBe(CREDITS - winners);
      const left = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.userId, user.id));
      expect(left).toHaveLength(winners);

      const imageId = original.split('/').pop() as string;
      const [row] = await db.select({ id: images.id }).from(images).where(eq(images.id, imageId));
      expect(Boolean(row), `original of ${user.id} kept exactly when a job uses it`).toBe(winners > 0);
    }
    expect(await ledgerViolations(t.container.database)).toEqual([]);

    // Every job still points at an existing original (the foreign key) and no original is orphaned.
    const userIds = rounds.map((r) => r.user.id);
    const originals = await db.select({ id: images.id }).from(images).where(inArray(images.userId, userIds));
    const used = await db.select({ id: jobs.originalImageId }).from(jobs).where(inArray(jobs.userId, userIds));
    expect(new Set(originals.map((r) => r.id))).toEqual(new Set(used.map((r) => r.id)));
  });
});
