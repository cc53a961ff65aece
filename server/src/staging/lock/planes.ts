import type { RgbImage } from '../local/image.ts';
import { blurPlane, type Plane } from '../local/lines.ts';

/** A 3x3 homography, row-major, mapping (x, y, 1) of one image's pixels to another's. */
export type Mat3 = Float64Array;

export function mat3(values: number[]): Mat3 {
  return Float64Array.from(values);
}

export const identity3 = (): Mat3 => mat3([1, 0, 0, 0, 1, 0, 0, 0, 1]);

export function mul3(a: Mat3, b: Mat3): Mat3 {
  const out = new Float64Array(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[3 * r + c] = a[3 * r]! * b[c]! + a[3 * r + 1]! * b[3 + c]! + a[3 * r + 2]! * b[6 + c]!;
  }
  return out;
}

export function scale3(sx: number, sy: number): Mat3 {
  return mat3([sx, 0, 0, 0, sy, 0, 0, 0, 1]);
}

export function apply3(h: Mat3, x: number, y: number): [number, number] {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/** Luminance, 0..1. */
export function grayPlane(img: RgbImage): Plane {
  const n = img.width * img.height;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = (0.299 * img.data[3 * i]! + 0.587 * img.data[3 * i + 1]! + 0.114 * img.data[3 * i + 2]!) / 255;
  return { width: img.width, height: img.height, data };
}

/**
 * Local contrast: (g - local mean) / (local deviation + floor). Generative answers are regraded
 * and relit; this keeps the shapes (edges, mouldings, tile joints) and drops gain and offset.
 */
export function normalizedPlane(gray: Plane, sigma: number): Plane {
  const g = blurPlane(gray, 0.8);
  const mean = blurPlane(g, sigma);
  const sq = new Float32Array(g.data.length);
  for (let i = 0; i < sq.length; i++) sq[i] = (g.data[i]! - mean.data[i]!) ** 2;
  const dev = blurPlane({ width: g.width, height: g.height, data: sq }, sigma);
  const out = new Float32Array(g.data.length);
  for (let i = 0; i < out.length; i++) {
    const v = (g.data[i]! - mean.data[i]!) / (Math.sqrt(dev.data[i]!) + 0.03);
    out[i] = v > 3 ? 3 : v < -3 ? -3 : v;
  }
  return { width: g.width, height: g.height, data: out };
}

/** Bilinear sample; NaN outside the plane. */
export function sample(p: Plane, x: number, y: number): number {
  if (!(x >= 0 && y >= 0 && x <= p.width - 1 && y <= p.height - 1)) return NaN;
  const x0 = Math.min(p.width - 2, Math.floor(x));
  const y0 = Math.min(p.height - 2, Math.floor(y));
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * p.width + x0;
  const d = p.data;
  return (d[i]! * (1 - fx) + d[i + 1]! * fx) * (1 - fy) + (d[i + p.width]! * (1 - fx) + d[i + p.width + 1]! * fx) * fy;
}

/** `src` seen through `h` on a width x height grid (h maps grid pixels to src pixels); NaN where it has no pixel. */
export function warpPlane(src: Plane, h: Mat3, width: number, height: number): Plane {
  const out = new Float32Array(width * height);
  // apply3 and sample inlined: this runs for every pixel of the working grid several times a check.
  const h0 = h[0]!, h1 = h[1]!, h2 = h[2]!, h3 = h[3]!, h4 = h[4]!, h5 = h[5]!, h6 = h[6]!, h7 = h[7]!, h8 = h[8]!;
  const sw = src.width;
  const sh = src.height;
  const d = src.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h6 * x + h7 * y + h8;
      const u = (h0 * x + h1 * y + h2) / w;
      const v = (h3 * x + h4 * y + h5) / w;
      if (!(u >= 0 && v >= 0 && u <= sw - 1 && v <= sh - 1)) {
        out[y * width + x] = NaN;
        continue;
      }
      const x0 = Math.min(sw - 2, Math.floor(u));
      const y0 = Math.min(sh - 2, Math.floor(v));
      const fx = u - x0;
      const fy = v - y0;
      const i = y0 * sw + x0;
      out[y * width + x] = (d[i]! * (1 - fx) + d[i + 1]! * fx) * (1 - fy) + (d[i + sw]! * (1 - fx) + d[i + sw + 1]! * fx) * fy;
    }
  }
  return { width, height, data: out };
}

/** Colour planes (0..1) of an image. */
export function rgbPlanes(img: RgbImage): [Plane, Plane, Plane] {
  const n = img.width * img.height;
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) planes[c]![i] = img.data[3 * i + c]! / 255;
  return planes.map((data) => ({ width: img.width, height: img.height, data })) as [Plane, Plane, Plane];
}

/** Box-averaged reduction by an integer factor (pyramid levels). */
export function halve(p: Plane): Plane {
  const w = Math.max(1, p.width >> 1);
  const h = Math.max(1, p.height >> 1);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 2 * y * p.width + 2 * x;
      out[y * w + x] = (p.data[i]! + p.data[i + 1]! + p.data[i + p.width]! + p.data[i + p.width + 1]!) / 4;
    }
  }
  return { width: w, height: h, data: out };
}

/** A binary mask (0/1 bytes) on the working grid. */
export interface Mask {
  width: number;
  height: number;
  data: Uint8Array;
}

export function countMask(m: Mask, within?: Mask): number {
  let n = 0;
  for (let i = 0; i < m.data.length; i++) if (m.data[i] && (!within || within.data[i])) n++;
  return n;
}

/** Dilation (r > 0) or erosion (r < 0) by a square of half-size |r|, separable. */
export function morph(m: Mask, r: number): Mask {
  if (r === 0) return { ...m, data: m.data.slice() };
  const on = r > 0 ? 1 : 0;
  const k = Math.abs(r);
  const { width: w, height: h } = m;
  const pass = (src: Uint8Array, horizontal: boolean): Uint8Array => {
    const out = new Uint8Array(src.length);
    const len = horizontal ? w : h;
    const lines = horizontal ? h : w;
    const step = horizontal ? 1 : w;
    const near = new Uint8Array(len);
    for (let line = 0; line < lines; line++) {
      const first = horizontal ? line * w : line;
      // Distance to the last pixel equal to `on` seen in each direction.
      let last = -Infinity;
      for (let i = 0, j = first; i < len; i++, j += step) {
        if (src[j] === on) last = i;
        near[i] = i - last <= k ? 1 : 0;
      }
      last = Infinity;
      for (let i = len - 1, j = first + (len - 1) * step; i >= 0; i--, j -= step) {
        if (src[j] === on) last = i;
        out[j] = near[i] || last - i <= k ? on : 1 - on;
      }
    }
    return out;
  };
  return { width: w, height: h, data: pass(pass(m.data, true), false) };
}

export interface Component {
  pixels: number[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** 8-connected components of a mask. */
export function components(m: Mask): Component[] {
  const { width: w, height: h } = m;
  const seen = new Uint8Array(w * h);
  const out: Component[] = [];
  for (let s = 0; s < w * h; s++) {
    if (!m.data[s] || seen[s]) continue;
    const pixels = [s];
    seen[s] = 1;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    for (let k = 0; k < pixels.length; k++) {
      const i = pixels[k]!;
      const x = i % w;
      const y = (i - x) / w;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const j = yy * w + xx;
          if (m.data[j] && !seen[j]) {
            seen[j] = 1;
            pixels.push(j);
          }
        }
      }
    }
    out.push({ pixels, x0, y0, x1, y1 });
  }
  return out;
}
