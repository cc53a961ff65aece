/** Edge and line-segment extraction on a small greyscale image (an LSD-like region grower). */

export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  length: number;
  /** Direction angle in [0, pi). */
  angle: number;
}

/** Separable Gaussian blur with clamped borders. */
export function blurPlane(p: Plane, sigma: number): Plane {
  if (sigma <= 0.01) return { width: p.width, height: p.height, data: p.data.slice() };
  const r = Math.max(1, Math.ceil(sigma * 3));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) {
    const v = Math.exp(-(i * i) / (2 * sigma * sigma));
    k[i + r] = v;
    sum += v;
  }
  for (let i = 0; i < k.length; i++) k[i] = (k[i] ?? 0) / sum;
  const { width: w, height: h } = p;
  const src = p.data;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  // Horizontal: clamped reads only near the row's ends, a plain dot product in between.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let acc = 0;
      if (x >= r && x < w - r) {
        const base = row + x - r;
        for (let i = 0; i < k.length; i++) acc += k[i]! * src[base + i]!;
      } else {
        for (let i = -r; i <= r; i++) {
          const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
          acc += k[i + r]! * src[row + xx]!;
        }
      }
      tmp[row + x] = acc;
    }
  }
  // Vertical: whole rows at a time, so memory is read in order; summed in double precision in
  // the same order as a per-pixel loop, so results do not change with the loop order.
  const acc = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let i = -r; i <= r; i++) {
      const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
      const from = yy * w;
      const kv = k[i + r]!;
      for (let x = 0; x < w; x++) acc[x]! += kv * tmp[from + x]!;
    }
    out.set(acc, y * w);
  }
  return { width: w, height: h, data: out };
}

/** A rectangle of a frame `frameWidth` wide: where a sparse layer is blurred. */
export interface BlurWindow {
  x0: number;
  y0: number;
  width: number;
  height: number;
  frameWidth: number;
}

/**
 * The box around the pixels where `present(i)` holds, grown by a Gaussian's reach of `sigma` and
 * clamped to the frame; null when no pixel does. Beyond that reach a blur of a layer that is zero
 * elsewhere stays zero, so blurring only the box gives the same pixels for less work.
 */
export function blurWindow(width: number, height: number, present: (i: number) => boolean, sigma: number): BlurWindow | null {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!present(y * width + x)) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (x1 < 0) return null;
  const m = Math.ceil(sigma * 3) + 1;
  x0 = Math.max(0, x0 - m);
  y0 = Math.max(0, y0 - m);
  x1 = Math.min(width - 1, x1 + m);
  y1 = Math.min(height - 1, y1 + m);
  return { x0, y0, width: x1 - x0 + 1, height: y1 - y0 + 1, frameWidth: width };
}

/** `value` (read by the frame's pixel index) over the window, blurred; indexed within the window. */
export function blurInWindow(win: BlurWindow, value: (i: number) => number, sigma: number): Float32Array {
  const plane = new Float32Array(win.width * win.height);
  for (let y = 0; y < win.height; y++) {
    for (let x = 0; x < win.width; x++) plane[y * win.width + x] = value((y + win.y0) * win.frameWidth + x + win.x0);
  }
  return blurPlane({ width: win.width, height: win.height, data: plane }, sigma).data;
}

export interface Gradient {
  gx: Float32Array;
  gy: Float32Array;
  mag: Float32Array;
}

export function gradient(p: Plane): Gradient {
  const { width: w, height: h, data: d } = p;
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  const mag = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const a = d[i - w - 1] ?? 0;
      const b = d[i - w] ?? 0;
      const c = d[i - w + 1] ?? 0;
      const l = d[i - 1] ?? 0;
      const r = d[i + 1] ?? 0;
      const e = d[i + w - 1] ?? 0;
      const f = d[i + w] ?? 0;
      const g = d[i + w + 1] ?? 0;
      const vx = (c + 2 * r + g - a - 2 * l - e) / 8;
      const vy = (e + 2 * f + g - a - 2 * b - c) / 8;
      gx[i] = vx;
      gy[i] = vy;
      mag[i] = Math.hypot(vx, vy);
    }
  }
  return { gx, gy, mag };
}

