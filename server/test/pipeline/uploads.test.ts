import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_BODY_LIMIT_BYTES } from '../../src/api/routes/uploads.routes.ts';
import { images } from '../../src/db/schema.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, sameOrigin, type TestApp } from '../helpers.ts';
import { jpegStructure } from '../../src/domain/images/image-files.ts';
import { b64, makeJpeg, makeManyScanJpeg, makePng, makePngBomb } from './fakes.ts';

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

describe.each(databaseKinds)('uploads and image URLs on %s', (kind) => {
  let t: TestApp;
  let alice: { id: string; cookie: string };
  let bob: { id: string; cookie: string };
  let jpeg: Buffer;
  let imagesDir: string;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000' } });
    alice = await createSignedInUser(t, { name: 'alice' });
    bob = await createSignedInUser(t, { name: 'bob' });
    jpeg = await makeJpeg(800, 600);
    imagesDir = path.join(t.container.config.DATA_DIR, 'images');
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (payload: unknown, cookie = alice.cookie) =>
    t.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...sameOrigin, 'content-type': 'application/json', cookie },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const get = (url: string, cookie = alice.cookie, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });

  it('stores a JPEG and answers its URL, served to its owner with immutable caching', async () => {
    const res = await upload({ imageData: b64(jpeg), filename: 'room.jpg' });
    expect(res.statusCode).toBe(201);
    const { imageUrl } = res.json();
    expect(imageUrl).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);

    const img = await get(imageUrl);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    const etag = String(img.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await sharp(img.rawPayload).metadata()).format).toBe('jpeg');

    const again = await get(imageUrl, alice.cookie, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // Stored under keys derived from the id only.
    const id = imageUrl.split('/').pop();
    expect((await filesUnder(imagesDir)).map((f) => path.relative(imagesDir, f))).toContain(`images/${id.slice(0, 2)}/${id}.jpg`);
    expect((await filesUnder(imagesDir)).some((f) => path.relative(imagesDir, f).includes('room'))).toBe(false);

    const download = await get(`${imageUrl}?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="original-[0-9a-f-]{36}\.jpg"$/);

    const thumb = await get(`${imageUrl}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(400);
    // Made once and kept.
    expect((await filesUnder(path.join(imagesDir, 'thumbnails'))).length).toBeGreaterThan(0);
    expect((await get(`${imageUrl}/thumbnail`, alice.cookie, { 'if-none-match': String(thumb.headers.etag) })).statusCode).toBe(304);
  });

  it('stores a PNG as JPEG', async () => {
    const res = await upload({ imageData: b64(await makePng()), filename: 'plan.png' });
    expect(res.statusCode).toBe(201);
    const img = await get(res.json().imageUrl);
    expect((await sharp(img.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('applies the EXIF orientation and strips EXIF, GPS, XMP and ICC', async () => {
    const withExif = await makeJpeg(640, 400, { orientation: 6, gps: true });
    const inMeta = await sharp(withExif).metadata();
    expect(inMeta.exif).toBeDefined();
    expect(inMeta.orientation).toBe(6);
    const res = await upload({ imageData: b64(withExif), filename: 'phone.jpg' });
    expect(res.statusCode).toBe(201);
    const stored = (await get(res.json().imageUrl)).rawPayload;
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height]).toEqual([400, 640]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(stored.includes(Buffer.from('Secret Model'))).toBe(false);
    expect(stored.includes(Buffer.from('TestCam'))).toBe(false);
  });

  it('accepts a file of exactly 10485760 bytes, and a data URL prefix', async () => {
    // 10485760 decoded bytes exactly: a valid JPEG padded with zero bytes after its end.
    const padded = Buffer.concat([jpeg, Buffer.alloc(10_485_760 - jpeg.length)]);
    expect(padded.length).toBe(10_485_760);
    expect(b64(padded).length + 40).toBeLessThan(UPLOAD_BODY_LIMIT_BYTES);
    const full = await upload({ imageData: b64(padded), filename: 'ten-megabytes.jpg' });
    expect(full.statusCode, full.body).toBe(201);
    const prefixed = await upload({ imageData: `data:image/jpeg;base64,${b64(jpeg)}`, filename: 'a.jpg' });
    expect(prefixed.statusCode).toBe(201);
  });

  describe('bad uploads: a clear 4xx with {message}, nothing stored, the server keeps serving', () => {
    let rowsBefore: number;
    let filesBefore: string[];
    beforeAll(async () => {
      rowsBefore = (await t.container.database.db.select().from(images)).length;
      filesBefore = await filesUnder(imagesDir);
    });
    afterEach(async () => {
      expect((await t.container.database.db.select().from(images)).length).toBe(rowsBefore);
      expect(await filesUnder(imagesDir)).toEqual(filesBefore);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });

    const expectRefused = async (payload: unknown, status: number, message?: RegExp) => {
      const res = await upload(payload);
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json();
      expect(typeof body.message).toBe('string');
      expect(body.message.length).toBeGreaterThan(0);
      if (message) expect(body.message).toMatch(message);
      return body;
    };

    it('empty', async () => {
      await expectRefused({ imageData: '', filename: 'a.jpg' }, 400, /No image data/);
      await expectRefused({ filename: 'a.jpg' }, 400);
      await expectRefused({}, 400);
    });

    it.each([
      ['spaces', 'AAAA AAAA'],
      ['URL-safe characters', 'ab-_cd=='],
      ['junk after the padding', 'QUJD=QUJD'],
      ['a wrong length', 'QUJDR'],
      ['a line break', 'QUJD\nQUJD'],
      ['another data URL', 'data:image/svg+xml;base64,PHN2Zz4='],
    ])('not base64: %s', async (_label, imageData) => {
      await expectRefused({ imageData, filename: 'a.jpg' }, 400, /base64/);
    });

    it('10485761 decoded bytes', async () => {
      const big = Buffer.concat([jpeg, Buffer.alloc(10_485_761 - jpeg.length)]);
      const encoded = b64(big);
      expect(encoded.length).toBeLessThan(UPLOAD_BODY_LIMIT_BYTES);
      await expectRefused({ imageData: encoded, filename: 'big.jpg' }, 413, /File size must be less than 10MB/);
    });

    it('a body over the limit', async () => {
      const body = await expectRefused({ imageData: 'A'.repeat(UPLOAD_BODY_LIMIT_BYTES), filename: 'huge.jpg' }, 413, /10MB/);
      expect(body.error).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
    });

    it('a body over the global limit on any other route', async () => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/users/profile',
        headers: { ...sameOrigin, 'content-type': 'application/json', cookie: alice.cookie },
        payload: JSON.stringify({ username: 'x'.repeat(1_100_000) }),
      });
      expect(res.statusCode).toBe(413);
    });

    it.each([
      ['gif', () => sharp({ create: { width: 400, height: 400, channels: 3, background: '#888' } }).gif().toBuffer()],
      ['webp', () => sharp({ create: { width: 400, height: 400, channels: 3, background: '#888' } }).webp().toBuffer()],
      ['svg', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(1)</script></svg>')],
      ['html', async () => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>')],
      ['pdf', async () => Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')],
    ])('a %s renamed .jpg or .png', async (_label, make) => {
      const bytes = await make();
      await expectRefused({ imageData: b64(bytes), filename: 'photo.jpg' }, 415, /JPEG or PNG/);
      await expectRefused({ imageData: b64(bytes), filename: 'photo.png' }, 415, /JPEG or PNG/);
    });

    it('a truncated JPEG', async () => {
      await expectRefused({ imageData: b64(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))), filename: 'cut.jpg' }, 422, /could not be read/);
    });

    it('a truncated PNG', async () => {
      const png = await makePng();
      await expectRefused({ imageData: b64(png.subarray(0, png.length - 30)), filename: 'cut.png' }, 422);
    });

    it('a PNG bomb (30000x30000, one colour)', async () => {
      const bomb = makePngBomb();
      expect(bomb.length).toBeLessThan(200_000);
      const started = Date.now();
      await expectRefused({ imageData: b64(bomb), filename: 'bomb.png' }, 422, /too large/);
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('a progressive JPEG with thousands of scans, before decoding it', async () => {
      const bomb = await makeManyScanJpeg();
      expect(jpegStructure(bomb)?.scans).toBe(2_647);
      expect(bomb.length).toBeLessThan(10_485_760);
      const started = Date.now();
      const body = await expectRefused({ imageData: b64(bomb), filename: 'scans.jpg' }, 422, /takes too long to read/);
      expect(body.error).toBe('IMAGE_TOO_COMPLEX');
      // Decoding it would take the whole decode time limit; the structure check answers at once.
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('too small, too long', async () => {
      await expectRefused({ imageData: b64(await makeJpeg(300, 200)), filename: 'tiny.jpg' }, 422, /too small/);
      await expectRefused({ imageData: b64(await makeJpeg(8001, 400)), filename: 'long.jpg' }, 422, /too large/);
    });

    it('polyglots', async () => {
      const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
      // A JPEG with a page glued after it.
      await expectRefused({ imageData: b64(Buffer.concat([jpeg, html])), filename: 'poly.jpg' }, 422, /data after the end/);
      // A PNG with a ZIP glued after it.
      const zip = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(60, 1)]);
      await expectRefused({ imageData: b64(Buffer.concat([await makePng(), zip])), filename: 'poly.png' }, 422, /data after the end/);
      // JPEG magic bytes, then a page.
      await expectRefused({ imageData: b64(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), html])), filename: 'poly.jpg' }, 422);
    });

    it('a path-traversal file name', async () => {
      for (const filename of ['../../etc/passwd', '..\\..\\windows\\win.ini', '/etc/passwd', '..', 'a\u0000.jpg']) {
        await expectRefused({ imageData: b64(jpeg), filename }, 400, /file name/);
      }
    });

    it('no session, cross-site, or not JSON', async () => {
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { ...sameOrigin, 'content-type': 'application/json' },
        payload: JSON.stringify({ imageData: b64(jpeg), filename: 'a.jpg' }),
      });
      expect(anonymous.statusCode).toBe(401);
      const cross = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json', cookie: alice.cookie },
        payload: JSON.stringify({ imageData: b64(jpeg), filename: 'a.jpg' }),
      });
      expect(cross.statusCode).toBe(403);
      const text = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { ...sameOrigin, 'content-type': 'text/plain', cookie: alice.cookie },
        payload: JSON.stringify({ imageData: b64(jpeg), filename: 'a.jpg' }),
      });
      expect(text.statusCode).toBe(415);
    });
  });

  it("ten decode bombs from one account: all refused, nothing of theirs stored, another user's upload in parallel succeeds", async () => {
    const bomb = b64(await makeManyScanJpeg());
    const rowsOf = async (userId: string) => (await t.container.database.db.select().from(images)).filter((r) => r.userId === userId).length;
    const [aliceBefore, bobBefore] = [await rowsOf(alice.id), await rowsOf(bob.id)];
    const attack = Array.from({ length: 10 }, () => upload({ imageData: bomb, filename: 'scans.jpg' }));
    const [bobs, ...refused] = await Promise.all([upload({ imageData: b64(jpeg), filename: 'room.jpg' }, bob.cookie), ...attack]);
    expect(bobs?.statusCode, bobs?.body).toBe(201);
    for (const res of refused) expect([422, 429], res.body).toContain(res.statusCode);
    expect(await rowsOf(alice.id)).toBe(aliceBefore);
    expect(await rowsOf(bob.id)).toBe(bobBefore + 1);
  });

  it("answers 404 for another user's image and its thumbnail, and for unknown or malformed ids", async () => {
    const { imageUrl } = (await upload({ imageData: b64(jpeg), filename: 'mine.jpg' })).json();
    for (const url of [imageUrl, `${imageUrl}/thumbnail`, `${imageUrl}?download=1`]) {
      const res = await get(url, bob.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Image not found', error: 'NOT_FOUND' });
      expect(res.headers.etag).toBeUndefined();
    }
    expect((await get('/api/images/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/api/images/not-a-uuid')).statusCode).toBe(404);
    expect((await get('/api/images/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(401);
  });
});

describe('the upload rate limit', () => {
  it('answers 429 {message} per user past UPLOAD_RATE_LIMIT a minute', async () => {
    const t = await createTestApp({ env: { UPLOAD_RATE_LIMIT: '2' } });
    try {
      const alice = await createSignedInUser(t, { name: 'alice' });
      const bob = await createSignedInUser(t, { name: 'bob' });
      const upload = (cookie: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/upload',
          headers: { ...sameOrigin, 'content-type': 'application/json', cookie },
          payload: JSON.stringify({ imageData: '', filename: 'a.jpg' }),
        });
      expect((await upload(alice.cookie)).statusCode).toBe(400);
      expect((await upload(alice.cookie)).statusCode).toBe(400);
      const limited = await upload(alice.cookie);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/Too many uploads/);
      expect((await upload(bob.cookie)).statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });
});
