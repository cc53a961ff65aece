import { listingListResponseSchema, stageListingResponseSchema, LISTING_PHOTOS_MAX, type StageListingResponse } from '@roomstager/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import { MAX_ACTIVE_JOBS_PER_USER, MAX_ACTIVE_JOBS_WITH_LISTING } from '../../src/domain/jobs/jobs.service.ts';
import type { StageInput, StageOutput } from '../../src/staging/engine.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { DrawingEngine } from '../pipeline/fakes.ts';
import { balanceOf, ledgerOf, workerFor } from '../pipeline/pipeline-helpers.ts';
import { listingsApi } from './listings-helpers.ts';

/** Draws, remembering what each run was asked for. */
class RecordingEngine extends DrawingEngine {
  inputs: StageInput[] = [];
  override stage(input: StageInput): Promise<StageOutput> {
    this.inputs.push(input);
    return super.stage(input);
  }
}

describe.each(databaseKinds)('staging a listing on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A user with `credits` and a listing of `photos` photos (living room, kitchen, bedroom, living room, ...). */
  async function listingOf(photos: number, credits: number) {
    const user = await createSignedInUser(t, { credits });
    const l = listingsApi(t, user);
    const id = await l.createListing('12 Elm Street', 'modern');
    const rooms = ['living_room', 'kitchen', 'bedroom'];
    const photoIds: string[] = [];
    for (let i = 0; i < photos; i++) photoIds.push(await l.addPhoto(id, await l.upload(), rooms[i % rooms.length]));
    return { user, l, id, photoIds };
  }

  /** Runs every queued job (other tests' too: the queue is shared). */
  const drain = async (engine = new DrawingEngine()) => {
    const worker = workerFor(t, engine);
    while (await worker.runOnce());
  };

  const stage = async (l: ReturnType<typeof listingsApi>, url: string, headers?: Record<string, string>) => {
    const res = await l.call('POST', url, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return stageListingResponseSchema.parse(res.json());
  };

  it('stages every photo on just enough credits: one job and one ledger row each, one look', async () => {
    const { user, l, id, photoIds } = await listingOf(3, 3);
    const answer = await stage(l, `/api/listings/${id}/stage`);
    expect(answer).toMatchObject({ creditsUsed: 3, remainingCredits: 0 });
    expect(answer.jobIds).toHaveLength(3);
    const rows = await t.container.database.db.select().from(jobs).where(inArray(jobs.id, answer.jobIds));
    expect(new Set(rows.map((r) => r.listingPhotoId))).toEqual(new Set(photoIds));
    expect(rows.every((r) => r.look === id && r.style === 'modern' && r.userLabel === '12 Elm Street')).toBe(true);
    const usage = (await ledgerOf(t, user.id)).filter((r) => r.type === 'usage');
    expect(usage.map((r) => [r.amount, r.description]).sort()).toEqual(Array(3).fill([-1, 'Staging: Modern']));
    expect(new Set(usage.map((r) => r.jobId))).toEqual(new Set(answer.jobIds));

    let listing = await l.listing(id);
    expect(listing.photos.map((p) => p.job?.status)).toEqual(['pending', 'pending', 'pending']);
    const engine = new RecordingEngine();
    await drain(engine);
    expect(engine.inputs.map((i) => i.look)).toEqual([id, id, id]);
    expect(engine.inputs.map((i) => i.roomType).sort()).toEqual(['bedroom', 'kitchen', 'living_room']);
    listing = await l.listing(id);
    expect(listing.photos.map((p) => [p.job?.status, p.job?.creditsUsed, p.job?.stagedImageUrl?.startsWith('/api/images/')])).toEqual(Array(3).fill(['completed', 1, true]));
    const summary = listingListResponseSchema.parse((await l.call('GET', '/api/listings')).json())[0];
    expect(summary).toMatchObject({ photoCount: 3, stagedCount: 3, coverUrl: listing.photos[0]?.job?.thumbnailUrl });

    // Everything is staged in this style: nothing more to do, nothing debited.
    expect(await stage(l, `/api/listings/${id}/stage`)).toEqual({ jobIds: [], creditsUsed: 0, remainingCredits: 0 });
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('on one credit too few debits nothing and says how many credits are missing', async () => {
    const { user, l, id } = await listingOf(3, 2);
    const before = await ledgerOf(t, user.id);
    const res = await l.call('POST', `/api/listings/${id}/stage`);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: 'INSUFFICIENT_CREDITS',
      message: 'Insufficient credits: staging 3 photos takes 3 credits and you have 2. 1 credit missing.',
      details: { needed: 3, balance: 2 },
    });
    expect(await balanceOf(t, user.id)).toBe(2);
    expect(await ledgerOf(t, user.id)).toEqual(before);
    expect((await l.listing(id)).photos.map((p) => p.job)).toEqual([null, null, null]);
    const none = await t.container.database.db.select().from(jobs).where(eq(jobs.userId, user.id));
    expect(none).toEqual([]);
  });

  it('debits once for five concurrent stage calls', async () => {
    const { user, l, id } = await listingOf(4, 10);
    const answers = await Promise.all(Array.from({ length: 5 }, () => l.call('POST', `/api/listings/${id}/stage`)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const staged = answers.map((r) => r.json() as StageListingResponse).map((a) => a.creditsUsed).sort();
    expect(staged).toEqual([0, 0, 0, 0, 4]);
    expect(await balanceOf(t, user.id)).toBe(6);
    expect((await ledgerOf(t, user.id)).filter((r) => r.type === 'usage')).toHaveLength(4);
    expect(await t.container.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(4);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('stages again what failed and everything after a change of style; re-stages one photo for one credit', async () => {
    const { user, l, id, photoIds } = await listingOf(2, 10);
    const first = await stage(l, `/api/listings/${id}/stage`, { 'x-test-staging-engine': 'fail' });
    expect(first.creditsUsed).toBe(2);
    await drain();
    expect((await l.listing(id)).photos.map((p) => [p.job?.status, p.job?.creditsUsed])).toEqual([
      ['failed', 0],
      ['failed', 0],
    ]);
    expect(await balanceOf(t, user.id)).toBe(10);

    const second = await stage(l, `/api/listings/${id}/stage`);
    expect(second).toMatchObject({ creditsUsed: 2, remainingCredits: 8 });
    await drain();

    // One photo again: one credit; refused while that staging is queued.
    const photoStage = `/api/listings/${id}/photos/${photoIds[0]}/stage`;
    const again = await stage(l, photoStage, { 'idempotency-key': 'restage-0001' });
    expect(again).toMatchObject({ creditsUsed: 1, remainingCredits: 7 });
    expect(again.jobIds).toHaveLength(1);
    // A replay of that request answers the same job and debits nothing.
    expect(await stage(l, photoStage, { 'idempotency-key': 'restage-0001' })).toEqual({ ...again, remainingCredits: 7 });
    const busy = await l.call('POST', photoStage);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ error: 'PHOTO_STAGING_IN_PROGRESS', message: 'This photo is being staged already. Wait for it to finish before staging it again.' });
    await drain();

    expect((await l.call('PATCH', `/api/listings/${id}`, { style: 'luxury' })).statusCode).toBe(200);
    const restyled = await stage(l, `/api/listings/${id}/stage`);
    expect(restyled).toMatchObject({ creditsUsed: 2, remainingCredits: 5 });
    const listing = await l.listing(id);
    expect(listing.photos.map((p) => [p.job?.style, p.job?.status])).toEqual([
      ['luxury', 'pending'],
      ['luxury', 'pending'],
    ]);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it("answers 404 for another user's listing and photo, and debits nothing", async () => {
    const { id, photoIds } = await listingOf(1, 1);
    const intruder = await createSignedInUser(t, { credits: 5 });
    const l = listingsApi(t, intruder);
    for (const url of [`/api/listings/${id}/stage`, `/api/listings/${id}/photos/${photoIds[0]}/stage`, `/api/listings/${crypto.randomUUID()}/stage`, '/api/listings/x/photos/y/stage']) {
      const res = await l.call('POST', url);
      expect(res.statusCode, url).toBe(404);
    }
    expect(await balanceOf(t, intruder.id)).toBe(5);
  });

  it('keeps the stagings in the gallery when the listing is deleted', async () => {
    const { l, id } = await listingOf(2, 2);
    const { jobIds } = await stage(l, `/api/listings/${id}/stage`);
    await drain();
    expect((await l.call('DELETE', `/api/listings/${id}`)).statusCode).toBe(204);
    for (const jobId of jobIds) {
      const job = await l.job(jobId);
      expect((await l.call('GET', job.originalImageUrl)).statusCode).toBe(200);
    }
    const rows = await t.container.database.db.select().from(jobs).where(inArray(jobs.id, jobIds));
    expect(rows.map((r) => r.listingPhotoId)).toEqual([null, null]);
  });

  it(`stages a full listing of ${LISTING_PHOTOS_MAX} beside single stagings, within ${MAX_ACTIVE_JOBS_WITH_LISTING} active jobs`, async () => {
    const user = await createSignedInUser(t, { credits: 100 });
    const l = listingsApi(t, user);
    const upload = await l.upload();
    for (let i = 0; i < 5; i++) await l.stage(upload);
    const full = await l.createListing('Full');
    for (let i = 0; i < LISTING_PHOTOS_MAX; i++) await l.addPhoto(full, upload);
    expect((await stage(l, `/api/listings/${full}/stage`)).creditsUsed).toBe(LISTING_PHOTOS_MAX);

    const second = await l.createListing('Second');
    for (let i = 0; i < 16; i++) await l.addPhoto(second, upload);
    const refused = await l.call('POST', `/api/listings/${second}/stage`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      error: 'TOO_MANY_ACTIVE_JOBS',
      message: `You have 35 stagings in progress, and 16 more would pass the limit of ${MAX_ACTIVE_JOBS_WITH_LISTING}. Please wait for some to finish.`,
    });
    // A single staging still counts every active one against its own allowance.
    const single = await l.createJob({ originalImageUrl: upload, style: 'modern' });
    expect(single.statusCode).toBe(429);
    expect(single.json().message).toContain(`${MAX_ACTIVE_JOBS_PER_USER} stagings in progress`);
    expect(await balanceOf(t, user.id)).toBe(100 - 5 - LISTING_PHOTOS_MAX);
  });
});
