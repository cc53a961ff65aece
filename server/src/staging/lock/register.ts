import { gradient, type Plane } from '../local/lines.ts';
import { apply3, halve, mat3, mul3, normalizedPlane, sample, warpPlane, type Mat3 } from './planes.ts';

export type MotionModel = 'similarity' | 'affine' | 'homography';

export interface Registration {
  /** Original working pixels -> answer working pixels. */
  h: Mat3;
  /** Correlation of the two photos' local contrast where nothing may be added (0..1; an exact copy is ~1). */
  ncc: number;
  /** Share of the original's frame that the answer covers once registered. */
  coverage: number;
  /** The answer's working size (the grid `h` maps into). */
  answerSize: { width: number; height: number };
}

/** Pyramid levels above the working size (640 -> 320 -> 160 -> 80). */
const LEVELS = 3;
/** Zoom range searched at the coarsest level: answer scale over original scale. */
const MIN_SCALE = 0.8;
const MAX_SCALE = 1.35;
const SCALE_STEP = 1.025;
/** Shift range searched at the coarsest level, as a share of the longer side. */
const MAX_SHIFT = 0.15;
/** Gauss-Newton stops after this many steps, or once a step moves no point by more than MIN_STEP pixels. */
const MAX_ITERATIONS = 10;
const MIN_STEP = 0.02;
/** Local contrast window in pixels of each level. */
const CONTRAST_SIGMA = 3;

interface Level {
  o: Plane;
  a: Plane;
  weight: Plane;
}

/** Pixel of level `k` -> pixel of level 0 (box-halving puts a level pixel's centre between its parents). */
function levelToBase(k: number): Mat3 {
  const s = 2 ** k;
  return mat3([s, 0, (s - 1) / 2, 0, s, (s - 1) / 2, 0, 0, 1]);
}

function baseToLevel(k: number): Mat3 {
  const s = 2 ** k;
  return mat3([1 / s, 0, -(s - 1) / (2 * s), 0, 1 / s, -(s - 1) / (2 * s), 0, 0, 1]);
}

/**
 * Registers `answer` onto `original` (both grey, 0..1, at the working size; the answer may have
 * another size and aspect ratio). `weight` says how much each original pixel is trusted to be
 * unchanged (the ceiling and upper walls more than the floor, where furniture goes).
 *
 * An exhaustive search over zoom and shift at 1/8 size finds the basin; Gauss-Newton on local
 * contrast with Huber weights then refines a similarity, an affine map and at last a homography,
 * level by level. Pixels that staging changed are outliers to the robust fit.
 */
export function register(original: Plane, answer: Plane, weight: Plane): Registration {
  const levels: Level[] = [];
  let o = original;
  let a = answer;
  let w = weight;
  for (let k = 0; k <= LEVELS; k++) {
    levels.push({ o: normalizedPlane(o, CONTRAST_SIGMA), a: normalizedPlane(a, CONTRAST_SIGMA), weight: w });
    o = halve(o);
    a = halve(a);
    w = halve(w);
  }
  const top = levels[LEVELS]!;
  const coarse = coarseSearch(top);
  let h = mul3(mul3(levelToBase(LEVELS), coarse), baseToLevel(LEVELS));
  const plan: Array<[number, MotionModel]> = [
    [3, 'similarity'],
    [2, 'similarity'],
    [1, 'affine'],
    [0, 'homography'],
  ];
  for (const [k, model] of plan) {
    const lv = levels[k]!;
    const hk = mul3(mul3(baseToLevel(k), h), levelToBase(k));
    const refined = refine(lv, hk, model, k === 0 ? 2 : 1);
    h = mul3(mul3(levelToBase(k), refined), baseToLevel(k));
  }
  const base = levels[0]!;
  return { h, ncc: correlation(base, h), coverage: coverage(base.o, base.a, h), answerSize: { width: answer.width, height: answer.height } };
}

