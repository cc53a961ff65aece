import type { RoomModel } from './analyze.ts';
import { CLIPPED_GAIN } from './floor-light.ts';
import { SRGB_TO_LINEAR, linearToSrgb8, type RgbImage } from './image.ts';
import { mulberry32 } from './prng.ts';
import { blurInWindow, blurWindow, type Segment } from './lines.ts';
import type { RenderResult } from './render.ts';
import { clamp, luminance, smoothstep, type Vec3 } from './vec.ts';

/**
 * Photo noise level (8-bit units) from the residual after a 4-neighbour mean, taken over the
 * flattest half of a sparse grid of samples so edges do not count as noise.
 */
export function estimateNoise(img: RgbImage): number {
  const { width: w, height: h, data } = img;
  const step = Math.max(2, Math.floor(Math.sqrt((w * h) / 40000)));
  // Gradients are whole levels up to 510 and residuals quarter levels up to 255: both are counted
  // rather than sorted (40 000 samples sorted as pairs took 30 ms a variation). The flattest half
  // is the samples in gradient order, ties in the order sampled.
  const samples = (visit: (grad: number, res4: number) => void) => {
    for (let y = 2; y < h - 2; y += step) {
      for (let x = 2; x < w - 2; x += step) {
        const i = (y * w + x) * 3 + 1;
        const c = data[i]!;
        const l = data[i - 3]!;
        const r = data[i + 3]!;
        const u = data[i - 3 * w]!;
        const d = data[i + 3 * w]!;
        visit(Math.abs(r - l) + Math.abs(d - u), Math.abs(4 * c - (l + r + u + d)));
      }
    }
  };
  const byGrad = new Uint32Array(511);
  let n = 0;
  samples((grad) => {
    byGrad[grad]!++;
    n++;
  });
  if (n < 16) return 0;
  const half = n >> 1;
  // The gradient the flattest half reaches, and how many samples at it belong to the half.
  let edge = 0;
  let below = 0;
  while (below + byGrad[edge]! < half) below += byGrad[edge++]!;
  let atEdge = half - below;
  const byRes = new Uint32Array(1021);
  samples((grad, res4) => {
    if (grad < edge || (grad === edge && atEdge-- > 0)) byRes[res4]!++;
  });
  let seen = 0;
  let res4 = 0;
  while (seen + byRes[res4]! <= half >> 1) seen += byRes[res4++]!;
  return clamp(1.4826 * (res4 / 4) * 0.9, 0, 8);
}

/**
 * Photo blur at the render resolution, as a Gaussian sigma in render pixels: the 20-80% rise
 * width of the photo's crisper straight edges (the analysis segments), measured across each
 * edge on the full-size photo. Soft, upscaled or slightly defocused photos get soft furniture edges too.
 */
export function estimateEdgeBlur(photo: RgbImage, segments: Segment[], analysisWidth: number, renderWidth: number): number {
  const { width: W, height: H, data } = photo;
  const toPhoto = W / analysisWidth;
  const step = W / renderWidth;
  const lum = (x: number, y: number) => {
    const xi = Math.min(W - 1, Math.max(0, Math.round(x)));
    const yi = Math.min(H - 1, Math.max(0, Math.round(y)));
    const i = (yi * W + xi) * 3;
    return 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  };
  const widths: number[] = [];
  const longest = [...segments].sort((a, b) => b.length - a.length).slice(0, 60);
  for (const sg of longest) {
    const nx = -(sg.y2 - sg.y1) / sg.length;
    const ny = (sg.x2 - sg.x1) / sg.length;
    for (const t of [0.3, 0.5, 0.7]) {
      const cx = (sg.x1 + (sg.x2 - sg.x1) * t) * toPhoto;
      const cy = (sg.y1 + (sg.y2 - sg.y1) * t) * toPhoto;
      const prof: number[] = [];
      for (let k = -8; k <= 8; k += 0.5) prof.push(lum(cx + nx * k * step, cy + ny * k * step));
      const lo = Math.min(...prof);
      const hi = Math.max(...prof);
      if (hi - lo < 40) continue;
      const rising = (prof[prof.length - 1] ?? 0) > (prof[0] ?? 0);
      const level = (f: number) => lo + (hi - lo) * f;
      const cross = (f: number) => {
        const target = level(rising ? f : 1 - f);
        for (let i = 1; i < prof.length; i++) {
          const a = prof[i - 1] ?? 0;
          const b = prof[i] ?? 0;
          if ((a - target) * (b - target) <= 0 && a !== b) return (i - 1 + (target - a) / (b - a)) * 0.5;
        }
        return NaN;
      };
      const w = Math.abs(cross(0.8) - cross(0.2));
      if (Number.isFinite(w) && w < 6) widths.push(w);
    }
  }
  if (widths.length < 8) return 0;
  widths.sort((a, b) => a - b);
  // A Gaussian edge rises from 20% to 80% over 1.68 sigma; the render's own edge is ~0.5 px.
  // The lower quartile: long segments include soft shading edges (wall corners, shadows under
  // skirting), and the photo's focus shows in its crisp ones (frames, openings).
  const sigma = (widths[widths.length >> 2] ?? 0) / 1.68;
  // Matched in full: furniture crisper than the photo around it is the first thing that gives
  // a rendering away at full size (issue 12); the crisp quartile already errs on the sharp side.
  return clamp(Math.sqrt(Math.max(0, sigma * sigma - 0.25)), 0, 3);
}

