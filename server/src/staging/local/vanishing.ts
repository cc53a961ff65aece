import type { Segment } from './lines.ts';

export interface VanishingPoint {
  x: number;
  y: number;
  /** Summed length of the segments that agree with it, in pixels. */
  support: number;
}

const DEG = Math.PI / 180;
/** How far off a segment may point and still count towards a depth vanishing point. */
const DEPTH_TOLERANCE = 1.5 * DEG;

function isOblique(s: Segment): boolean {
  const a = s.angle > Math.PI / 2 ? Math.PI - s.angle : s.angle;
  return a > 6 * DEG && a < 80 * DEG;
}

/** How well segment s points at (x, y): 1 when exactly, 0 beyond the tolerance. */
function agreement(s: Segment, x: number, y: number, tol: number): number {
  const mx = (s.x1 + s.x2) / 2;
  const my = (s.y1 + s.y2) / 2;
  const dx = x - mx;
  const dy = y - my;
  const d = Math.hypot(dx, dy);
  if (d < s.length * 0.6) return 0;
  const sx = (s.x2 - s.x1) / s.length;
  const sy = (s.y2 - s.y1) / s.length;
  const sin = Math.abs(sx * dy - sy * dx) / d;
  const err = Math.asin(Math.min(1, sin));
  return err >= tol ? 0 : 1 - err / tol;
}

function intersect(a: Segment, b: Segment): [number, number] | null {
  const d1x = a.x2 - a.x1;
  const d1y = a.y2 - a.y1;
  const d2x = b.x2 - b.x1;
  const d2y = b.y2 - b.y1;
  const den = d1x * d2y - d1y * d2x;
  if (Math.abs(den) < 1e-9) return null;
  const t = ((b.x1 - a.x1) * d2y - (b.y1 - a.y1) * d2x) / den;
  return [a.x1 + t * d1x, a.y1 + t * d1y];
}

/** Summed length of the oblique segments that point at (x, y), each weighted by how well it does. */
function supportOf(oblique: Segment[], x: number, y: number, tol: number): number {
  let support = 0;
  for (const s of oblique) support += s.length * agreement(s, x, y, tol);
  return support;
}

/** The support `depthVanishingPoints` gives a point, counted over `segments` only. */
export function depthSupport(segments: Segment[], p: { x: number; y: number }): number {
  return supportOf(segments.filter(isOblique), p.x, p.y, DEPTH_TOLERANCE);
}

/**
 * Candidates for the vanishing point of the room's depth axis, best first: intersections of
 * oblique segments ranked by the segment length that agrees with them. Candidates come from
 * pairs of the longest segments (exhaustive, hence deterministic); each is refined by least
 * squares on its inliers. Later candidates point at least MIN_SEPARATION away from every earlier
 * one (as rays of a camera of focal `long`), and carry at least `minShare` of the best's support.
 * More than one matters where another family of lines (tiles laid on the diagonal, a lateral
 * wall seen head-on) rivals the room's depth lines: the room box then decides.
 */
export function depthVanishingPoints(segments: Segment[], width: number, height: number, max = 1, minShare = 0.5): VanishingPoint[] {
  const oblique = segments.filter(isOblique).sort((a, b) => b.length - a.length || a.x1 - b.x1);
  const top = oblique.slice(0, 60);
  const tol = DEPTH_TOLERANCE;
  const found: VanishingPoint[] = [];
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      const a = top[i]!;
      const b = top[j]!;
      if (Math.abs(a.angle - b.angle) < 4 * DEG) continue;
      const p = intersect(a, b);
      if (!p) continue;
      const [x, y] = p;
      if (x < -0.5 * width || x > 1.5 * width || y < 0.15 * height || y > 0.85 * height) continue;
      found.push({ x, y, support: supportOf(oblique, x, y, tol) });
    }
  }
  // Stable sort: equal supports keep the pair order, as the single best search did.
  found.sort((p, q) => q.support - p.support);
  const long = Math.max(width, height);
  const ray = (p: { x: number; y: number }): [number, number, number] => {
    const v: [number, number, number] = [p.x - width / 2, p.y - height / 2, long];
    const n = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / n, v[1] / n, v[2] / n];
  };
  const distinct = (p: { x: number; y: number }, chosen: VanishingPoint[]) => {
    const r = ray(p);
    return chosen.every((c) => {
      const q = ray(c);
      return r[0] * q[0] + r[1] * q[1] + r[2] * q[2] < Math.cos(MIN_SEPARATION);
    });
  };
  const out: VanishingPoint[] = [];
  for (const cand of found) {
    if (out.length >= max) break;
    const first = out[0];
    if (first && cand.support < minShare * first.support) break;
    if (!distinct(cand, out)) continue;
    const refined = refine(oblique, cand, tol, long);
    if (distinct(refined, out)) out.push(refined);
  }
  return out;
}

