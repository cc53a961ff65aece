import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROOM_TYPES, STYLES, type RoomType, type Style } from '@roomstager/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidImageError, NoRoomError } from '../../src/staging/engine.ts';
import { createLocalEngine, ThreadedLocalEngine } from '../../src/staging/local/index.ts';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url)));
// The default engine stages on a worker thread; the in-thread one must give the same bytes.
const engine = createLocalEngine();
const inThread = createLocalEngine({ thread: false });
afterAll(async () => {
  await engine.close?.();
});

async function stage(image: Buffer, style: Style = 'modern', roomType: RoomType = 'living_room', signal = new AbortController().signal) {
  return engine.stage({ image, contentType: 'image/jpeg', style, roomType, signal });
}

async function raw(buf: Buffer) {
  const { data, info } = await sharp(buf).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute difference per channel over a row range (fractions of the height). */
function meanDiff(a: { data: Buffer; width: number; height: number }, b: { data: Buffer }, y0 = 0, y1 = 1): number {
  const from = Math.floor(a.height * y0) * a.width * 3;
  const to = Math.floor(a.height * y1) * a.width * 3;
  let sum = 0;
  for (let i = from; i < to; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return sum / Math.max(1, to - from);
}

/** Tests that stage several photos, or a very large one: up to a minute on a slow, loaded 2-core machine. */
const HEAVY = 180_000;

describe('local staging engine', () => {
  const landscape = fixture('empty-open-plan-living-dining.jpg');
  const portrait = fixture('empty-living-portrait.jpg');
  let small: Buffer;

  beforeAll(async () => {
    // A reduced copy keeps the many-style tests quick; the engine's layout does not depend on size.
    small = await sharp(landscape).resize(960).jpeg({ quality: 92 }).toBuffer();
  });

  it('is named local', () => {
    expect(engine.name).toBe('local');
    expect(inThread.name).toBe('local');
  });

  // The thread's first job also compiles the engine for it: slow on a busy machine.
  it('gives the same bytes on the worker thread and on the calling thread, and keeps the event loop free', { timeout: HEAVY }, async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const threaded = await stage(small, 'traditional', 'bedroom');
    clearInterval(timer);
    const local = await inThread.stage({ image: small, contentType: 'image/jpeg', style: 'traditional', roomType: 'bedroom', signal: new AbortController().signal });
    expect(Buffer.compare(threaded.image, local.image)).toBe(0);
    // Staging takes hundreds of milliseconds; a blocked loop would tick a handful of times.
    expect(ticks).toBeGreaterThan(10);
  });

  it('stages on the calling thread when no worker can start', async () => {
    const broken = new ThreadedLocalEngine(new URL('./no-such-worker-entry.ts', import.meta.url));
    const [a, b] = await Promise.all([
      broken.stage({ image: small, contentType: 'image/jpeg', style: 'minimalist', roomType: 'office', signal: new AbortController().signal }),
      inThread.stage({ image: small, contentType: 'image/jpeg', style: 'minimalist', roomType: 'office', signal: new AbortController().signal }),
    ]);
    expect(Buffer.compare(a.image, b.image)).toBe(0);
    await broken.close();
  });

  it('warms up before its first job, or tries to: a warmed engine stages as before, and one whose worker cannot start still stages here', { timeout: HEAVY }, async () => {
    const job = { image: small, contentType: 'image/jpeg', style: 'modern', roomType: 'living_room', signal: new AbortController().signal } as const;
    const warmed = new ThreadedLocalEngine();
    const broken = new ThreadedLocalEngine(new URL('./no-such-worker-entry.ts', import.meta.url));
    await Promise.all([warmed.warm(), warmed.warm(), broken.warm()]);
    // Its thread is up before any job; the broken engine's never came.
    const thread = (e: ThreadedLocalEngine) => (e as unknown as { worker: unknown }).worker;
    expect(thread(warmed)).not.toBeNull();
    expect(thread(broken)).toBeNull();
    const [a, b, c] = await Promise.all([warmed.stage(job), broken.stage(job), inThread.stage(job)]);
    expect(Buffer.compare(a.image, c.image)).toBe(0);
    expect(Buffer.compare(b.image, c.image)).toBe(0);
    await Promise.all([warmed.close(), broken.close()]);
  });

  it('stages a landscape photo: a JPEG of the same size, byte-identical when repeated', async () => {
    const a = await stage(landscape);
    const b = await stage(landscape);
    expect(a.contentType).toBe('image/jpeg');
    expect(Buffer.compare(a.image, b.image)).toBe(0);
    const meta = await sharp(a.image).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([2250, 1500]);
  });

  it('stages a portrait photo at its size and keeps the top of the room', async () => {
    const out = await stage(portrait, 'traditional');
    const meta = await sharp(out.image).metadata();
    expect([meta.width, meta.height]).toEqual([1049, 1400]);
    const before = await raw(portrait);
    const after = await raw(out.image);
    // Ceiling and upper walls change only by JPEG re-encoding: the room is not regraded.
    expect(meanDiff(before, after, 0, 0.15)).toBeLessThan(2);
    // ...while the room as a whole did get furniture.
    expect(meanDiff(before, after)).toBeGreaterThan(3);
  });

  it('leaves detected windows visible', async () => {
    const out = await stage(small, 'luxury');
    const before = await raw(small);
    const after = await raw(out.image);
    // The window on the back wall of this photo: around x 41-47%, y 34-50%.
    let sum = 0;
    let n = 0;
    for (let y = Math.floor(before.height * 0.34); y < before.height * 0.5; y++) {
      for (let x = Math.floor(before.width * 0.41); x < before.width * 0.47; x++) {
        for (let k = 0; k < 3; k++) sum += Math.abs((before.data[(y * before.width + x) * 3 + k] ?? 0) - (after.data[(y * before.width + x) * 3 + k] ?? 0));
        n += 3;
      }
    }
    expect(sum / n).toBeLessThan(10);
  });

  it('gives four clearly different styles, all different from the input', async () => {
    const input = await raw(small);
    const outs = [];
    for (const style of STYLES) outs.push(await raw((await stage(small, style)).image));
    for (let i = 0; i < outs.length; i++) {
      expect(meanDiff(input, outs[i]!)).toBeGreaterThan(3);
      for (let j = i + 1; j < outs.length; j++) expect(meanDiff(outs[i]!, outs[j]!)).toBeGreaterThan(2);
    }
  }, HEAVY);

  it('furnishes every room type differently', async () => {
    const outs = [];
    for (const roomType of ROOM_TYPES) {
      const out = await stage(small, 'modern', roomType);
      const meta = await sharp(out.image).metadata();
      expect([meta.width, meta.height]).toEqual([960, 640]);
      outs.push(await raw(out.image));
    }
    for (let i = 0; i < outs.length; i++) for (let j = i + 1; j < outs.length; j++) expect(meanDiff(outs[i]!, outs[j]!)).toBeGreaterThan(1);
  }, HEAVY);

  it.each([
    [320, 427],
    [333, 517],
    [641, 320],
  ])('handles a small, odd-sized image (%ix%i)', async (w, h) => {
    const img = await sharp(portrait).resize(w, h, { fit: 'fill' }).jpeg().toBuffer();
    const meta = await sharp((await stage(img, 'minimalist')).image).metadata();
    expect([meta.width, meta.height]).toEqual([w, h]);
  });

  it('handles a huge photo near the pixel limit', async () => {
    const huge = await sharp(landscape).resize(7600, 5200, { fit: 'fill' }).jpeg({ quality: 80 }).toBuffer();
    const meta = await sharp((await stage(huge, 'luxury')).image).metadata();
    expect([meta.width, meta.height]).toEqual([7600, 5200]);
  }, HEAVY);

  it('accepts PNG with alpha, greyscale and CMYK input', async () => {
    const png = await sharp(small).ensureAlpha(0.6).png().toBuffer();
    const grey = await sharp(small).greyscale().jpeg().toBuffer();
    const cmyk = await sharp(small).toColourspace('cmyk').jpeg().toBuffer();
    for (const image of [png, grey, cmyk]) {
      const meta = await sharp((await stage(image)).image).metadata();
      expect([meta.width, meta.height, meta.channels]).toEqual([960, 640, 3]);
    }
  }, HEAVY);

  it('auto-orients an EXIF-rotated photo', async () => {
    // Stored sideways with orientation 6: displayed as 960 wide, 640 high.
    const sideways = await sharp(small).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const meta = await sharp((await stage(sideways)).image).metadata();
    expect([meta.width, meta.height]).toEqual([960, 640]);
  });

  it('says it found no room in a photo that is not a room (nothing staged, nothing charged)', async () => {
    const noise = Buffer.alloc(500 * 400 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const img = await sharp(noise, { raw: { width: 500, height: 400, channels: 3 } }).png().toBuffer();
    await expect(stage(img)).rejects.toBeInstanceOf(NoRoomError);
  });

  it('rejects corrupt, truncated and non-image bytes with InvalidImageError', async () => {
    await expect(stage(landscape.subarray(0, Math.floor(landscape.length / 2)))).rejects.toBeInstanceOf(InvalidImageError);
    await expect(stage(Buffer.from('definitely not an image'))).rejects.toBeInstanceOf(InvalidImageError);
    const broken = Buffer.from(landscape);
    broken.fill(0x55, 2000, 40000);
    await expect(stage(broken)).rejects.toBeInstanceOf(InvalidImageError);
  });

  it('rejects images outside the size limits with InvalidImageError', async () => {
    const tiny = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888' } }).png().toBuffer();
    await expect(stage(tiny)).rejects.toBeInstanceOf(InvalidImageError);
  });

  it('rejects when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(stage(small, 'modern', 'living_room', ac.signal)).rejects.toThrow(/abort/i);
    const later = new AbortController();
    const pending = stage(small, 'modern', 'living_room', later.signal);
    later.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });
});
