import { createHash } from 'node:crypto';
import { IMAGE_LIMITS, MAX_UPLOAD_BYTES } from '@roomstager/contracts';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { BadRequestError } from '../errors.ts';
import { UploadRejectedError } from './errors.ts';

/**
 * Pure image-file rules shared by uploads and the worker: strict base64,
 * magic bytes, structure (nothing after the image's end), header limits before any pixel is
 * decoded, then a full decode, auto-orientation and a re-encode that drops all metadata.
 */

export const JPEG_QUALITY = 92;
export const THUMBNAIL_WIDTH = 400;
const THUMBNAIL_QUALITY = 78;

/** Sharp's options for untrusted input: a tight pixel limit and warnings treated as errors. */
const UNTRUSTED: SharpOptions = { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'warning' };

export const MESSAGES = {
  notBase64: 'The image data is not valid base64.',
  tooLarge: 'File size must be less than 10MB.',
  wrongType: 'Please upload a JPEG or PNG image file.',
  unreadable: 'This image could not be read. Please upload a complete JPEG or PNG file.',
  trailingData: 'This file contains data after the end of the image. Please save it as a plain JPEG or PNG and try again.',
  tooManyPixels: `The image is too large: at most ${IMAGE_LIMITS.maxLongSide} pixels on its longer side and ${IMAGE_LIMITS.maxPixels / 1_000_000} megapixels.`,
  tooSmall: `The image is too small: its shorter side must be at least ${IMAGE_LIMITS.minShortSide} pixels.`,
  tooComplex: 'This JPEG is saved in an unusual way that takes too long to read. Please save it again as a standard JPEG and try again.',
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL_PREFIXES = ['data:image/jpeg;base64,', 'data:image/png;base64,', 'data:image/jpg;base64,'];

/**
 * Decodes the upload's base64 after checking it strictly (Buffer.from silently skips bad
 * characters): only the standard alphabet, padded to a multiple of 4, and a decoded size
 * computed from the length before anything is allocated. A data URL prefix of a JPEG or PNG
 * is tolerated, nothing else.
 */
export function decodeBase64Image(input: string): Buffer {
  let data = input;
  const prefix = DATA_URL_PREFIXES.find((p) => data.startsWith(p));
  if (prefix) data = data.slice(prefix.length);
  if (data.length === 0) throw new BadRequestError('No image data');
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw new UploadRejectedError('INVALID_BASE64', MESSAGES.notBase64);
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const decodedBytes = (data.length / 4) * 3 - padding;
  if (decodedBytes > MAX_UPLOAD_BYTES) throw new UploadRejectedError('FILE_TOO_LARGE', MESSAGES.tooLarge);
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== decodedBytes) throw new UploadRejectedError('INVALID_BASE64', MESSAGES.notBase64);
  return bytes;
}

export type ImageFormat = 'jpeg' | 'png';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JPEG or PNG by their magic bytes; null for anything else, whatever its name says. */
export function sniffFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  return null;
}

/**
 * Where the image's own data ends (the byte after the PNG IEND chunk, or after the JPEG EOI that
 * follows the last scan) and its JPEG scan count (0 for a PNG), or null when the structure is
 * broken. Whatever comes after the end is another file glued on: the polyglot trick.
 */
function imageStructure(bytes: Buffer, format: ImageFormat): { end: number; scans: number } | null {
  if (format === 'jpeg') return jpegStructure(bytes);
  const end = pngEnd(bytes);
  return end === null ? null : { end, scans: 0 };
}

function pngEnd(bytes: Buffer): number | null {
  let pos = 8;
  while (pos + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const next = pos + 12 + length;
    if (next > bytes.length) return null;
    if (type === 'IEND') return next;
    pos = next;
  }
  return null;
}

