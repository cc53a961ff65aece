import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { InvalidImageError, type StageInput, type StageOutput, type StagingEngine } from '../../src/staging/engine.ts';

/** Draws a coloured box on the photo: a quick, deterministic stand-in for the local engine. */
export class DrawingEngine implements StagingEngine {
  readonly name: string = 'drawing';
  calls = 0;
  async stage(input: StageInput): Promise<StageOutput> {
    this.calls++;
    input.signal.throwIfAborted();
    const meta = await sharp(input.image).metadata();
    const w = Math.round((meta.width ?? 400) / 3);
    const h = Math.round((meta.height ?? 300) / 3);
    const box = await sharp({ create: { width: w, height: h, channels: 3, background: { r: 180, g: 40, b: 40 } } }).png().toBuffer();
    const image = await sharp(input.image).composite([{ input: box, top: h, left: w }]).jpeg({ quality: 85 }).toBuffer();
    return { image, contentType: 'image/jpeg' };
  }
}

export class FailingEngine implements StagingEngine {
  readonly name = 'failing';
  calls = 0;
  constructor(private readonly error: () => Error = () => new Error('boom')) {}
  async stage(): Promise<StageOutput> {
    this.calls++;
    throw this.error();
  }
}

/** Fails with a transient error `failures` times, then draws. */
export class FlakyEngine extends DrawingEngine {
  override readonly name = 'flaky';
  constructor(private failures: number) {
    super();
  }
  override async stage(input: StageInput): Promise<StageOutput> {
    if (this.failures > 0) {
      this.failures--;
      this.calls++;
      throw Object.assign(new Error('503 from the provider'), { status: 503 });
    }
    return super.stage(input);
  }
}

/** Never answers until aborted (honours the signal), or ignores the signal when `deaf`. */
export class HangingEngine implements StagingEngine {
  readonly name = 'hanging';
  calls = 0;
  started = deferred();
  constructor(private readonly deaf = false) {}
  stage(input: StageInput): Promise<StageOutput> {
    this.calls++;
    this.started.resolve();
    return new Promise((_resolve, reject) => {
      if (!this.deaf) input.signal.addEventListener('abort', () => reject(input.signal.reason), { once: true });
    });
  }
}

/** Draws after a gate is opened by the test. */
export class GatedEngine extends DrawingEngine {
  override readonly name = 'gated';
  started = deferred();
  gate = deferred();
  override async stage(input: StageInput): Promise<StageOutput> {
    this.started.resolve();
    await this.gate.promise;
    return super.stage(input);
  }
}

/** A promise and its resolve function (Promise.withResolvers is ES2024; this project targets ES2023). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const invalidImageError = () => new InvalidImageError('not a room');

/** A plain photo-like JPEG (gradient plus noise-free shapes), width x height. */
export async function makeJpeg(width = 640, height = 480, options: { orientation?: number; gps?: boolean } = {}): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 190, b: 170 } } }).composite([
    {
      input: await sharp({ create: { width: Math.round(width / 4), height: Math.round(height / 2), channels: 3, background: { r: 30, g: 60, b: 120 } } })
        .png()
        .toBuffer(),
      top: 0,
      left: 0,
    },
  ]);
  let img = sharp(await base.jpeg().toBuffer());
  if (options.orientation || options.gps) {
    img = img.withMetadata({ orientation: options.orientation ?? 1 }).withExifMerge({
      IFD0: { Make: 'TestCam', Model: 'Secret Model' },
      ...(options.gps ? { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4020/100' } } : {}),
    });
  }
  return img.jpeg({ quality: 90 }).toBuffer();
}

/**
 * The structure of a decode-cost bomb: a progressive JPEG whose last scan is repeated until it has
 * `scans` scans (cameras write 1-20). Each 0xFFDA in a JPEG is a real marker: entropy-coded data
 * escapes every 0xFF.
 */
export async function makeManyScanJpeg(scans = 2_647, width = 1600, height = 1200): Promise<Buffer> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: { r: 180, g: 170, b: 160 } } })
    .jpeg({ progressive: true })
    .toBuffer();
  const own = jpeg.toString('latin1').split('\xff\xda').length - 1;
  const last = jpeg.lastIndexOf(Buffer.from([0xff, 0xda]));
  const scan = jpeg.subarray(last, jpeg.length - 2);
  return Buffer.concat([jpeg.subarray(0, jpeg.length - 2), ...Array<Buffer>(scans - own).fill(scan), Buffer.from([0xff, 0xd9])]);
}

export async function makePng(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 130, b: 140 } } }).png().toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([len, typeAndData, crc]);
}

let crcTable: Uint32Array | undefined;
function crc32(buf: Buffer): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A real decompression bomb: a valid 30000x30000 one-colour PNG (1-bit grey), about 100 KB. */
export function makePngBomb(size = 30_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(size / 8);
  const raw = Buffer.alloc(rowBytes * size); // filter byte 0 and all-black pixels
  const idat = deflateSync(raw, { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const b64 = (b: Buffer) => b.toString('base64');
