import sharp from 'sharp';
import type { RgbImage } from '../local/image.ts';
import { blurPlane, type Plane } from '../local/lines.ts';
import { lum, type ChangeMaps } from './change.ts';
import { components, morph, mul3, sample, scale3, type Mask, type Mat3 } from './planes.ts';
import type { Zones } from './zones.ts';

/** Specks smaller than this share of the working grid are noise, not furniture. */
const MIN_BLOB = 0.0002;
/** Shadows and soft edges reach this far (working pixels) beyond a changed blob. */
const SHADOW_REACH = 14;
/** Feathering of the added content's edge, in working pixels. */
const FEATHER = 1.2;

/**
 * What the model added and the lock keeps, 0..1 on the working grid: changes inside the staging
 * zone, opened (specks), closed (holes inside furniture), small blobs dropped, then feathered.
 */
export function addedMask(change: ChangeMaps, zones: Zones): Plane {
  const { width, height } = change;
  const n = width * height;
  const raw = new Uint8Array(n);
  for (let i = 0; i < n; i++) raw[i] = change.changed.data[i] && zones.staging.data[i] ? 1 : 0;
  let m: Mask = morph(morph({ width, height, data: raw }, -1), 1);
  m = morph(morph(m, 3), -3);
  const keep = new Uint8Array(n);
  for (const c of components(m)) if (c.pixels.length >= MIN_BLOB * n) for (const i of c.pixels) keep[i] = 1;
  for (let i = 0; i < n; i++) keep[i] = keep[i]! && zones.staging.data[i] && change.valid.data[i] ? 1 : 0;
  const grown = morph({ width, height, data: keep }, 1);
  const alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) alpha[i] = grown.data[i]!;
  return blurPlane({ width, height, data: alpha }, FEATHER);
}

/**
 * Darkening of the original next to what was added (shadows, contact occlusion), as a luminance
 * ratio on the working grid: applied to the original's own pixels, it keeps their full-resolution
 * texture. Only darkening is taken: a model's relighting elsewhere is not staging.
 */
export function shadowRatio(change: ChangeMaps, zones: Zones, added: Plane, colorMatch: ColorMatch): Plane {
  const { width, height } = change;
  const n = width * height;
  const near = new Uint8Array(n);
  for (let i = 0; i < n; i++) near[i] = added.data[i]! > 0.5 ? 1 : 0;
  const reach = morph({ width, height, data: near }, SHADOW_REACH);
  const ratio = new Float32Array(n).fill(1);
  const lo = blurPlane({ width, height, data: Float32Array.from({ length: n }, (_, i) => lum(change.original, i)) }, 2).data;
  const la = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!change.valid.data[i]) continue;
    const rgb = colorMatch.apply(change.registered[0].data[i]!, change.registered[1].data[i]!, change.registered[2].data[i]!);
    la[i] = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
  }
  const laBlur = blurPlane({ width, height, data: la }, 2).data;
  for (let i = 0; i < n; i++) {
    if (!reach.data[i] || !zones.staging.data[i] || !change.valid.data[i] || lo[i]! < 0.02) continue;
    const r = laBlur[i]! / lo[i]!;
    if (r < 0.97) ratio[i] = Math.max(0.25, r);
  }
  return blurPlane({ width, height, data: ratio }, 2);
}

/** Per-channel affine map from the answer's colours to the original's. */
export interface ColorMatch {
  gain: [number, number, number];
  offset: [number, number, number];
  apply(r: number, g: number, b: number): [number, number, number];
}

/**
 * Fitted on pixels the model left unchanged around what it added (the floor and walls the
 * furniture stands on), so the added content takes the original's white balance and exposure.
 */
export function fitColorMatch(change: ChangeMaps, zones: Zones): ColorMatch {
  const gain: [number, number, number] = [1, 1, 1];
  const offset: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (let i = 0; i < change.color.length; i += 3) {
      if (!change.valid.data[i] || !zones.staging.data[i] || change.strength[i]! > 0.6) continue;
      const x = change.registered[c]!.data[i]!;
      const y = change.original[c]!.data[i]!;
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    const v = sxx - (sx * sx) / Math.max(1, n);
    if (n < 200 || v < 1e-6) continue;
    const g = Math.min(1.5, Math.max(0.67, (sxy - (sx * sy) / n) / v));
    gain[c] = g;
    offset[c] = (sy - g * sx) / n;
  }
  return {
    gain,
    offset,
    apply: (r, g, b) => [gain[0] * r + offset[0], gain[1] * g + offset[1], gain[2] * b + offset[2]],
  };
}

/**
 * The locked result at the original's full resolution: the original's pixels everywhere, darkened
 * by `shadow`, and the answer's (colour-matched, registered) where `added` says. `h` maps
 * original working pixels to answer working pixels; the working grids are the two images scaled
 * to `workOriginal` and `workAnswer` widths. `inPlace` writes into the original's pixels.
 */