/** Rival depth vanishing points must point this far apart to count as different rooms. */
const MIN_SEPARATION = 6 * DEG;

/** Least-squares refinement: the point nearest the inlier lines, kept if it stays close. */
function refine(oblique: Segment[], best: VanishingPoint, tol: number, long: number): VanishingPoint {
  let a11 = 0;
  let a12 = 0;
  let a22 = 0;
  let b1 = 0;
  let b2 = 0;
  for (const s of oblique) {
    const w = s.length * agreement(s, best.x, best.y, 2 * tol);
    if (w <= 0) continue;
    const nx = -(s.y2 - s.y1) / s.length;
    const ny = (s.x2 - s.x1) / s.length;
    const c = nx * s.x1 + ny * s.y1;
    a11 += w * nx * nx;
    a12 += w * nx * ny;
    a22 += w * ny * ny;
    b1 += w * nx * c;
    b2 += w * ny * c;
  }
  const det = a11 * a22 - a12 * a12;
  if (det > 1e-6) {
    const x = (a22 * b1 - a12 * b2) / det;
    const y = (a11 * b2 - a12 * b1) / det;
    if (Math.hypot(x - best.x, y - best.y) < 0.1 * long) return { x, y, support: supportOf(oblique, x, y, tol) };
  }
  return best;
}

/**
 * Focal length from the second (lateral) vanishing point on the horizon: for orthogonal room
 * axes the vanishing points D (depth) and L (lateral) satisfy (D - c).(L - c) = -f^2, c being
 * the principal point. L is where each lateral segment meets the horizon (the line through D
 * along the unit direction `horizonDir`). Only meaningful when D is well off centre along the
 * horizon; otherwise null and the caller keeps another estimate.
 */
export function estimateFocal(
  segments: Segment[],
  depthVp: { x: number; y: number },
  center: { x: number; y: number },
  horizonDir: [number, number],
  width: number,
  height: number,
): number | null {
  const [hx, hy] = horizonDir;
  // D's offset from the principal point along the horizon, and the horizon's distance from it.
  const dz = (depthVp.x - center.x) * hx + (depthVp.y - center.y) * hy;
  const off = (depthVp.y - center.y) * hx - (depthVp.x - center.x) * hy;
  const long = Math.max(width, height);
  if (Math.abs(dz) < 0.08 * width) return null;
  const tilt = Math.atan2(hy, hx);
  const votes: Array<[number, number]> = [];
  for (const s of segments) {
    let a = s.angle - tilt;
    while (a > Math.PI / 2) a -= Math.PI;
    while (a <= -Math.PI / 2) a += Math.PI;
    if (Math.abs(a) > 25 * DEG || Math.abs(a) < 0.3 * DEG) continue;
    if (agreement(s, depthVp.x, depthVp.y, 2 * DEG) > 0) continue;
    const sx = Math.cos(s.angle);
    const sy = Math.sin(s.angle);
    const mx = (s.x1 + s.x2) / 2 - depthVp.x;
    const my = (s.y1 + s.y2) / 2 - depthVp.y;
    const t = (mx * sy - my * sx) / (hx * sy - hy * sx);
    const f2 = -dz * (dz + t) - off * off;
    if (f2 <= 0) continue;
    const f = Math.sqrt(f2);
    if (f < 0.3 * long || f > 1.2 * long) continue;
    votes.push([f, s.length]);
  }
  const total = votes.reduce((acc, v) => acc + v[1], 0);
  if (total < 0.25 * long) return null;
  votes.sort((p, q) => p[0] - q[0]);
  let acc = 0;
  for (const [f, w] of votes) {
    acc += w;
    if (acc >= total / 2) return f;
  }
  return null;
}