/** Blurs the render's colour and coverage together (premultiplied, so edges stay clean). */
export function blurLayer(render: RenderResult, sigma: number): void {
  if (sigma < 0.3) return;
  const { layer } = render;
  const W = layer.width;
  // Only the box around the furniture, with a margin for the kernel.
  const win = blurWindow(W, layer.height, (i) => (layer.alpha[i] ?? 0) > 0, sigma);
  if (!win) return;
  for (let k = 0; k < 4; k++) {
    const out = blurInWindow(win, (i) => (k < 3 ? (layer.color[i * 3 + k] ?? 0) : (layer.alpha[i] ?? 0)), sigma);
    for (let y = 0; y < win.height; y++) {
      for (let x = 0; x < win.width; x++) {
        const i = (y + win.y0) * W + x + win.x0;
        if (k < 3) layer.color[i * 3 + k] = out[y * win.width + x] ?? 0;
        else layer.alpha[i] = out[y * win.width + x] ?? 0;
      }
    }
  }
}

/**
 * The photo's floor, for its clipped pixels: a sun patch the camera clipped has lost its colour
 * (its pixels are near white), so darkened in a piece's shadow it turned grey where the floor
 * in shade is its own colour. There the darkened pixel takes the floor's colour.
 */
export interface ClippedFloor {
  /** The floor's colour, linear. */
  color: Vec3;
  /** Whether photo pixel (x, y) shows the floor. */
  at(x: number, y: number): boolean;
}

/**
 * The room's floor as `photo` shows it (pixels whose ray meets the floor inside the room box),
 * and its colour where nothing clipped it: the median of its unclipped pixels, so a sun patch
 * does not tint it. Null where too little of the floor is unclipped to say.
 */
export function clippedFloor(room: RoomModel, photo: RgbImage): ClippedFloor | null {
  const { width, height, data } = photo;
  const cam = room.camera.scaled(width, height);
  const { left, right, back } = room.box;
  const at = (x: number, y: number) => {
    const p = cam.floorPoint(x + 0.5, y + 0.5);
    return p !== null && p[0] > left && p[0] < right && p[2] < back;
  };
  const step = Math.max(1, Math.round(Math.max(width, height) / 160));
  const channels: [number[], number[], number[]] = [[], [], []];
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const i = (y * width + x) * 3;
      if (Math.max(data[i]!, data[i + 1]!, data[i + 2]!) >= CLIPPED[0] || !at(x, y)) continue;
      for (let k = 0; k < 3; k++) channels[k as 0 | 1 | 2].push(data[i + k]!);
    }
  }
  if (channels[0].length < 50) return null;
  const median = (v: number[]) => SRGB_TO_LINEAR[v.sort((a, b) => a - b)[v.length >> 1]!]!;
  return { color: [median(channels[0]), median(channels[1]), median(channels[2])], at };
}