/** Best zoom and shift at the coarsest level, as a map of that level's pixels. */
function coarseSearch(lv: Level): Mat3 {
  const { o, a, weight } = lv;
  const sx0 = a.width / o.width;
  const sy0 = a.height / o.height;
  const range = Math.ceil(MAX_SHIFT * Math.max(o.width, o.height));
  const span = 2 * range + 1;
  const W = o.width + 2 * range;
  const H = o.height + 2 * range;
  // Zero-mean original under the weights, so a flat answer scores zero.
  let sw = 0;
  let so = 0;
  for (let i = 0; i < o.data.length; i++) {
    sw += weight.data[i]!;
    so += weight.data[i]! * o.data[i]!;
  }
  const mo = so / Math.max(1e-9, sw);
  const wo = new Float32Array(o.data.length);
  for (let i = 0; i < wo.length; i++) wo[i] = weight.data[i]! * (o.data[i]! - mo);
  let best = { score: -Infinity, s: 1, tx: 0, ty: 0 };
  const resampled = new Float32Array(W * H);
  for (let s = MIN_SCALE; s <= MAX_SCALE + 1e-9; s *= SCALE_STEP) {
    // The answer resampled at this zoom on the original's grid, with a margin for the shifts.
    const ax = s * sx0;
    const ay = s * sy0;
    const bx = (a.width - 1) / 2 - ax * ((o.width - 1) / 2);
    const by = (a.height - 1) / 2 - ay * ((o.height - 1) / 2);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const v = sample(a, ax * (x - range) + bx, ay * (y - range) + by);
        resampled[y * W + x] = Number.isNaN(v) ? 0 : v;
      }
    }
    const score = (dx: number, dy: number) => {
      let num = 0;
      let den = 0;
      for (let y = 0; y < o.height; y++) {
        const row = y * o.width;
        const arow = (y + dy) * W + dx;
        for (let x = 0; x < o.width; x++) {
          const v = resampled[arow + x]!;
          num += wo[row + x]! * v;
          den += weight.data[row + x]! * v * v;
        }
      }
      return num / Math.sqrt(den + 1e-6);
    };
    // Every other shift, then the neighbours of the best: the blurred, normalised planes' peaks are
    // wider than a pixel at this level, and this is a quarter of the work.
    let here = { score: -Infinity, dx: 0, dy: 0 };
    for (let dy = 0; dy < span; dy += 2) {
      for (let dx = 0; dx < span; dx += 2) {
        const sc = score(dx, dy);
        if (sc > here.score) here = { score: sc, dx, dy };
      }
    }
    const { dx: cx, dy: cy } = here;
    for (let dy = Math.max(0, cy - 1); dy <= Math.min(span - 1, cy + 1); dy++) {
      for (let dx = Math.max(0, cx - 1); dx <= Math.min(span - 1, cx + 1); dx++) {
        if ((dx - cx) % 2 === 0 && (dy - cy) % 2 === 0) continue;
        const sc = score(dx, dy);
        if (sc > here.score) here = { score: sc, dx, dy };
      }
    }
    if (here.score > best.score) best = { score: here.score, s, tx: (here.dx - range) * ax, ty: (here.dy - range) * ay };
  }
  const ax = best.s * sx0;
  const ay = best.s * sy0;
  return mat3([ax, 0, (a.width - 1) / 2 - ax * ((o.width - 1) / 2) + best.tx, 0, ay, (a.height - 1) / 2 - ay * ((o.height - 1) / 2) + best.ty, 0, 0, 1]);
}

/** Columns of the map from a model's parameters to the 8 homography parameters. */
const SUBSPACE: Record<MotionModel, number[][]> = {
  // (scale, rotation, tx, ty): a = e = scale, b = -rotation, d = rotation
  similarity: [
    [1, 0, 0, 0, 1, 0, 0, 0],
    [0, -1, 0, 1, 0, 0, 0, 0],
    [0, 0, 1, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 1, 0, 0],
  ],
  affine: [0, 1, 2, 3, 4, 5].map((k) => Array.from({ length: 8 }, (_, j) => (j === k ? 1 : 0))),
  homography: [0, 1, 2, 3, 4, 5, 6, 7].map((k) => Array.from({ length: 8 }, (_, j) => (j === k ? 1 : 0))),
};

/**
 * Forward-compositional Gauss-Newton: h <- h * dH, dH near identity in centred coordinates scaled
 * to [-1, 1], Huber-weighted residuals of local contrast.
 */