export function compose(
  original: RgbImage,
  answer: RgbImage,
  h: Mat3,
  work: { original: { width: number; height: number }; answer: { width: number; height: number } },
  added: Plane,
  shadow: Plane,
  colorMatch: ColorMatch,
  inPlace: boolean,
): RgbImage {
  const { width, height } = original;
  const out = inPlace ? original.data : new Uint8Array(original.data);
  // Full-size original pixel -> full-size answer pixel, through the working grids (pixel centres).
  const sx = work.original.width / width;
  const sy = work.original.height / height;
  const toWork = mul3(mat3Translate(-0.5, -0.5), mul3(scale3(sx, sy), mat3Translate(0.5, 0.5)));
  const ax = answer.width / work.answer.width;
  const ay = answer.height / work.answer.height;
  const fromWork = mul3(mat3Translate(-0.5, -0.5), mul3(scale3(ax, ay), mat3Translate(0.5, 0.5)));
  const full = mul3(fromWork, mul3(h, toWork));
  const ansPlane = { width: answer.width, height: answer.height };
  const rgb: [number, number, number] = [0, 0, 0];
  // Only working cells that add or darken something touch the original; a full-size pixel whose
  // four bilinear neighbours are all untouched stays the original's (most of the frame).
  const touched = touchedCells(added, shadow);
  const box = touched.box;
  if (!box) return { width, height, data: out };
  const xFrom = Math.max(0, Math.floor((box.x0 - 1 + 0.5) / sx - 0.5));
  const xTo = Math.min(width - 1, Math.ceil((box.x1 + 1 + 0.5) / sx - 0.5));
  const yFrom = Math.max(0, Math.floor((box.y0 - 1 + 0.5) / sy - 0.5));
  const yTo = Math.min(height - 1, Math.ceil((box.y1 + 1 + 0.5) / sy - 0.5));
  const ww = added.width;
  const wh = added.height;
  // apply3 and colorMatch.apply inlined: this loop runs for millions of full-size pixels.
  const f0 = full[0]!, f1 = full[1]!, f2 = full[2]!, f3 = full[3]!, f4 = full[4]!, f5 = full[5]!, f6 = full[6]!, f7 = full[7]!, f8 = full[8]!;
  const { gain, offset } = colorMatch;
  for (let y = yFrom; y <= yTo; y++) {
    const wy = (y + 0.5) * sy - 0.5;
    const cy = Math.min(wh - 1, Math.max(0, Math.floor(wy)));
    for (let x = xFrom; x <= xTo; x++) {
      const wx = (x + 0.5) * sx - 0.5;
      const cx = Math.min(ww - 1, Math.max(0, Math.floor(wx)));
      if (!touched.near[cy * ww + cx]) continue;
      const alpha = clampSample(added, wx, wy);
      const dark = clampSample(shadow, wx, wy);
      if (alpha < 1 / 512 && dark > 0.998) continue;
      const i = 3 * (y * width + x);
      let a = alpha;
      const w = f6 * x + f7 * y + f8;
      if (a >= 1 / 512 && sampleRgb(answer, ansPlane, (f0 * x + f1 * y + f2) / w, (f3 * x + f4 * y + f5) / w, rgb)) {
        for (let c = 0; c < 3; c++) rgb[c] = gain[c]! * rgb[c]! + offset[c]!;
      } else {
        if (a >= 1 / 512) a = 0;
        rgb.fill(0);
      }
      const keep = (1 - a) * dark;
      for (let c = 0; c < 3; c++) out[i + c] = clamp255(a * rgb[c]! * 255 + keep * original.data[i + c]!);
    }
  }
  return { width, height, data: out };
}

/**
 * Working cells whose bilinear footprint reaches a cell that adds (alpha >= 1/512) or darkens
 * (shadow <= 0.998): `near` marks, for each cell, whether it or its right, lower or lower-right
 * neighbour does, which is all a sample at or after that cell reads. `box` bounds the touching cells.
 */
function touchedCells(added: Plane, shadow: Plane): { near: Uint8Array; box: { x0: number; y0: number; x1: number; y1: number } | null } {
  const { width: w, height: h } = added;
  const on = new Uint8Array(w * h);
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!(added.data[i]! >= 1 / 512 || shadow.data[i]! <= 0.998)) continue;
      on[i] = 1;
      if (!box) box = { x0: x, y0: y, x1: x, y1: y };
      box.x0 = Math.min(box.x0, x);
      box.x1 = Math.max(box.x1, x);
      box.y1 = y;
    }
  }
  const near = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const r = x + 1 < w;
      const d = y + 1 < h;
      near[i] = on[i] || (r && on[i + 1]) || (d && on[i + w]) || (r && d && on[i + w + 1]) ? 1 : 0;
    }
  }
  return { near, box };
}

/**
 * The locked composite as delivered (JPEG, quality 90, 4:4:4 as encodeJpeg). Without optimised
 * Huffman tables: at 12 MP they took about 0.6 s, a third of the whole lock, for a file about an
 * eighth smaller; plain tables take about 50 ms.
 */
export async function encodeComposite(img: RgbImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4', mozjpeg: false, optimiseCoding: false })
    .toBuffer();
}

function mat3Translate(tx: number, ty: number): Mat3 {
  return Float64Array.from([1, 0, tx, 0, 1, ty, 0, 0, 1]);
}

function clampSample(p: Plane, x: number, y: number): number {
  const v = sample(p, Math.min(p.width - 1, Math.max(0, x)), Math.min(p.height - 1, Math.max(0, y)));
  return Number.isNaN(v) ? 0 : v;
}

function clamp255(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/** Bilinear RGB sample (0..1) of an image; false outside it. */
function sampleRgb(img: RgbImage, size: { width: number; height: number }, x: number, y: number, out: [number, number, number]): boolean {
  if (!(x >= 0 && y >= 0 && x <= size.width - 1 && y <= size.height - 1)) return false;
  const x0 = Math.min(size.width - 2, Math.floor(x));
  const y0 = Math.min(size.height - 2, Math.floor(y));
  const fx = x - x0;
  const fy = y - y0;
  const i = 3 * (y0 * size.width + x0);
  const j = i + 3 * size.width;
  const d = img.data;
  for (let c = 0; c < 3; c++) {
    out[c] = ((d[i + c]! * (1 - fx) + d[i + 3 + c]! * fx) * (1 - fy) + (d[j + c]! * (1 - fx) + d[j + 3 + c]! * fx) * fy) / 255;
  }
  return true;
}