/** Where a JPEG ends (after the EOI that follows its last scan) and how many scans (SOS segments) it has. */
export function jpegStructure(bytes: Buffer): { end: number; scans: number } | null {
  let pos = 2; // after SOI
  let scans = 0;
  const n = bytes.length;
  while (pos < n) {
    if (bytes[pos] !== 0xff) return null;
    while (pos < n && bytes[pos] === 0xff) pos++; // fill bytes
    if (pos >= n) return null;
    const marker = bytes[pos] as number;
    pos++;
    if (marker === 0xd9) return { end: pos, scans }; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (pos + 2 > n) return null;
    const length = bytes.readUInt16BE(pos);
    if (length < 2) return null;
    pos += length;
    if (pos > n) return null;
    if (marker === 0xda) {
      scans++;
      // Entropy-coded data: runs until a marker other than a stuffed 0x00 or a restart marker.
      while (pos < n) {
        if (bytes[pos] === 0xff) {
          const next = bytes[pos + 1];
          if (next === undefined) return null;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
            pos += next === 0xff ? 1 : 2;
            continue;
          }
          break;
        }
        pos++;
      }
    }
  }
  return null;
}

/**
 * What may follow an image: padding (zeros, 0xFF fill, line ends), and after a JPEG the further
 * JPEGs of the Multi-Picture Format (the HDR gain map of iPhone and Ultra HDR photos, camera
 * previews) and the video of a motion photo (an ISO-BMFF file, 'ftyp' box first). Anything else
 * (HTML, a ZIP, a script) is a second file glued on: the polyglot trick.
 */
export function acceptableTrailer(rest: Buffer, format: ImageFormat): boolean {
  let pos = 0;
  while (pos < rest.length) {
    const b = rest[pos] as number;
    if (b === 0x00 || b === 0xff || b === 0x0a || b === 0x0d) {
      if (format === 'jpeg' && b === 0xff && rest[pos + 1] === 0xd8 && rest[pos + 2] === 0xff) {
        const inner = jpegStructure(rest.subarray(pos));
        if (!inner) return false;
        pos += inner.end;
        continue;
      }
      pos++;
      continue;
    }
    if (format === 'jpeg' && rest.length - pos >= 12 && rest.toString('latin1', pos + 4, pos + 8) === 'ftyp') return true;
    return false;
  }
  return true;
}

export interface NormalisedImage {
  /** High-quality JPEG, auto-oriented, without EXIF, GPS, XMP, IPTC or ICC metadata. */
  jpeg: Buffer;
  width: number;
  height: number;
  sha256: string;
}

const isPixelLimit = (err: unknown) => /pixel limit/i.test(String((err as Error)?.message));
const isTimeout = (err: unknown) => /timeout/i.test(String((err as Error)?.message));

/**
 * Decode-cost limits, checked from the file's structure and header before any pixel is decoded.
 * Cameras and editors write 1-20 scans (baseline 1, libjpeg's progressive 10, mozjpeg ~12); a
 * file with thousands takes minutes of CPU at the size limit.
 */
export const MAX_JPEG_SCANS = 64;
/** Scans x pixels: at most 24 passes over the largest picture allowed. */
const MAX_SCAN_PIXELS = 24 * IMAGE_LIMITS.maxPixels;
/** No upload's decode and re-encode may take longer than this (a normal 40 MP photo takes ~2 s). */
const DECODE_TIMEOUT_SECONDS = 15;

/**
 * The whole upload check after the base64: magic bytes, structure, header dimensions against
 * IMAGE_LIMITS (before decoding pixels), then the full decode and re-encode.
 */