function refine(lv: Level, h0: Mat3, model: MotionModel, stride: number): Mat3 {
  const { o, a, weight } = lv;
  const basis = SUBSPACE[model];
  const n = basis.length;
  const cx = (o.width - 1) / 2;
  const cy = (o.height - 1) / 2;
  const L = Math.max(o.width, o.height) / 2;
  const toHat = mat3([1 / L, 0, -cx / L, 0, 1 / L, -cy / L, 0, 0, 1]);
  const fromHat = mat3([L, 0, cx, 0, L, cy, 0, 0, 1]);
  let h = h0;
  const full = new Float64Array(8);
  const jrow = new Float64Array(n);
  for (let iter = 0; iter < MAX_ITERATIONS; iter++) {
    const warped = warpPlane(a, h, o.width, o.height);
    const filled = { width: warped.width, height: warped.height, data: warped.data.map((v) => (Number.isNaN(v) ? 0 : v)) };
    const g = gradient(filled);
    const sigma = residualScale(o, warped, stride);
    const k = 1.345 * sigma;
    const A = new Float64Array(n * n);
    const b = new Float64Array(n);
    for (let y = 1; y < o.height - 1; y += stride) {
      for (let x = 1; x < o.width - 1; x += stride) {
        const i = y * o.width + x;
        const wv = warped.data[i]!;
        const prior = weight.data[i]!;
        if (Number.isNaN(wv) || prior <= 0 || Number.isNaN(warped.data[i - 1]!) || Number.isNaN(warped.data[i + 1]!)) continue;
        if (Number.isNaN(warped.data[i - o.width]!) || Number.isNaN(warped.data[i + o.width]!)) continue;
        const r = wv - o.data[i]!;
        const robust = Math.abs(r) <= k ? 1 : k / Math.abs(r);
        const wt = prior * robust;
        // gradient() divides its Sobel sums by 8: times 4 makes them per-pixel slopes.
        const gx = 4 * g.gx[i]! * L;
        const gy = 4 * g.gy[i]! * L;
        const xh = (x - cx) / L;
        const yh = (y - cy) / L;
        full[0] = gx * xh;
        full[1] = gx * yh;
        full[2] = gx;
        full[3] = gy * xh;
        full[4] = gy * yh;
        full[5] = gy;
        full[6] = -xh * (gx * xh + gy * yh);
        full[7] = -yh * (gx * xh + gy * yh);
        for (let p = 0; p < n; p++) {
          const col = basis[p]!;
          let s = 0;
          for (let q = 0; q < 8; q++) s += full[q]! * col[q]!;
          jrow[p] = s;
        }
        for (let p = 0; p < n; p++) {
          b[p]! -= wt * jrow[p]! * r;
          for (let q = p; q < n; q++) A[p * n + q]! += wt * jrow[p]! * jrow[q]!;
        }
      }
    }
    for (let p = 0; p < n; p++) for (let q = 0; q < p; q++) A[p * n + q] = A[q * n + p]!;
    // A little Levenberg damping keeps weakly constrained directions (a bare ceiling) still.
    for (let p = 0; p < n; p++) A[p * n + p]! *= 1.001;
    const dp = solve(A, b, n);
    if (!dp) break;
    const d = new Float64Array(8);
    for (let p = 0; p < n; p++) for (let q = 0; q < 8; q++) d[q]! += basis[p]![q]! * dp[p]!;
    const dH = mat3([1 + d[0]!, d[1]!, d[2]!, d[3]!, 1 + d[4]!, d[5]!, d[6]!, d[7]!, 1]);
    h = mul3(h, mul3(mul3(fromHat, dH), toHat));
    const step = Math.max(...d.map(Math.abs)) * L;
    if (step < MIN_STEP) break;
  }
  return h;
}

/** Robust spread of the residuals (median absolute residual, scaled to a Gaussian sigma). */
function residualScale(o: Plane, warped: Plane, stride: number): number {
  const all = new Float64Array(Math.ceil(o.data.length / (7 * stride)));
  let n = 0;
  for (let i = 0; i < o.data.length; i += 7 * stride) {
    const v = warped.data[i]!;
    if (!Number.isNaN(v)) all[n++] = Math.abs(v - o.data[i]!);
  }
  const rs = all.subarray(0, n).sort();
  return Math.max(0.05, 1.4826 * (rs[n >> 1] ?? 1));
}

/** Gaussian elimination with partial pivoting; null for a singular system. */
function solve(A: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = A.slice();
  const x = b.slice();
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[piv * n + c]!)) piv = r;
    if (Math.abs(m[piv * n + c]!) < 1e-12) return null;
    if (piv !== c) {
      for (let k = 0; k < n; k++) [m[c * n + k], m[piv * n + k]] = [m[piv * n + k]!, m[c * n + k]!];
      [x[c], x[piv]] = [x[piv]!, x[c]!];
    }
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c]! / m[c * n + c]!;
      for (let k = c; k < n; k++) m[r * n + k]! -= f * m[c * n + k]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let c = n - 1; c >= 0; c--) {
    let s = x[c]!;
    for (let k = c + 1; k < n; k++) s -= m[c * n + k]! * x[k]!;
    x[c] = s / m[c * n + c]!;
  }
  return x;
}

/** Weighted correlation of local contrast after registration, clamped to 0..1. */
function correlation(lv: Level, h: Mat3): number {
  const warped = warpPlane(lv.a, h, lv.o.width, lv.o.height);
  let so = 0;
  let sa = 0;
  let soa = 0;
  for (let i = 0; i < warped.data.length; i++) {
    const v = warped.data[i]!;
    const wt = lv.weight.data[i]!;
    if (Number.isNaN(v) || wt <= 0) continue;
    const p = lv.o.data[i]!;
    so += wt * p * p;
    sa += wt * v * v;
    soa += wt * p * v;
  }
  return Math.max(0, Math.min(1, soa / Math.sqrt(so * sa + 1e-9)));
}

function coverage(o: Plane, a: Plane, h: Mat3): number {
  let inside = 0;
  let n = 0;
  for (let y = 0; y < o.height; y += 4) {
    for (let x = 0; x < o.width; x += 4) {
      const [u, v] = apply3(h, x, y);
      n++;
      if (u >= 0 && v >= 0 && u <= a.width - 1 && v <= a.height - 1) inside++;
    }
  }
  return inside / n;
}
