import { IMAGE_LIMITS } from '@roomstager/contracts';
import sharp, { type Metadata } from 'sharp';
import { InvalidImageError } from '../engine.ts';

/** 8-bit sRGB, three interleaved channels. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Decodes, auto-orients (EXIF), flattens alpha onto white and converts any colour space
 * (greyscale, CMYK, 16-bit) to 8-bit sRGB. Anything sharp cannot decode, a truncated file, or a
 * size outside IMAGE_LIMITS is an InvalidImageError.
 */
export async function decodeImage(bytes: Buffer): Promise<RgbImage> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new InvalidImageError('The file is not a readable image.', { cause: err });
  }
  const swap = (meta.orientation ?? 1) >= 5;
  const w = swap ? meta.height : meta.width;
  const h = swap ? meta.width : meta.height;
  if (!w || !h) throw new InvalidImageError('The image has no dimensions.');
  const short = Math.min(w, h);
  const long = Math.max(w, h);
  if (short < IMAGE_LIMITS.minShortSide || long > IMAGE_LIMITS.maxLongSide || w * h > IMAGE_LIMITS.maxPixels) {
    throw new InvalidImageError(`The image size ${w}x${h} is outside the accepted limits.`);
  }
  try {
    // failOn 'warning' (sharp's default) also catches corrupt entropy data mid-file, which
    // libjpeg would otherwise decode as grey blocks.
    const { data, info } = await sharp(bytes, { failOn: 'warning', limitInputPixels: IMAGE_LIMITS.maxPixels })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected channel count ${info.channels}`);
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (err) {
    throw new InvalidImageError('The image is corrupt or truncated.', { cause: err });
  }
}

export async function resizeRgb(img: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (img.width === width && img.height === height) return img;
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export async function encodeJpeg(img: RgbImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    // Optimised Huffman coding buffers the whole image's coefficients (~6 bytes a pixel at
    // 4:4:4); beyond 16 MP plain streaming coding keeps memory flat.
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4', mozjpeg: false, optimiseCoding: img.width * img.height <= 16e6 })
    .toBuffer();
}

export async function encodePng(img: RgbImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).png().toBuffer();
}

/** Working size with the longer side at most `longSide` (never upscaled). */
export function fitSize(width: number, height: number, longSide: number): { width: number; height: number } {
  const s = Math.min(1, longSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * s)), height: Math.max(1, Math.round(height * s)) };
}

export const SRGB_TO_LINEAR = (() => {
  const t = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    t[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  }
  return t;
})();

const LIN_TO_SRGB = (() => {
  const t = new Uint8Array(4097);
  for (let i = 0; i <= 4096; i++) {
    const c = i / 4096;
    const s = c <= 0.0031308 ? c * 12.92 : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
    t[i] = Math.round(Math.min(1, Math.max(0, s)) * 255);
  }
  return t;
})();

export function linearToSrgb8(v: number): number {
  const i = v <= 0 ? 0 : v >= 1 ? 4096 : Math.round(v * 4096);
  return LIN_TO_SRGB[i] ?? 0;
}

/**
 * The bytes in a fresh ArrayBuffer of their own, which a worker can transfer to its parent: a
 * Buffer from sharp may sit in memory that Node 22 refuses to transfer (DataCloneError).
 */
export function transferableCopy(bytes: Buffer): Uint8Array {
  return new Uint8Array(bytes);
}