export async function normaliseUpload(bytes: Buffer): Promise<NormalisedImage> {
  const format = sniffFormat(bytes);
  if (!format) throw new UploadRejectedError('UNSUPPORTED_IMAGE_TYPE', MESSAGES.wrongType);
  const structure = imageStructure(bytes, format);
  if (!structure) throw new UploadRejectedError('UNREADABLE_IMAGE', MESSAGES.unreadable);
  if (structure.end < bytes.length && !acceptableTrailer(bytes.subarray(structure.end), format)) {
    throw new UploadRejectedError('TRAILING_DATA', MESSAGES.trailingData);
  }
  if (structure.scans > MAX_JPEG_SCANS) throw new UploadRejectedError('IMAGE_TOO_COMPLEX', MESSAGES.tooComplex);

  let meta: Metadata;
  try {
    meta = await sharp(bytes, UNTRUSTED).metadata();
  } catch (err) {
    if (isPixelLimit(err)) throw new UploadRejectedError('IMAGE_TOO_LARGE', MESSAGES.tooManyPixels);
    throw new UploadRejectedError('UNREADABLE_IMAGE', MESSAGES.unreadable);
  }
  if (meta.format !== format) throw new UploadRejectedError('UNSUPPORTED_IMAGE_TYPE', MESSAGES.wrongType);
  checkDimensions(meta.width, meta.height);
  // A progressive JPEG is decoded once per scan over the whole picture: its cost is pixels x scans.
  if (structure.scans * (meta.width ?? 0) * (meta.height ?? 0) > MAX_SCAN_PIXELS) {
    throw new UploadRejectedError('IMAGE_TOO_COMPLEX', MESSAGES.tooComplex);
  }

  try {
    const { data, info } = await sharp(bytes, UNTRUSTED)
      .rotate()
      .jpeg({ quality: JPEG_QUALITY })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height, sha256: sha256(data) };
  } catch (err) {
    if (isPixelLimit(err)) throw new UploadRejectedError('IMAGE_TOO_LARGE', MESSAGES.tooManyPixels);
    if (isTimeout(err)) throw new UploadRejectedError('IMAGE_TOO_COMPLEX', MESSAGES.tooComplex);
    throw new UploadRejectedError('UNREADABLE_IMAGE', MESSAGES.unreadable);
  }
}

export function checkDimensions(width: number | undefined, height: number | undefined): void {
  if (!width || !height) throw new UploadRejectedError('UNREADABLE_IMAGE', MESSAGES.unreadable);
  if (Math.max(width, height) > IMAGE_LIMITS.maxLongSide || width * height > IMAGE_LIMITS.maxPixels) {
    throw new UploadRejectedError('IMAGE_TOO_LARGE', MESSAGES.tooManyPixels);
  }
  if (Math.min(width, height) < IMAGE_LIMITS.minShortSide) throw new UploadRejectedError('IMAGE_TOO_SMALL', MESSAGES.tooSmall);
}

/**
 * An engine's result as the stored JPEG: a JPEG within the limits is kept byte for byte,
 * anything else (PNG, WebP from a remote provider) is decoded and re-encoded.
 */
export async function normaliseEngineOutput(bytes: Buffer): Promise<NormalisedImage> {
  const options: SharpOptions = { limitInputPixels: IMAGE_LIMITS.maxPixels * 2, failOn: 'error' };
  const meta = await sharp(bytes, options).metadata();
  if (!meta.width || !meta.height) throw new Error('The engine answered an image without dimensions');
  if (meta.format === 'jpeg' && !meta.exif && !meta.xmp && !meta.iptc && (meta.orientation ?? 1) === 1) {
    return { jpeg: bytes, width: meta.width, height: meta.height, sha256: sha256(bytes) };
  }
  const { data, info } = await sharp(bytes, options).rotate().jpeg({ quality: JPEG_QUALITY }).toBuffer({ resolveWithObject: true });
  return { jpeg: data, width: info.width, height: info.height, sha256: sha256(data) };
}

/** Side of the grey thumbnails compared by addsSomething, and the share of them that must change. */
const COMPARE_SIDE = 64;
const MIN_CHANGED_SHARE = 0.005;
const CHANGED_LEVELS = 12;

/**
 * Whether a staged result visibly differs from the photo it was made from: compared as 64x64 grey
 * thumbnails, at least 0.5% of them (20 cells, a small chair at listing size) must change by more
 * than 12 of 255 levels. Engines answer in the photo's own framing, so the cells line up.
 */
export async function addsSomething(original: Buffer, staged: Buffer): Promise<boolean> {
  const thumb = (bytes: Buffer) =>
    sharp(bytes, { limitInputPixels: IMAGE_LIMITS.maxPixels * 2 }).resize(COMPARE_SIDE, COMPARE_SIDE, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [a, b] = await Promise.all([thumb(original), thumb(staged)]);
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) > CHANGED_LEVELS) changed++;
  return changed >= MIN_CHANGED_SHARE * a.length;
}

/** The gallery card's WebP, THUMBNAIL_WIDTH wide (never enlarged). */
export async function makeThumbnail(jpeg: Buffer): Promise<Buffer> {
  return sharp(jpeg, { limitInputPixels: IMAGE_LIMITS.maxPixels * 2 })
    .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
    .webp({ quality: THUMBNAIL_QUALITY })
    .toBuffer();
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