/**
 * Line segments: pixels are grown into regions of similar gradient orientation (seeds taken in
 * order of decreasing gradient strength), and elongated regions are fitted with a line.
 */
export function detectSegments(p: Plane, g: Gradient, opts: { threshold: number; minLength: number }): Segment[] {
  const { width: w, height: h } = p;
  const n = w * h;
  const tolerance = (22.5 * Math.PI) / 180;
  // Bucket sort by strength keeps seeding deterministic and O(n).
  const buckets = 256;
  let maxMag = 1e-6;
  for (let i = 0; i < n; i++) maxMag = Math.max(maxMag, g.mag[i] ?? 0);
  const counts = new Int32Array(buckets + 1);
  const bucketOf = (m: number) => Math.min(buckets - 1, Math.floor((m / maxMag) * buckets));
  for (let i = 0; i < n; i++) if ((g.mag[i] ?? 0) > opts.threshold) counts[buckets - 1 - bucketOf(g.mag[i] ?? 0) + 1]! += 1;
  for (let b = 1; b <= buckets; b++) counts[b]! += counts[b - 1] ?? 0;
  const order = new Int32Array(counts[buckets] ?? 0);
  const fill = counts.slice();
  for (let i = 0; i < n; i++) {
    const m = g.mag[i] ?? 0;
    if (m > opts.threshold) order[fill[buckets - 1 - bucketOf(m)]!++] = i;
  }
  const used = new Uint8Array(n);
  const angleOf = (i: number) => Math.atan2(g.gy[i] ?? 0, g.gx[i] ?? 0);
  const grow = (seed: number, tolerance: number): number[] => {
    const region = [seed];
    used[seed] = 1;
    let sx = Math.cos(angleOf(seed));
    let sy = Math.sin(angleOf(seed));
    let regionAngle = Math.atan2(sy, sx);
    for (let k = 0; k < region.length; k++) {
      const i = region[k] ?? 0;
      const x = i % w;
      const y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 1 || yy < 1 || xx >= w - 1 || yy >= h - 1) continue;
          const j = yy * w + xx;
          if (used[j] || (g.mag[j] ?? 0) <= opts.threshold) continue;
          let da = Math.abs(angleOf(j) - regionAngle);
          if (da > Math.PI) da = 2 * Math.PI - da;
          if (da > tolerance) continue;
          used[j] = 1;
          region.push(j);
          sx += Math.cos(angleOf(j));
          sy += Math.sin(angleOf(j));
          regionAngle = Math.atan2(sy, sx);
        }
      }
    }
    return region;
  };
  const segments: Segment[] = [];
  for (let oi = 0; oi < order.length; oi++) {
    const seed = order[oi] ?? 0;
    if (used[seed]) continue;
    const region = grow(seed, tolerance);
    if (region.length < opts.minLength * 0.8) continue;
    const fit = fitSegment(region, w, g);
    if (fit && fit.segment.length >= opts.minLength) segments.push(fit.segment);
  }
  return segments;
}