/**
 * A clipped sun patch has no grain of its own: darkened in a piece's shadow it was one flat tone
 * with straight edges, a painted shape on the wood. The floor beside it lends it its grain: the
 * pixel as many pixels along the row as the clipped run it lies in is long, before the run (or
 * after it), shifted, not mirrored, so planks keep their direction; the floor's colour where
 * neither is unclipped floor. `row` keeps a row's photo pixels before it is composited (a
 * lender may be darkened by then); `at` gives a pixel of that row its lent colour, linear.
 */
function grainLender(width: number, floor: ClippedFloor): { row(photo: Uint8Array, y: number): void; at(x: number): Vec3 } {
  const original = new Uint8Array(width * 3);
  const start = new Int32Array(width);
  const end = new Int32Array(width);
  const lent: Vec3 = [0, 0, 0];
  let runsFound = false;
  let y0 = -1;
  const clippedAt = (x: number) => Math.max(original[x * 3]!, original[x * 3 + 1]!, original[x * 3 + 2]!) >= CLIPPED[0];
  // Floor in shade lends; the sunlit fringe of a patch, bright though short of clipped, would be lent as white specks.
  const most = LENDER_LIGHT * luminance(...floor.color);
  const shaded = (x: number) => luminance(SRGB_TO_LINEAR[original[x * 3]!]!, SRGB_TO_LINEAR[original[x * 3 + 1]!]!, SRGB_TO_LINEAR[original[x * 3 + 2]!]!) <= most;
  const lends = (x: number) => x >= 0 && x < width && !clippedAt(x) && shaded(x) && floor.at(x, y0);
  return {
    row(photo, y) {
      original.set(photo.subarray(y * width * 3, (y + 1) * width * 3));
      y0 = y;
      runsFound = false;
    },
    at(x) {
      if (!runsFound) {
        // Each pixel's clipped run along the row, found the first time the row lends.
        for (let a = 0; a < width; ) {
          let b = a;
          if (clippedAt(a)) while (b + 1 < width && clippedAt(b + 1)) b++;
          start.fill(a, a, b + 1);
          end.fill(b, a, b + 1);
          a = b + 1;
        }
        runsFound = true;
      }
      const length = end[x]! - start[x]! + 1;
      const step = x - start[x]! <= end[x]! - x ? -length : length;
      const from = lends(x + step) ? x + step : lends(x - step) ? x - step : -1;
      if (from < 0) return floor.color;
      for (let k = 0; k < 3; k++) lent[k] = SRGB_TO_LINEAR[original[from * 3 + k]!]!;
      return lent;
    },
  };
}

/** How much brighter than the floor's median a pixel may be and still lend its grain (grainLender). */
const LENDER_LIGHT = 1.2;

/** A photo pixel's brightest channel (8-bit) from which it counts as clipped, and at which fully. */
const CLIPPED: [number, number] = [215, 250];

/**
 * Composites the render over the full-size photo, in place (a 40 MP photo is 120 MB; a second
 * copy is not needed): the floor is darkened by the shadow layer, furniture goes over it with
 * its coverage, and grain matching the photo is added where furniture is. Every pixel the render
 * does not touch stays exactly as the photo has it: the room is not regraded (a style's warm
 * grade moved a white wall's colour in the before/after slider).
 */
