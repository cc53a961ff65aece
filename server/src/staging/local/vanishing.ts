import type { Segment } from './lines.ts';

export interface VanishingPoint {
  x: number;
  y: number;
  /** Summed length of the segments that agree with it, in pixels. */
  support: number;
}

const DEG = Math.PI / 180;

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

/**
 * The vanishing point of the room's depth axis: the intersection of oblique segments that the
 * most segment length agrees with. Candidates come from pairs of the longest segments
 * (exhaustive, hence deterministic), and the winner is refined by least squares on its inliers.
 */
export function estimateDepthVanishingPoint(segments: Segment[], width: number, height: number): VanishingPoint | null {
  const oblique = segments.filter(isOblique).sort((a, b) => b.length - a.length || a.x1 - b.x1);
  const top = oblique.slice(0, 60);
  const tol = 1.5 * DEG;
  let best: VanishingPoint | null = null;
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      const a = top[i]!;
      const b = top[j]!;
      if (Math.abs(a.angle - b.angle) < 4 * DEG) continue;
      const p = intersect(a, b);
      if (!p) continue;
      const [x, y] = p;
      if (x < -0.5 * width || x > 1.5 * width || y < 0.15 * height || y > 0.85 * height) continue;
      let support = 0;
      for (const s of oblique) support += s.length * agreement(s, x, y, tol);
      if (!best || support > best.support) best = { x, y, support };
    }
  }
  if (!best) return null;
  // Least-squares refinement: minimise the distances of the point to the inlier lines.
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
    if (Math.hypot(x - best.x, y - best.y) < 0.1 * Math.max(width, height)) {
      let support = 0;
      for (const s of oblique) support += s.length * agreement(s, x, y, tol);
      best = { x, y, support };
    }
  }
  return best;
}

/**
 * Focal length from the second (lateral) vanishing point on the horizon: for orthogonal room
 * axes (uz - cx)(ux - cx) = -f^2. Only meaningful when the depth vanishing point is well off
 * centre; otherwise null and the caller keeps a default.
 */
export function estimateFocal(
  segments: Segment[],
  depthVp: VanishingPoint,
  cx: number,
  width: number,
  height: number,
): number | null {
  const dz = depthVp.x - cx;
  const long = Math.max(width, height);
  if (Math.abs(dz) < 0.08 * width) return null;
  const votes: Array<[number, number]> = [];
  for (const s of segments) {
    const a = s.angle > Math.PI / 2 ? s.angle - Math.PI : s.angle;
    if (Math.abs(a) > 25 * DEG || Math.abs(a) < 0.3 * DEG) continue;
    if (agreement(s, depthVp.x, depthVp.y, 2 * DEG) > 0) continue;
    const slope = Math.tan(a);
    const mx = (s.x1 + s.x2) / 2;
    const my = (s.y1 + s.y2) / 2;
    const xh = mx + (depthVp.y - my) / slope;
    const f2 = -dz * (xh - cx);
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
