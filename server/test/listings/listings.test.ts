import { listingListResponseSchema, listingSchema, LISTING_PHOTOS_MAX } from '@roomstager/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images, listingPhotos, listings } from '../../src/db/schema.ts';
import { createSignedInUser, createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { DrawingEngine } from '../pipeline/fakes.ts';
import { workerFor } from '../pipeline/pipeline-helpers.ts';
import { listingsApi } from './listings-helpers.ts';

const HOUR = 3_600_000;
const idOf = (url: string) => url.split('/').pop() as string;

describe.each(databaseKinds)('listings on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const imageExists = async (url: string) =>
    (await t.container.database.db.select({ id: images.id }).from(images).where(eq(images.id, idOf(url)))).length === 1;

  it('creates, lists newest first, reads, renames and restyles a listing', async () => {
    const l = listingsApi(t, await createSignedInUser(t));
    const first = await l.createListing('  12 Elm Street  ', 'modern');
    const second = await l.createListing('3 Oak Lane', 'luxury');
    const list = listingListResponseSchema.parse((await l.call('GET', '/api/listings')).json());
    expect(list.map((s) => [s.id, s.title, s.style, s.photoCount, s.stagedCount, s.coverUrl])).toEqual([
      [second, '3 Oak Lane', 'luxury', 0, 0, null],
      [first, '12 Elm Street', 'modern', 0, 0, null],
    ]);

    const patched = await l.call('PATCH', `/api/listings/${first}`, { title: '12 Elm St.', style: 'traditional' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(listingSchema.parse(patched.json())).toMatchObject({ id: first, title: '12 Elm St.', style: 'traditional', photos: [] });
    const styleOnly = await l.call('PATCH', `/api/listings/${first}`, { style: 'minimalist' });
    expect(styleOnly.json()).toMatchObject({ title: '12 Elm St.', style: 'minimalist' });
    expect(await l.listing(first)).toMatchObject({ title: '12 Elm St.', style: 'minimalist' });
  });

  it('refuses bad bodies with a message and changes nothing', async () => {
    const l = listingsApi(t, await createSignedInUser(t));
    const id = await l.createListing('Before', 'modern');
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/api/listings', { title: '', style: 'modern' }, /Enter a title/],
      ['POST', '/api/listings', { title: 'x'.repeat(121), style: 'modern' }, /at most 120 characters/],
      ['POST', '/api/listings', { title: 'A house', style: 'baroque' }, /style/],
      ['POST', '/api/listings', { title: 'A house', style: 'modern', extra: 1 }, /extra/],
      ['PATCH', `/api/listings/${id}`, {}, /Nothing to change/],
      ['PATCH', `/api/listings/${id}`, { title: '   ' }, /Enter a title/],
      ['POST', `/api/listings/${id}/photos`, { imageUrl: '' }, /imageUrl/],
      ['POST', `/api/listings/${id}/photos`, { imageUrl: '/api/images/x', roomType: 'garage' }, /roomType/],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await l.call(method as 'POST' | 'PATCH', url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringMatching(message) });
    }
    const list = listingListResponseSchema.parse((await l.call('GET', '/api/listings')).json());
    expect(list.map((s) => [s.title, s.style, s.photoCount])).toEqual([['Before', 'modern', 0]]);
  });

  it('adds photos in order with their room types (living room by default), changes and removes them', async () => {
    const l = listingsApi(t, await createSignedInUser(t));
    const id = await l.createListing();
    const uploads = [await l.upload(), await l.upload(), await l.upload()];
    const photoIds = [await l.addPhoto(id, uploads[0] as string), await l.addPhoto(id, uploads[1] as string, 'kitchen'), await l.addPhoto(id, uploads[2] as string, 'bedroom')];
    let listing = await l.listing(id);
    expect(listing.photos.map((p) => [p.id, p.imageUrl, p.roomType, p.job])).toEqual([
      [photoIds[0], uploads[0], 'living_room', null],
      [photoIds[1], uploads[1], 'kitchen', null],
      [photoIds[2], uploads[2], 'bedroom', null],
    ]);
    const summary = listingListResponseSchema.parse((await l.call('GET', '/api/listings')).json())[0];
    expect(summary).toMatchObject({ photoCount: 3, stagedCount: 0, coverUrl: `${uploads[0]}/thumbnail` });

    const patched = await l.call('PATCH', `/api/listings/${id}/photos/${photoIds[0]}`, { roomType: 'office' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(listingSchema.parse(patched.json()).photos[0]?.roomType).toBe('office');
    const bad = await l.call('PATCH', `/api/listings/${id}/photos/${photoIds[0]}`, { roomType: 'attic' });
    expect(bad.statusCode).toBe(400);

    expect((await l.call('DELETE', `/api/listings/${id}/photos/${photoIds[1]}`)).statusCode).toBe(204);
    listing = await l.listing(id);
    expect(listing.photos.map((p) => [p.id, p.roomType])).toEqual([
      [photoIds[0], 'office'],
      [photoIds[2], 'bedroom'],
    ]);
    // The removed photo's upload is used by nothing else: it goes with it.
    expect(await imageExists(uploads[1] as string)).toBe(false);
    expect((await l.call('DELETE', `/api/listings/${id}/photos/${photoIds[1]}`)).statusCode).toBe(404);
  });

  it(`holds at most ${LISTING_PHOTOS_MAX} photos, and only the caller's uploads`, async () => {
    const user = await createSignedInUser(t);
    const l = listingsApi(t, user);
    const id = await l.createListing();
    const upload = await l.upload();
    for (let i = 0; i < LISTING_PHOTOS_MAX; i++) await l.addPhoto(id, upload);
    const full = await l.call('POST', `/api/listings/${id}/photos`, { imageUrl: upload });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: 'LISTING_FULL', message: `A listing holds at most ${LISTING_PHOTOS_MAX} photos. Remove one, or start another listing for more.` });

    const other = listingsApi(t, await createSignedInUser(t));
    const otherUpload = await other.upload();
    const second = await l.createListing();
    for (const imageUrl of [otherUpload, '/api/images/not-a-uuid', 'https://example.com/a.jpg', `/api/images/${crypto.randomUUID()}`]) {
      const res = await l.call('POST', `/api/listings/${second}/photos`, { imageUrl });
      expect(res.statusCode, imageUrl).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND', message: 'Image not found' });
    }
    expect((await l.listing(second)).photos).toEqual([]);
  });

  it("answers 404 for another user's listing and photo ids, and changes nothing", async () => {
    const owner = listingsApi(t, await createSignedInUser(t));
    const id = await owner.createListing('Mine', 'modern');
    const photoId = await owner.addPhoto(id, await owner.upload());
    const intruder = listingsApi(t, await createSignedInUser(t));
    const ownUpload = await intruder.upload();
    const calls: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
      ['GET', `/api/listings/${id}`],
      ['PATCH', `/api/listings/${id}`, { title: 'Theirs' }],
      ['DELETE', `/api/listings/${id}`],
      ['POST', `/api/listings/${id}/photos`, { imageUrl: ownUpload }],
      ['PATCH', `/api/listings/${id}/photos/${photoId}`, { roomType: 'kitchen' }],
      ['DELETE', `/api/listings/${id}/photos/${photoId}`],
      ['GET', '/api/listings/not-a-uuid'],
      ['DELETE', `/api/listings/${id}/photos/not-a-uuid`],
    ];
    for (const [method, url, body] of calls) {
      const res = await intruder.call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // A photo id of one listing under another listing of the same owner is no photo either.
    const otherListing = await owner.createListing('Other', 'modern');
    expect((await owner.call('DELETE', `/api/listings/${otherListing}/photos/${photoId}`)).statusCode).toBe(404);
    expect(listingListResponseSchema.parse((await intruder.call('GET', '/api/listings')).json())).toEqual([]);
    expect(await owner.listing(id)).toMatchObject({ title: 'Mine', photos: [{ id: photoId, roomType: 'living_room' }] });
  });

  it('needs a session and the same origin', async () => {
    const user = await createSignedInUser(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/listings' })).statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/listings',
      headers: { cookie: user.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x', style: 'modern' }),
    });
    expect(crossSite.statusCode).toBe(403);
    expect(listingListResponseSchema.parse((await listingsApi(t, user).call('GET', '/api/listings')).json())).toEqual([]);
  });

  it('deletes a listing with its photos and their unused uploads', async () => {
    const l = listingsApi(t, await createSignedInUser(t));
    const id = await l.createListing();
    const upload = await l.upload();
    await l.addPhoto(id, upload);
    await l.addPhoto(id, upload, 'bedroom');
    expect((await l.call('DELETE', `/api/listings/${id}`)).statusCode).toBe(204);
    expect((await l.call('GET', `/api/listings/${id}`)).statusCode).toBe(404);
    expect((await l.call('DELETE', `/api/listings/${id}`)).statusCode).toBe(404);
    const db = t.container.database.db;
    expect(await db.select().from(listingPhotos).where(eq(listingPhotos.listingId, id))).toEqual([]);
    expect(await db.select().from(listings).where(eq(listings.id, id))).toEqual([]);
    expect(await imageExists(upload)).toBe(false);
  });

  it("keeps a listing photo's upload from the unused-upload sweep, and sweeps it once removed", async () => {
    const l = listingsApi(t, await createSignedInUser(t));
    const id = await l.createListing();
    const [kept, shared, unused] = [await l.upload(), await l.upload(), await l.upload()];
    await l.addPhoto(id, kept);
    // The same upload in two listings: removing it from one keeps it for the other.
    const second = await l.createListing('Second');
    await l.addPhoto(id, shared);
    const sharedInSecond = await l.addPhoto(second, shared);
    const photoOfShared = (await l.listing(id)).photos[1]?.id as string;
    expect((await l.call('DELETE', `/api/listings/${id}/photos/${photoOfShared}`)).statusCode).toBe(204);
    expect(await imageExists(shared)).toBe(true);

    await t.container.database.db
      .update(images)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(inArray(images.id, [kept, shared, unused].map(idOf)));
    const worker = workerFor(t, new DrawingEngine(), { sweep: { ageMs: 24 * HOUR, intervalMs: 60_000 } });
    expect(await worker.sweepUnused()).toBeGreaterThanOrEqual(1);
    expect(await imageExists(unused)).toBe(false);
    expect(await imageExists(kept)).toBe(true);
    expect(await imageExists(shared)).toBe(true);
    expect((await l.call('GET', kept)).statusCode).toBe(200);

    expect((await l.call('DELETE', `/api/listings/${second}/photos/${sharedInSecond}`)).statusCode).toBe(204);
    expect(await imageExists(shared)).toBe(false);
  });
});