/** Least-squares line through a region, with the region's half width across it. */
function fitSegment(region: number[], w: number, g: Gradient): { segment: Segment; width: number } | null {
  let sw = 0;
  let mx = 0;
  let my = 0;
  for (const i of region) {
    const m = g.mag[i] ?? 0;
    sw += m;
    mx += m * (i % w);
    my += m * Math.floor(i / w);
  }
  mx /= sw;
  my /= sw;
  let cxx = 0;
  let cyy = 0;
  let cxy = 0;
  for (const i of region) {
    const m = g.mag[i] ?? 0;
    const dx = (i % w) - mx;
    const dy = Math.floor(i / w) - my;
    cxx += m * dx * dx;
    cyy += m * dy * dy;
    cxy += m * dx * dy;
  }
  const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
  const ux = Math.cos(theta);
  const uy = Math.sin(theta);
  let tmin = Infinity;
  let tmax = -Infinity;
  let wmax = 0;
  for (const i of region) {
    const dx = (i % w) - mx;
    const dy = Math.floor(i / w) - my;
    const t = dx * ux + dy * uy;
    tmin = Math.min(tmin, t);
    tmax = Math.max(tmax, t);
    wmax = Math.max(wmax, Math.abs(-dx * uy + dy * ux));
  }
  const len = tmax - tmin;
  if (len < 2 || len / Math.max(1, 2 * wmax) < 3) return null;
  let angle = Math.atan2(uy, ux);
  if (angle < 0) angle += Math.PI;
  if (angle >= Math.PI) angle -= Math.PI;
  return { segment: { x1: mx + ux * tmin, y1: my + uy * tmin, x2: mx + ux * tmax, y2: my + uy * tmax, length: len, angle }, width: wmax };
}

/** A band of light is this much brighter than the floor beside it (plus a little, for dark floors). */
const BAND_CONTRAST = 1.25;
/** The band ends where the light falls back this share of the way to the floor beside it. */
const BAND_FALLS_TO = 0.3;
/** The widest band of light, a share of the photo's long side: past it, the bright side is a wall. */
const BAND_WIDTH = 0.15;

/**
 * Whether segment s is one edge of a band of light on a plane (the grey photo, blurred): a sun
 * stripe's or a sun patch's. Across it the plane steps up to a brighter side that falls back
 * within BAND_WIDTH, at three or more of five places along it. A wall's edge on the floor has its wall
 * running on up the photo, and a floorboard's or a grout line's dark seam has the same floor on
 * both sides. Sun stripes run parallel, and their family of lines can outnumber the room's own
 * depth lines: a hall's diagonal stripes, cropped or turned two degrees, were taken for its depth.
 */
export function lightBandEdge(p: Plane, s: Segment): boolean {
  const nx = -(s.y2 - s.y1) / s.length;
  const ny = (s.x2 - s.x1) / s.length;
  const reach = BAND_WIDTH * Math.max(p.width, p.height);
  const value = (x: number, y: number): number | null => {
    const xi = Math.round(x);
    const yi = Math.round(y);
    return xi < 0 || yi < 0 || xi >= p.width || yi >= p.height ? null : (p.data[yi * p.width + xi] ?? null);
  };
  let seen = 0;
  let bands = 0;
  for (const t of [0.1, 0.3, 0.5, 0.7, 0.9]) {
    const x = s.x1 + (s.x2 - s.x1) * t;
    const y = s.y1 + (s.y2 - s.y1) * t;
    // The mean a few pixels out to one side (sign 1) or the other.
    const side = (sign: number): number | null => {
      let sum = 0;
      let n = 0;
      for (let d = 3; d <= 6; d++) {
        const v = value(x + sign * nx * d, y + sign * ny * d);
        if (v !== null) {
          sum += v;
          n++;
        }
      }
      return n ? sum / n : null;
    };
    const a = side(1);
    const b = side(-1);
    if (a === null || b === null) continue;
    seen++;
    const [bright, dark, sign] = a > b ? [a, b, 1] : [b, a, -1];
    if (bright < BAND_CONTRAST * dark + 0.02) continue;
    const back = dark + BAND_FALLS_TO * (bright - dark);
    for (let d = 8; d <= reach; d += 2) {
      const v = value(x + sign * nx * d, y + sign * ny * d);
      if (v === null) break;
      if (v < back) {
        bands++;
        break;
      }
    }
  }
  return seen > 0 && bands >= Math.max(2, Math.ceil(0.6 * seen));
}
