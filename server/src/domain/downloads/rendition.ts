import { DOWNLOAD_LONG_SIDE, IMAGE_LIMITS, type DownloadSize } from '@roomstager/contracts';
import sharp from 'sharp';
import { labelOverlay } from './label.ts';

/** Downloads are for print and listing sites: a touch below the stored quality, visually the same. */
const DOWNLOAD_JPEG_QUALITY = 90;

/** The size of an image fitted inside a square of `longSide`, never enlarged. */
export function fittedSize(width: number, height: number, longSide: number): { width: number; height: number } {
  const scale = Math.min(1, longSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A staged JPEG at a download size (its long side at most the size's, never enlarged), with the
 * "Virtually Staged" stamp in its corner when asked for; no metadata.
 */
export async function renderDownload(jpeg: Buffer, size: DownloadSize, label: boolean): Promise<Buffer> {
  const options = { limitInputPixels: IMAGE_LIMITS.maxPixels * 2 };
  const meta = await sharp(jpeg, options).metadata();
  if (!meta.width || !meta.height) throw new Error('A stored image without dimensions');
  const target = fittedSize(meta.width, meta.height, DOWNLOAD_LONG_SIDE[size]);
  let pipeline = sharp(jpeg, options).resize({ ...target, fit: 'fill', kernel: 'lanczos3' });
  if (label) {
    const { input, left, top } = await labelOverlay(target.width, target.height);
    pipeline = pipeline.composite([{ input, left, top }]);
  }
  return pipeline.jpeg({ quality: DOWNLOAD_JPEG_QUALITY }).toBuffer();
}
