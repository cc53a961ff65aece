import type { Opening } from './analyze.ts';
import type { RoomBox } from './roombox.ts';
import type { ShadeGrid } from './shadows.ts';
import { clamp, smoothstep, type Vec3 } from './vec.ts';

/** Floor this much brighter than the floor's median is in the sun; below EVEN it is not. */
export const SUNLIT = 1.35;
const EVEN = 1.1;
/** Fewest sunlit cells (of 5 cm) that make a patch worth explaining: a tenth of a square metre. */
const MIN_CELLS = 40;
/**
 * A sun patch's edge is sharp: across it (two cells, 10 cm, either side) the light drops by this
 * much. Daylight pooled before a window is bright there too, but fades gradually; explaining it
 * by a sun put hard shadows across furniture in an overcast room.
 */
const EDGE_CONTRAST = 1.25;
/** The best direction must send this many more of the sunlit cells than of the others through an opening. */
const MIN_SCORE = 0.45;
const DEGREE = Math.PI / 180;
const COARSE = 6 * DEGREE;
const FINE = 1.5 * DEGREE;
const MIN_ELEVATION = 10 * DEGREE;
const MAX_ELEVATION = 80 * DEGREE;
const SAMPLED = 400;

/**
 * The direction of the sun (unit, pointing at it) that explains the photo's sun patches: from
 * each sunlit point of the floor a ray that way passes through a window, from the floor around
 * them it does not. The sky above 10 degrees is searched, coarse then fine; null when no patch is seen or
 * no direction explains it (the sun comes through a window the photo does not show).
 */
export function estimateSun(box: RoomBox, openings: Opening[], floorLight: ShadeGrid | null): Vec3 | null {
  const windows = openings.filter((o) => o.daylight);
  if (!floorLight || !windows.length) return null;
  const lit: number[] = [];
  const even: number[] = [];
  const { u0, v0, cell, nu, nv, factor } = floorLight;
  for (let iv = 0; iv < nv; iv++) {
    for (let iu = 0; iu < nu; iu++) {
      const f = factor[iv * nu + iu]!;
      // Exactly 1 is a cell the photo does not show.
      if (f === 1) continue;
      const to = f > SUNLIT ? lit : f < EVEN ? even : null;
      to?.push(u0 + (iu + 0.5) * cell, v0 + (iv + 0.5) * cell);
    }
  }
  if (lit.length / 2 < MIN_CELLS || even.length / 2 < MIN_CELLS) return null;
  if (edgeContrast(floorLight) < EDGE_CONTRAST) return null;
  // Every few cells of a large set are enough to score a direction, at a fraction of the cost.
  const share = (cells: number[], d: Vec3) => {
    const stride = 2 * Math.max(1, Math.floor(cells.length / 2 / SAMPLED));
    let n = 0;
    let total = 0;
    for (let k = 0; k < cells.length; k += stride, total++) if (leavesThrough(box, windows, cells[k]!, cells[k + 1]!, d)) n++;
    return n / total;
  };
  let best = { el: 0, az: 0, score: -Infinity };
  const tryAt = (el: number, az: number) => {
    const d: Vec3 = [Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az)];
    const score = share(lit, d) - share(even, d);
    if (score > best.score) best = { el, az, score };
  };
  // Coarse over the sky, then fine around the best.
  for (let el = MIN_ELEVATION; el < MAX_ELEVATION; el += COARSE) for (let az = -Math.PI; az < Math.PI; az += COARSE) tryAt(el, az);
  const { el: el0, az: az0 } = best;
  for (let de = -COARSE; de <= COARSE; de += FINE) for (let da = -COARSE; da <= COARSE; da += FINE) tryAt(clamp(el0 + de, MIN_ELEVATION, MAX_ELEVATION), az0 + da);
  if (best.score < MIN_SCORE) return null;
  return [Math.cos(best.el) * Math.sin(best.az), Math.sin(best.el), Math.cos(best.el) * Math.cos(best.az)];
}