/** A point in homogeneous pixel coordinates: the pixel (x / w, y / w), or the direction (x, y) at infinity when w = 0. */
export interface HomogeneousPoint {
  x: number;
  y: number;
  w: number;
}

export interface VerticalVanishingPoint extends HomogeneousPoint {
  /** Summed length of the segments that agree with it, in pixels. */
  support: number;
  /** How many segments agree with it. */
  count: number;
}

/** Segments within this angle of the image vertical may be world verticals (pitch and roll lean them). */
const VERTICAL_RANGE = 25 * DEG;

function isNearVertical(s: Segment): boolean {
  return Math.abs(s.angle - Math.PI / 2) < VERTICAL_RANGE;
}

/** agreement() for a homogeneous point, possibly at infinity. */
function agreementH(s: Segment, p: HomogeneousPoint, tol: number): number {
  const mx = (s.x1 + s.x2) / 2;
  const my = (s.y1 + s.y2) / 2;
  const dx = p.x - mx * p.w;
  const dy = p.y - my * p.w;
  const d = Math.hypot(dx, dy);
  if (d < 1e-12 || d < s.length * 0.6 * Math.abs(p.w)) return 0;
  const sx = (s.x2 - s.x1) / s.length;
  const sy = (s.y2 - s.y1) / s.length;
  const err = Math.asin(Math.min(1, Math.abs(sx * dy - sy * dx) / d));
  return err >= tol ? 0 : 1 - err / tol;
}

const SUPPORT_TOL = 1 * DEG;

/** Summed length of the near-vertical segments that point at p (within a degree): how well p explains the verticals. */
export function verticalSupport(segments: Segment[], p: HomogeneousPoint): number {
  let support = 0;
  for (const s of segments) if (isNearVertical(s)) support += s.length * agreementH(s, p, SUPPORT_TOL);
  return support;
}

/** Eigenvector of the smallest eigenvalue of a symmetric 3x3 matrix (row-major), by cyclic Jacobi rotations. */
function smallestEigenvector(m: number[]): [number, number, number] {
  const a = m.slice();
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 40; sweep++) {
    const off = a[1]! * a[1]! + a[2]! * a[2]! + a[5]! * a[5]!;
    const diag = a[0]! * a[0]! + a[4]! * a[4]! + a[8]! * a[8]!;
    if (off <= 1e-24 * diag) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[3 * p + q]!;
      if (apq === 0) continue;
      const theta = (a[3 * q + q]! - a[3 * p + p]!) / (2 * apq);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const sn = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p]!;
        const akq = a[3 * k + q]!;
        a[3 * k + p] = c * akp - sn * akq;
        a[3 * k + q] = sn * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k]!;
        const aqk = a[3 * q + k]!;
        a[3 * p + k] = c * apk - sn * aqk;
        a[3 * q + k] = sn * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p]!;
        const vkq = v[3 * k + q]!;
        v[3 * k + p] = c * vkp - sn * vkq;
        v[3 * k + q] = sn * vkp + c * vkq;
      }
    }
  }
  let i = 0;
  if (a[4]! < a[0]!) i = 1;
  if (a[8]! < a[3 * i + i]!) i = 2;
  return [v[i]!, v[3 + i]!, v[6 + i]!];
}

