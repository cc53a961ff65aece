import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { InvalidImageError } from '../../../src/staging/engine.ts';
import { fitMode, fitToOriginal, prepareInput } from '../../../src/staging/remote/image.ts';

async function solid(width: number, height: number, format: 'png' | 'jpeg' = 'png', alpha = false): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: alpha ? 4 : 3, background: alpha ? { r: 200, g: 100, b: 50, alpha: 0.5 } : { r: 200, g: 100, b: 50 } } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg().withMetadata({ exif: { IFD0: { Copyright: 'someone' } } }).toBuffer();
}

describe('remote engine images', () => {
  it('chooses resize, crop or pad from the shapes', () => {
    expect(fitMode(1024, 768, 4000, 3000)).toBe('resize');
    expect(fitMode(1536, 1024, 4000, 3000)).toBe('crop'); // 3:2 for 4:3 drops 11%
    expect(fitMode(1024, 1024, 4000, 3000)).toBe('pad'); // 1:1 for 4:3 would drop 25%
    expect(fitMode(1024, 1024, 1100, 1000)).toBe('crop');
  });

  it('returns the original size and aspect ratio as a JPEG without metadata', async () => {
    for (const [w, h] of [
      [1024, 768],
      [1536, 1024],
      [1024, 1024],
      [1024, 1536],
    ] as const) {
      const out = await fitToOriginal(await solid(w, h, 'png', true), 1200, 900);
      const meta = await sharp(out).metadata();
      expect(meta.format).toBe('jpeg');
      expect([meta.width, meta.height]).toEqual([1200, 900]);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.hasAlpha).toBe(false);
    }
    const fromJpeg = await sharp(await fitToOriginal(await solid(800, 600, 'jpeg'), 640, 480)).metadata();
    expect(fromJpeg.exif).toBeUndefined();
  });

  it('pads a portrait answer for a landscape photo rather than cropping most of it', async () => {
    expect(fitMode(1024, 1536, 1200, 800)).toBe('pad');
    // A red answer with a blue top row: padding keeps the whole answer, so the blue row survives.
    const answer = await sharp({ create: { width: 100, height: 150, channels: 3, background: '#ff0000' } })
      .composite([{ input: { create: { width: 100, height: 4, channels: 3, background: '#0000ff' } }, top: 0, left: 0 }])
      .png()
      .toBuffer();
    const out = await fitToOriginal(answer, 1200, 800);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1200, 800]);
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    expect(at(600, 5)[2]).toBeGreaterThan(150); // blue top row, not cropped away
    expect(at(600, 400)[0]).toBeGreaterThan(150); // red middle
  });

  it('prepares an upright, bounded JPEG and reports the original size', async () => {
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#888888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const prepared = await prepareInput(photo);
    expect([prepared.width, prepared.height]).toEqual([2000, 3000]);
    const meta = await sharp(prepared.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1365, 2048]);
    expect(meta.orientation).toBeUndefined();
    await expect(prepareInput(Buffer.from('not an image'))).rejects.toBeInstanceOf(InvalidImageError);
  });
});