/**
 * How sharply the sunlit cells end: the mean light of those within two cells of the floor that
 * is not sunlit, over the mean of that floor within two cells of them.
 */
function edgeContrast({ nu, nv, factor }: ShadeGrid): number {
  const seen = (u: number, v: number) => u >= 0 && v >= 0 && u < nu && v < nv && factor[v * nu + u]! !== 1;
  let inside = 0;
  let nIn = 0;
  let outside = 0;
  let nOut = 0;
  for (let iv = 0; iv < nv; iv++) {
    for (let iu = 0; iu < nu; iu++) {
      const f = factor[iv * nu + iu]!;
      if (f === 1) continue;
      const lit = f > SUNLIT;
      let across = false;
      for (let dv = -2; dv <= 2 && !across; dv++) {
        for (let du = -2; du <= 2 && !across; du++) across = seen(iu + du, iv + dv) && factor[(iv + dv) * nu + iu + du]! > SUNLIT !== lit;
      }
      if (!across) continue;
      if (lit) {
        inside += f;
        nIn++;
      } else {
        outside += f;
        nOut++;
      }
    }
  }
  return nIn && nOut ? inside / nIn / (outside / nOut) : 0;
}

/**
 * Where the ray from point (x, y, z) towards `d` meets the wall of opening `o`: how far along the
 * ray (Infinity when it runs away from that wall) and how far inside the opening's outline, in
 * metres (negative outside).
 */
function exitThrough(box: RoomBox, o: Opening, x: number, y: number, z: number, d: Vec3): { t: number; inside: number } {
  let t: number;
  if (o.wall === 'back') t = d[2] > 1e-6 ? (box.back - z) / d[2] : Infinity;
  else if (o.wall === 'left') t = d[0] < -1e-6 ? (box.left - x) / d[0] : Infinity;
  else t = d[0] > 1e-6 ? (box.right - x) / d[0] : Infinity;
  if (!Number.isFinite(t)) return { t, inside: -Infinity };
  const along = o.wall === 'back' ? x + d[0] * t : z + d[2] * t;
  const h = y + d[1] * t;
  return { t, inside: Math.min(along - o.from, o.to - along, h - o.bottom, o.top - h) };
}

/**
 * Whether the ray from point (x, y, z) (on the floor unless `y` is given) towards `d` leaves the
 * room box through one of the openings, each grown by `margin` metres.
 */
export function leavesThrough(box: RoomBox, openings: Opening[], x: number, z: number, d: Vec3, margin = 0, y = 0): boolean {
  return openings.some((o) => exitThrough(box, o, x, y, z, d).inside > -margin);
}

/** The sun's apparent diameter in radians: how fast the edge of its light through a window widens with distance. */
const SUN_DIAMETER = 0.0093;

/**
 * The share of the sun's disc seen from (x, y, z) through the openings: 1 well inside the patch
 * a window lets in, 0 outside, with the penumbra a window frame casts in between (a centimetre or
 * two across a room). A yes or no here is decided once per pixel and drew the edge of the sun
 * across a sofa's cushions as a pixel staircase.
 */
export function sunThrough(box: RoomBox, openings: Opening[], x: number, y: number, z: number, d: Vec3): number {
  let share = 0;
  for (const o of openings) {
    const { t, inside } = exitThrough(box, o, x, y, z, d);
    if (!Number.isFinite(t)) continue;
    const half = Math.max(0.004, (SUN_DIAMETER * t) / 2);
    share = Math.max(share, smoothstep(-half, half, inside));
  }
  return share;
}

/** How much brighter the photo's sun patches are than the floor's median: the sun's strength on the floor. */
export function patchBrightness(floorLight: ShadeGrid): number {
  const lit = Array.from(floorLight.factor).filter((f) => f > SUNLIT);
  if (!lit.length) return 1;
  lit.sort((a, b) => a - b);
  return lit[lit.length >> 1]!;
}
