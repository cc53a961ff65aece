import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingFileName } from '../../src/domain/listings/listings.service.ts';
import { createSignedInUser, createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { workerFor } from '../pipeline/pipeline-helpers.ts';
import { listingsApi, VariationsEngine } from './listings-helpers.ts';

interface ZipFile {
  name: string;
  method: number;
  data: Buffer;
}

/** Reads a ZIP by its central directory (as unzip tools do), checking each entry's local header and CRC-32. */
function readZip(zip: Buffer): ZipFile[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files: ZipFile[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(offset)).toBe(0x04034b50);
    const localName = zip.readUInt16LE(offset + 26);
    const data = zip.subarray(offset + 30 + localName + zip.readUInt16LE(offset + 28), offset + 30 + localName + zip.readUInt16LE(offset + 28) + size);
    expect(crc32(data), name).toBe(crc);
    files.push({ name, method, data });
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

/** `unzip -t` where the machine has it: a second, independent reader. */
function unzipTest(zip: Buffer): string | null {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'listing-zip-'));
  try {
    writeFileSync(path.join(dir, 'l.zip'), zip);
    return execFileSync('unzip', ['-t', path.join(dir, 'l.zip')], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('listing file names', () => {
  it('keep letters and digits, drop accents, join words with hyphens', () => {
    expect(listingFileName('12 Elm Street')).toBe('12-Elm-Street');
    expect(listingFileName("12 Rue de l'Église, Paris 75004")).toBe('12-Rue-de-l-Eglise-Paris-75004');
    expect(listingFileName('"../../etc/passwd"')).toBe('etc-passwd');
    expect(listingFileName('東京')).toBe('listing');
    expect(listingFileName('a'.repeat(120))).toHaveLength(80);
  });
});

describe.each(databaseKinds)('downloading a listing on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('zips each chosen staged photo and its original, named by room type and number, with a note of what is virtually staged', async () => {
    const l = listingsApi(t, await createSignedInUser(t, { credits: 10 }));
    const id = await l.createListing('12 Elm Street, Springfield', 'modern');
    const rooms = ['living_room', 'kitchen', 'living_room', 'bedroom'];
    const uploads: string[] = [];
    for (const room of rooms.slice(0, 3)) {
      const upload = await l.upload();
      uploads.push(upload);
      await l.addPhoto(id, upload, room);
    }
    expect((await l.call('GET', `/api/listings/${id}/download`)).json()).toMatchObject({
      error: 'LISTING_NOT_STAGED',
      message: 'Nothing in this listing is staged yet. Stage its photos, then download them.',
    });
    expect((await l.call('POST', `/api/listings/${id}/stage`)).statusCode).toBe(200);
    const worker = workerFor(t, new VariationsEngine());
    while (await worker.runOnce());
    // A fourth photo, not staged: not in the archive.
    await l.addPhoto(id, await l.upload(), rooms[3]);
    const listing = await l.listing(id);
    // The second living room shows its third variation.
    const secondLiving = listing.photos[2]?.job;
    const third = secondLiving?.variations[2];
    expect(third).toBeDefined();
    expect((await l.call('POST', `/api/jobs/${secondLiving?.id}/variations/${third?.id}/choose`)).statusCode).toBe(200);

    const res = await l.call('GET', `/api/listings/${id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="12-Elm-Street-Springfield.zip"');
    const files = readZip(res.rawPayload);
    const folder = '12-Elm-Street-Springfield';
    expect(files.map((f) => f.name)).toEqual([
      `${folder}/living-room-01-staged.jpg`,
      `${folder}/living-room-01-original.jpg`,
      `${folder}/kitchen-01-staged.jpg`,
      `${folder}/kitchen-01-original.jpg`,
      `${folder}/living-room-02-staged.jpg`,
      `${folder}/living-room-02-original.jpg`,
      `${folder}/virtually-staged.txt`,
    ]);
    expect(files.every((f) => f.method === 0)).toBe(true);
    const bytes = async (url: string) => (await l.call('GET', url)).rawPayload;
    const byName = new Map(files.map((f) => [f.name.slice(folder.length + 1), f.data]));
    for (const [index, stem] of ['living-room-01', 'kitchen-01', 'living-room-02'].entries()) {
      const photo = listing.photos[index];
      const staged = index === 2 ? (third?.stagedImageUrl as string) : (photo?.job?.stagedImageUrl as string);
      expect(byName.get(`${stem}-staged.jpg`)?.equals(await bytes(staged)), stem).toBe(true);
      expect(byName.get(`${stem}-original.jpg`)?.equals(await bytes(uploads[index] as string)), stem).toBe(true);
    }
    // The choice shows: the second living room is not its first variation.
    expect(byName.get('living-room-02-staged.jpg')?.equals(await bytes(secondLiving?.variations[0]?.stagedImageUrl as string))).toBe(false);
    const note = byName.get('virtually-staged.txt')?.toString('utf8') ?? '';
    const today = new Date().toISOString().slice(0, 10);
    expect(note.split('\r\n')).toEqual([
      '12 Elm Street, Springfield',
      `Downloaded from RoomStager on ${today}.`,
      '',
      'These photos are virtually staged: furniture and decor were added digitally, the rooms are as photographed.',
      `living-room-01-staged.jpg    Modern style, staged ${today}; unaltered original: living-room-01-original.jpg`,
      `kitchen-01-staged.jpg    Modern style, staged ${today}; unaltered original: kitchen-01-original.jpg`,
      `living-room-02-staged.jpg    Modern style, staged ${today}; unaltered original: living-room-02-original.jpg`,
      '',
      'Files ending in -original.jpg are the unaltered photos.',
      '',
    ]);
    const tested = unzipTest(res.rawPayload);
    if (tested !== null) expect(tested).toContain('No errors detected');
  });

  it("answers 404 for another user's listing", async () => {
    const owner = listingsApi(t, await createSignedInUser(t));
    const id = await owner.createListing();
    const intruder = listingsApi(t, await createSignedInUser(t));
    expect((await intruder.call('GET', `/api/listings/${id}/download`)).statusCode).toBe(404);
    expect((await intruder.call('GET', '/api/listings/nope/download')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/listings/${id}/download` })).statusCode).toBe(401);
  });
});