/**
 * The vanishing point of the world's verticals, finite (a tilted camera) or at infinity (a level
 * one), in homogeneous coordinates so both are one case. Candidates are the intersections of
 * pairs of the longest near-vertical segments plus their mean direction at infinity
 * (exhaustive, hence deterministic); the best supported one is refined by reweighted least
 * squares on the lines' homogeneous coordinates. Segments that point at the depth vanishing
 * point while leaning are floor or ceiling lines, not verticals, and are left out.
 */
export function estimateVerticalVanishingPoint(
  segments: Segment[],
  width: number,
  height: number,
  depthVp: { x: number; y: number } | null,
): VerticalVanishingPoint | null {
  const vertical = segments
    .filter(isNearVertical)
    .filter((s) => !depthVp || Math.abs(s.angle - Math.PI / 2) < 2 * DEG || agreement(s, depthVp.x, depthVp.y, 0.5 * DEG) === 0)
    .sort((a, b) => b.length - a.length || a.x1 - b.x1);
  if (vertical.length < 2) return null;
  // Lines in coordinates centred on the image and scaled by its long side, for conditioning.
  const cx = width / 2;
  const cy = height / 2;
  const scale = Math.max(width, height);
  const lines = vertical.map((s) => {
    const x1 = (s.x1 - cx) / scale;
    const y1 = (s.y1 - cy) / scale;
    const x2 = (s.x2 - cx) / scale;
    const y2 = (s.y2 - cy) / scale;
    const a = y1 - y2;
    const b = x2 - x1;
    const n = Math.hypot(a, b);
    return [a / n, b / n, (x1 * y2 - x2 * y1) / n] as const;
  });
  const toPixels = (h: readonly [number, number, number]): HomogeneousPoint => {
    const n = Math.hypot(h[0], h[1], h[2]);
    return { x: (h[0] * scale + cx * h[2]) / n, y: (h[1] * scale + cy * h[2]) / n, w: h[2] / n };
  };
  const supportOf = (p: HomogeneousPoint, tol: number) => {
    let support = 0;
    let count = 0;
    for (const s of vertical) {
      const g = agreementH(s, p, tol);
      support += s.length * g;
      if (g > 0) count++;
    }
    return { support, count };
  };
  let mx = 0;
  let my = 0;
  for (const s of vertical) {
    const up = s.y2 < s.y1 ? 1 : -1;
    mx += up * (s.x2 - s.x1);
    my += up * (s.y2 - s.y1);
  }
  const candidates: HomogeneousPoint[] = [{ x: mx, y: my, w: 0 }];
  const top = lines.slice(0, 60);
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      const p = top[i]!;
      const q = top[j]!;
      const h = [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]] as const;
      if (Math.hypot(h[0], h[1], h[2]) < 1e-9) continue;
      const c = toPixels(h);
      // A finite point inside the image cannot be where verticals meet.
      if (Math.abs(c.w) > 1e-12 && c.x / c.w > 0 && c.x / c.w < width && c.y / c.w > 0 && c.y / c.w < height) continue;
      candidates.push(c);
    }
  }
  let best: VerticalVanishingPoint | null = null;
  for (const c of candidates) {
    const { support, count } = supportOf(c, SUPPORT_TOL);
    if (!best || support > best.support) best = { ...c, support, count };
  }
  if (!best) return null;
  // Reweighted least squares: the point minimising the weighted squared algebraic distances to
  // the inlier lines, which near infinity measure angles rather than pixels.
  let cur: HomogeneousPoint = best;
  for (let iter = 0; iter < 3; iter++) {
    const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    let used = 0;
    vertical.forEach((s, k) => {
      const w = s.length * agreementH(s, cur, 2 * SUPPORT_TOL);
      if (w <= 0) return;
      used++;
      const l = lines[k]!;
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[3 * r + c]! += w * l[r]! * l[c]!;
    });
    if (used < 2) break;
    cur = toPixels(smallestEigenvector(m));
  }
  const refined = supportOf(cur, SUPPORT_TOL);
  if (refined.support >= 0.95 * best.support) best = { ...cur, ...refined };
  return best;
}