export function compositeOnto(photo: RgbImage, render: RenderResult, seed: number, floor: ClippedFloor | null = null): RgbImage {
  const floorLum = floor ? Math.max(1e-4, luminance(...floor.color)) : 1;
  const { layer, shadow, reflection } = render;
  const lw = layer.width;
  const lh = layer.height;
  const alp = layer.alpha;
  // Pixels of the render that change anything, dilated by one for the bilinear footprint (along
  // rows, then across them).
  const raw = new Uint8Array(lw * lh);
  const rx = reflection ? Int32Array.from({ length: lw }, (_, x) => Math.min(reflection.width - 1, Math.floor(((x + 0.5) / lw) * reflection.width))) : null;
  for (let y = 0; y < lh; y++) {
    const mirror = reflection ? Math.min(reflection.height - 1, Math.floor(((y + 0.5) / lh) * reflection.height)) * reflection.width : 0;
    for (let x = 0; x < lw; x++) {
      const i = y * lw + x;
      if (alp[i]! > 0 || Math.abs(shadow[i]! - 1) > 0.001) raw[i] = 1;
      else if (reflection && rx) {
        const ri = (mirror + rx[x]!) * 3;
        if (Math.abs(reflection.color[ri]!) + Math.abs(reflection.color[ri + 1]!) + Math.abs(reflection.color[ri + 2]!) > 1e-4) raw[i] = 1;
      }
    }
  }
  const wide = new Uint8Array(lw * lh);
  for (let y = 0; y < lh; y++) {
    const row = y * lw;
    for (let x = 0; x < lw; x++) {
      if (raw[row + x] || (x > 0 && raw[row + x - 1]) || (x + 1 < lw && raw[row + x + 1])) wide[row + x] = 1;
    }
  }
  const active = new Uint8Array(lw * lh);
  for (let y = 0; y < lh; y++) {
    for (let x = 0; x < lw; x++) {
      const i = y * lw + x;
      if (wide[i] || (y > 0 && wide[i - lw]) || (y + 1 < lh && wide[i + lw])) active[i] = 1;
    }
  }
  const W = photo.width;
  const H = photo.height;
  const noise = estimateNoise(photo);
  const rng = mulberry32(seed);
  const src = photo.data;
  const kx = lw / W;
  const ky = lh / H;
  const col = layer.color;
  // The render's column under each of the photo's, and the weight of the next one.
  const colX0 = new Int32Array(W);
  const colWx = new Float64Array(W);
  for (let x = 0; x < W; x++) {
    const fx = Math.min(lw - 1, Math.max(0, (x + 0.5) * kx - 0.5));
    colX0[x] = Math.floor(fx);
    colWx[x] = fx - Math.floor(fx);
  }
  const lend = floor ? grainLender(W, floor) : null;
  for (let y = 0; y < H; y++) {
    const fy = Math.min(lh - 1, Math.max(0, (y + 0.5) * ky - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(lh - 1, y0 + 1);
    const wy = fy - y0;
    lend?.row(src, y);
    for (let x = 0; x < W; x++) {
      const x0 = colX0[x]!;
      if (!active[y0 * lw + x0]) continue;
      const i = y * W + x;
      let r = src[i * 3]!;
      let g = src[i * 3 + 1]!;
      let b = src[i * 3 + 2]!;
      // Bilinear sample of the render (premultiplied colour, coverage, floor shadow).
      const x1 = Math.min(lw - 1, x0 + 1);
      const wx = colWx[x]!;
      const i00 = y0 * lw + x0;
      const i10 = y0 * lw + x1;
      const i01 = y1 * lw + x0;
      const i11 = y1 * lw + x1;
      const w00 = (1 - wx) * (1 - wy);
      const w10 = wx * (1 - wy);
      const w01 = (1 - wx) * wy;
      const w11 = wx * wy;
      const a = (alp[i00] ?? 0) * w00 + (alp[i10] ?? 0) * w10 + (alp[i01] ?? 0) * w01 + (alp[i11] ?? 0) * w11;
      const s = (shadow[i00] ?? 1) * w00 + (shadow[i10] ?? 1) * w10 + (shadow[i01] ?? 1) * w01 + (shadow[i11] ?? 1) * w11;
      const c0 = col[i00 * 3]! * w00 + col[i10 * 3]! * w10 + col[i01 * 3]! * w01 + col[i11 * 3]! * w11;
      const c1 = col[i00 * 3 + 1]! * w00 + col[i10 * 3 + 1]! * w10 + col[i01 * 3 + 1]! * w01 + col[i11 * 3 + 1]! * w11;
      const c2 = col[i00 * 3 + 2]! * w00 + col[i10 * 3 + 2]! * w10 + col[i01 * 3 + 2]! * w01 + col[i11 * 3 + 2]! * w11;
      // A clipped floor pixel stands for floor up to CLIPPED_GAIN times brighter, as the floor's
      // light has it (floor-light.ts): in a light shadow it stays white, as the camera would
      // still clip it, and only a deeper one shows it darker. Darkened as it shows, a faint
      // shadow turned a sun stripe grey, and a full one left it half as bright as the floor in shade.
      const clipped = floor && s < 0.98 ? smoothstep(CLIPPED[0], CLIPPED[1], Math.max(r, g, b)) : 0;
      const sunlit = floor && clipped > 0 && floor.at(x, y) ? clipped : 0;
      const seen = sunlit > 0 ? Math.min(1, s * (1 + (CLIPPED_GAIN - 1) * sunlit)) : s;
      const keep = (1 - a) * seen;
      let m0 = 0;
      let m1 = 0;
      let m2 = 0;
      if (reflection) {
        // Nearest sample of the half-size reflection is enough: it is blurred.
        const rx = Math.min(reflection.width - 1, Math.floor(((x + 0.5) / W) * reflection.width));
        const ry = Math.min(reflection.height - 1, Math.floor(((y + 0.5) / H) * reflection.height));
        const ri = (ry * reflection.width + rx) * 3;
        m0 = reflection.color[ri]! * (1 - a);
        m1 = reflection.color[ri + 1]! * (1 - a);
        m2 = reflection.color[ri + 2]! * (1 - a);
      }
      let lr = SRGB_TO_LINEAR[r]! * keep;
      let lg = SRGB_TO_LINEAR[g]! * keep;
      let lb = SRGB_TO_LINEAR[b]! * keep;
      let ml = luminance(m0, m1, m2);
      if (ml < 0) {
        // A piece darker than the wall mirrored where the wall was: the floor darkens as in a
        // shadow, keeping its hue, tinted by the piece's colour as much as it is still lit.
        // Taken off every channel alike, the change emptied a warm floor's blue first and dark
        // legs mirrored as red smears; with the wall's tint taken off too, as blue ones.
        // The wall's reflection lost is a share of the floor's light as the photo shows it, so
        // it is taken from the floor in the piece's shadow in that proportion: taken off whole,
        // it left black blots under a dark chair's feet, where the contact shadow had already
        // taken most of the floor's light (for a dark piece this is exact; a lighter one's own
        // reflection is left as dim as the shadow).
        m0 *= seen;
        m1 *= seen;
        m2 *= seen;
        ml *= seen;
        const f = Math.max(0, 1 + ml / Math.max(1e-4, luminance(lr, lg, lb)));
        lr = Math.max(0, (lr + m0 - ml) * f);
        lg = Math.max(0, (lg + m1 - ml) * f);
        lb = Math.max(0, (lb + m2 - ml) * f);
      } else {
        lr += m0;
        lg += m1;
        lb += m2;
      }
      if (lend && sunlit > 0 && seen < 1) {
        // As dark as the shadow makes it, in the floor's colour and with the grain of the floor
        // beside the patch, the more so the deeper the shadow.
        const w = sunlit * smoothstep(0, 0.5, 1 - seen);
        const k = luminance(lr, lg, lb) / floorLum;
        const grain = lend.at(x);
        lr += (grain[0] * k - lr) * w;
        lg += (grain[1] * k - lg) * w;
        lb += (grain[2] * k - lb) * w;
      }
      r = linearToSrgb8(lr + c0);
      g = linearToSrgb8(lg + c1);
      b = linearToSrgb8(lb + c2);
      if (a > 0.002 && noise > 0.3) {
        // Mostly luminance grain, like a camera's, scaled by coverage.
        const nl = (rng() + rng() + rng() - 1.5) * 2 * noise * a;
        r = clamp(Math.round(r + nl + (rng() - 0.5) * noise * 0.5 * a), 0, 255);
        g = clamp(Math.round(g + nl + (rng() - 0.5) * noise * 0.5 * a), 0, 255);
        b = clamp(Math.round(b + nl + (rng() - 0.5) * noise * 0.5 * a), 0, 255);
      }
      src[i * 3] = r;
      src[i * 3 + 1] = g;
      src[i * 3 + 2] = b;
    }
  }
  return photo;
}
