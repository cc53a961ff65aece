import { IMAGE_LIMITS } from '@roomstager/contracts';
import sharp, { type SharpOptions } from 'sharp';
import { InvalidImageError } from '../engine.ts';

/** Longest side of the photo sent to a provider (the models work at about 1 megapixel). */
export const UPLOAD_LONG_SIDE = 2048;
/** Output JPEG quality. */
const OUTPUT_QUALITY = 90;
/** An answer whose shape is off by less than this is only resized (a rounding of the model). */
const SAME_SHAPE_TOLERANCE = 0.01;
/** Cropping back to the original framing may drop at most this share of the answer; past it we pad. */
const MAX_CROP_LOSS = 0.2;

const decodeOptions: SharpOptions = { limitInputPixels: IMAGE_LIMITS.maxPixels * 2, failOn: 'error' };

export interface PreparedInput {
  /** The photo as sent: upright, at most UPLOAD_LONG_SIDE, JPEG without metadata. */
  bytes: Buffer;
  contentType: 'image/jpeg';
  /** The original's upright size: the answer is brought back to it. */
  width: number;
  height: number;
}

/** The photo as a provider receives it. */
export async function prepareInput(image: Buffer): Promise<PreparedInput> {
  try {
    const meta = await sharp(image, decodeOptions).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    const swap = (meta.orientation ?? 1) >= 5;
    const width = swap ? meta.height : meta.width;
    const height = swap ? meta.width : meta.height;
    const bytes = await sharp(image, decodeOptions)
      .rotate()
      .resize({ width: UPLOAD_LONG_SIDE, height: UPLOAD_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: OUTPUT_QUALITY })
      .toBuffer();
    return { bytes, contentType: 'image/jpeg', width, height };
  } catch (err) {
    throw new InvalidImageError('The photo could not be decoded for the staging provider', { cause: err });
  }
}

export type FitMode = 'resize' | 'crop' | 'pad';

/** How an answer of one shape is brought back to the original's framing. */
export function fitMode(outWidth: number, outHeight: number, width: number, height: number): FitMode {
  const ratio = outWidth / outHeight / (width / height);
  if (Math.abs(ratio - 1) < SAME_SHAPE_TOLERANCE) return 'resize';
  // Share of the answer kept by a centred crop to the original's aspect ratio.
  const kept = Math.min(ratio, 1 / ratio);
  return 1 - kept <= MAX_CROP_LOSS ? 'crop' : 'pad';
}

/**
 * A provider's answer at the original's size and aspect ratio, as a JPEG without metadata: resized
 * when the shape matches; else centre-cropped when that drops little, else fitted inside and padded
 * by extending its edges. Throws for an undecodable answer (the caller turns it into a failure).
 */
export async function fitToOriginal(output: Buffer, width: number, height: number): Promise<Buffer> {
  const upright = await sharp(output, decodeOptions).rotate().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = upright.info;
  const mode = fitMode(w, h, width, height);
  let pipeline = sharp(upright.data, decodeOptions).flatten({ background: '#ffffff' });
  if (mode === 'resize') {
    pipeline = pipeline.resize({ width, height, fit: 'fill' });
  } else if (mode === 'crop') {
    pipeline = pipeline.resize({ width, height, fit: 'cover', position: 'centre' });
  } else {
    const scale = Math.min(width / w, height / h);
    const innerW = Math.min(width, Math.max(1, Math.round(w * scale)));
    const innerH = Math.min(height, Math.max(1, Math.round(h * scale)));
    const left = Math.floor((width - innerW) / 2);
    const top = Math.floor((height - innerH) / 2);
    pipeline = pipeline
      .resize({ width: innerW, height: innerH, fit: 'fill' })
      .extend({ left, right: width - innerW - left, top, bottom: height - innerH - top, extendWith: 'copy' });
  }
  // sharp writes no metadata unless asked (no EXIF, ICC, XMP).
  return pipeline.jpeg({ quality: OUTPUT_QUALITY }).toBuffer();
}
