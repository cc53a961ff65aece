import type { Opening } from './analyze.ts';
import type { Camera } from './camera.ts';
import type { Segment } from './lines.ts';
import type { RoomBox } from './roombox.ts';
import type { ShadeGrid } from './shadows.ts';
import { clamp, smoothstep, type Vec3 } from './vec.ts';

/** The sun, when the photo shows its patches on the floor. */
export interface Sun {
  /** Unit, towards the sun. */
  dir: Vec3;
  /**
   * When the window it comes through is out of frame (`estimateHiddenSun`): the floor's light
   * (as the photo's floor light) over its patches only, 1 elsewhere. Null when an opening found
   * explains them.
   */
  patches: ShadeGrid | null;
}

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
  const cells = patchCells(floorLight);
  if (!cells) return null;
  const { lit, even } = cells;
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
 * At least this share of the sun patches' edges (by length) must run one way: the bands a
 * window's frame casts are parallel to the sun's bearing. A patch with no long parallel sides
 * gives no bearing.
 */
const BAND_SHARE = 0.5;
/** Of the patch's rays towards the sun, at most this share may leave through walls the photo shows. */
const SHOWN_AT_MOST = 0.25;
/**
 * The other way along the bands, at least this much more must, so that the side is clear;
 * short of that, the sun is taken to be on the camera's side when the bands run at least this
 * steeply towards it (the sine of 20 degrees off square to its axis).
 */
const SIDE_MARGIN = 0.4;
const TOWARDS_CAMERA = 0.35;
/** Assumed when its window is out of frame: that wall this far behind the camera, and the window's head this high. */
const FRONT_BEHIND = 1;
const HEAD = 2.1;
/**
 * The guessed elevation is kept above this: below it the sun would light the furniture's fronts
 * nearly white, on the strength of a guess.
 */
const MIN_HIDDEN_ELEVATION = 25 * DEGREE;
const MAX_HIDDEN_ELEVATION = 60 * DEGREE;

const PATCH_CORE = 0.5;

/**
 * How bright the photo's floor (its light over the median's, `factor`) must be to be wholly in
 * the sun: SUNLIT, or PATCH_CORE of the way up to the brightest tenth of the bright floor where
 * that is much brighter. Beside a window the floor is bright without sun too, lit by the window
 * and mirroring the wall round it, fading over a metre or two; where the sun falls there as
 * well, its patch is several times brighter again.
 */
export function litThreshold(factor: Float32Array): number {
  const bright = Array.from(factor).filter((f) => f > SUNLIT);
  if (!bright.length) return SUNLIT;
  bright.sort((a, b) => a - b);
  return Math.max(SUNLIT, 1 + PATCH_CORE * (bright[Math.floor(bright.length * 0.9)]! - 1));
}

/** The sunlit and evenly lit cells' floor points, [x, z, x, z, ...], or null when there is no sun patch worth explaining. */
function patchCells(floorLight: ShadeGrid): { lit: number[]; even: number[] } | null {
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
  return { lit, even };
}

/**
 * The sun when the window it shines through is out of frame (behind the camera, or a side
 * wall's stretch the photo does not show), from its patches alone. Their long edges are the
 * shadows of the window's upright sides and bars, parallel to the sun's bearing; of the two ways
 * along them, the sun lies the way whose rays leave the room where the photo shows no wall (on
 * the camera's side when the two ways are alike in that). Its elevation would need the window's
 * height and place, which the photo does not show: it is taken so that a ray from the bands' far
 * end passes a usual window head at a wall a metre behind the camera. A wrong elevation slides
 * what it lights along the bands, which changes little. Its patches are the bands alone.
 */
export function estimateHiddenSun(cam: Camera, box: RoomBox, floorLight: ShadeGrid | null, segments: Segment[]): Sun | null {
  if (!floorLight) return null;
  const cells = patchCells(floorLight);
  if (!cells) return null;
  const bands = bandDirection(cam, floorLight, segments);
  if (!bands) return null;
  const [ax, az] = bands.along;
  const shown = [1, -1].map((s) => exits(cam, box, cells.lit, s * ax, s * az).shown);
  let s: number;
  if (Math.abs(shown[0]! - shown[1]!) >= SIDE_MARGIN) s = shown[0]! < shown[1]! ? 1 : -1;
  // A window that far in front of the camera would be in the frame.
  else if (Math.abs(az) >= TOWARDS_CAMERA) s = az < 0 ? 1 : -1;
  else return null;
  if (shown[s === 1 ? 0 : 1]! > SHOWN_AT_MOST) return null;
  const far = exits(cam, box, bands.ends, s * ax, s * az).far;
  const el = clamp(Math.atan2(Math.min(HEAD, box.ceiling - 0.3), far), MIN_HIDDEN_ELEVATION, MAX_HIDDEN_ELEVATION);
  return { dir: [Math.cos(el) * s * ax, Math.sin(el), Math.cos(el) * s * az], patches: bandPatches(floorLight, bands.seeds) };
}

/** Cells within this many of a band's sunlit cells are its edge's ramp, kept with it. */
const RAMP = 2;

/**
 * The floor's light over the sunlit patches that the band edges bound (flooded from `seeds`,
 * [x, z, ...] on their lit sides, with their ramps), 1 elsewhere: other bright floor, such as
 * a pale wall's foot taken for floor, is no sun patch.
 */
function bandPatches(light: ShadeGrid, seeds: number[]): ShadeGrid {
  const { u0, v0, cell, nu, nv, factor } = light;
  const inPatch = new Uint8Array(nu * nv);
  const stack: number[] = [];
  for (let k = 0; k < seeds.length; k += 2) {
    const iu = Math.floor((seeds[k]! - u0) / cell);
    const iv = Math.floor((seeds[k + 1]! - v0) / cell);
    if (iu >= 0 && iv >= 0 && iu < nu && iv < nv) stack.push(iv * nu + iu);
  }
  while (stack.length) {
    const i = stack.pop()!;
    if (inPatch[i] || factor[i]! <= SUNLIT) continue;
    inPatch[i] = 1;
    const iu = i % nu;
    if (iu > 0) stack.push(i - 1);
    if (iu < nu - 1) stack.push(i + 1);
    if (i >= nu) stack.push(i - nu);
    if (i < nu * (nv - 1)) stack.push(i + nu);
  }
  const out = new Float32Array(nu * nv).fill(1);
  for (let iv = 0; iv < nv; iv++) {
    for (let iu = 0; iu < nu; iu++) {
      let near = false;
      for (let dv = -RAMP; dv <= RAMP && !near; dv++) {
        for (let du = -RAMP; du <= RAMP && !near; du++) {
          const u = iu + du;
          const v = iv + dv;
          near = u >= 0 && v >= 0 && u < nu && v < nv && inPatch[v * nu + u] === 1;
        }
      }
      if (near) out[iv * nu + iu] = factor[iv * nu + iu]!;
    }
  }
  return light.withFactor(out);
}

/** Off a segment's middle, either side, the floor is sampled this far (metres) to tell the patch's edge. */
const EDGE_SIDE = 0.1;
/** Segments shorter than this on the floor (metres) give no bearing. */
const MIN_EDGE = 0.25;
/** Edges within this of each other's way (the cosine of 15 degrees) run one way. */
const BAND_ALIGNED = 0.966;
/** Segments within this of the camera's ray (the sine of 6 degrees) give none either. */
const RADIAL = 0.1;

/**
 * The one way the sun patches' long edges run over the floor (x, z), unit, with the edges'
 * ends and a point on each one's sunlit side ([x, z, ...]), or null when they run many ways.
 * The edges are the photo's straight segments that lie on the floor with a sunlit band on one
 * side and floor out of the sun on the other: sharp in the photo, where the floor's light grid,
 * median-filtered and blurred, rounds a band's ends and tapers it.
 */
function bandDirection(cam: Camera, light: ShadeGrid, segments: Segment[]): { along: [number, number]; ends: number[]; seeds: number[] } | null {
  const edges: Array<{ ux: number; uz: number; len: number; ends: number[]; seed: number[] }> = [];
  for (const g of segments) {
    const a = cam.floorPoint(g.x1, g.y1);
    const b = cam.floorPoint(g.x2, g.y2);
    if (!a || !b) continue;
    const dx = b[0] - a[0];
    const dz = b[2] - a[2];
    const len = Math.hypot(dx, dz);
    if (len < MIN_EDGE) continue;
    const mx = (a[0] + b[0]) / 2;
    const mz = (a[2] + b[2]) / 2;
    // Along the camera's ray it may as well be an upright edge (a post, a wall's corner) seen from above the floor.
    if (Math.abs(dx * mz - dz * mx) < RADIAL * len * Math.hypot(mx, mz)) continue;
    // Across the segment, towards its brighter side.
    let nx = -dz / len;
    let nz = dx / len;
    const one = cellAt(light, mx + nx * EDGE_SIDE, mz + nz * EDGE_SIDE);
    const other = cellAt(light, mx - nx * EDGE_SIDE, mz - nz * EDGE_SIDE);
    if (one === 1 || other === 1 || Math.max(one, other) <= SUNLIT || Math.min(one, other) > SUNLIT) continue;
    if (one < other) {
      nx = -nx;
      nz = -nz;
    }
    if (!acrossBand(light, mx, mz, nx, nz)) continue;
    edges.push({ ux: dx / len, uz: dz / len, len, ends: [a[0], a[2], b[0], b[2]], seed: [mx + nx * EDGE_SIDE, mz + nz * EDGE_SIDE] });
  }
  const total = edges.reduce((t, e) => t + e.len, 0);
  if (total < 2 * MIN_EDGE) return null;
  // The way most of the edges' length runs (either way along it): other bright floor (a pale
  // stretch of the floor, a second window's patch) adds edges that run other ways.
  const aligned = (e: (typeof edges)[number], f: (typeof edges)[number]) => Math.abs(e.ux * f.ux + e.uz * f.uz) >= BAND_ALIGNED;
  let banded: typeof edges = [];
  let support = 0;
  for (const e of edges) {
    const near = edges.filter((f) => aligned(e, f));
    const length = near.reduce((t, f) => t + f.len, 0);
    if (length > support) {
      support = length;
      banded = near;
    }
  }
  if (support / total < BAND_SHARE) return null;
  // Their mean way, in doubled angles: a band's two sides, and a segment's two ends, count the same.
  let c2 = 0;
  let s2 = 0;
  for (const e of banded) {
    c2 += e.len * (e.ux * e.ux - e.uz * e.uz);
    s2 += e.len * 2 * e.ux * e.uz;
  }
  const t = Math.atan2(s2, c2) / 2;
  return { along: [Math.cos(t), Math.sin(t)], ends: banded.flatMap((e) => e.ends), seeds: banded.flatMap((e) => e.seed) };
}

/** The grid's cell under floor point (x, z), unblended: exactly 1 where the photo does not show the floor, and off the grid. */
function cellAt({ u0, v0, cell, nu, nv, factor }: ShadeGrid, x: number, z: number): number {
  const iu = Math.floor((x - u0) / cell);
  const iv = Math.floor((z - v0) / cell);
  return iu < 0 || iv < 0 || iu >= nu || iv >= nv ? 1 : factor[iv * nu + iu]!;
}

/** A band of light is at most this wide (metres) between two shadows of a window's frame. */
const BAND_WIDTH = 1.5;

/**
 * Whether from floor point (x, z) towards the light (ux, uz) the floor turns sunlit and then,
 * within BAND_WIDTH, not sunlit again where the photo still shows it: the edge bounds a band. A bright
 * stretch that runs into what the photo does not show (a pale wall's foot taken for floor at the
 * frame's edge) is no band, and its edge, running along the camera's ray, no bearing.
 */
function acrossBand(light: ShadeGrid, x: number, z: number, ux: number, uz: number): boolean {
  let lit = false;
  for (let d = light.cell / 2; d <= BAND_WIDTH; d += light.cell / 2) {
    const f = cellAt(light, x + ux * d, z + uz * d);
    if (f === 1) return false;
    if (f > SUNLIT) lit = true;
    else if (lit) return true;
  }
  return false;
}

/**
 * Where horizontal rays from floor points ([x, z, ...]) along (ux, uz) leave the room: the share
 * that leaves through a wall the photo shows (at a window's height), and how far the farthest
 * runs first, with a wall FRONT_BEHIND behind the camera.
 */
function exits(cam: Camera, box: RoomBox, points: number[], ux: number, uz: number): { shown: number; far: number } {
  const stride = 2 * Math.max(1, Math.floor(points.length / 2 / SAMPLED));
  const runs: number[] = [];
  let shown = 0;
  for (let k = 0; k < points.length; k += stride) {
    const x = points[k]!;
    const z = points[k + 1]!;
    const toFront = uz < -1e-6 ? (-FRONT_BEHIND - z) / uz : Infinity;
    const t = Math.min(
      ux < -1e-6 ? (box.left - x) / ux : Infinity,
      ux > 1e-6 ? (box.right - x) / ux : Infinity,
      uz > 1e-6 ? (box.back - z) / uz : Infinity,
      toFront,
    );
    runs.push(t);
    if (t === toFront) continue;
    const q = cam.project([x + ux * t, 1.2, z + uz * t]);
    if (q.depth > 0 && q.u >= 0 && q.v >= 0 && q.u <= cam.p.width && q.v <= cam.p.height) shown++;
  }
  return { shown: shown / runs.length, far: Math.max(...runs) };
}

/**
 * The share of the sun reaching (x, y, z) when its window is out of frame: the photo's floor
 * shows where the light through it lands, so a point is in the sun as much as the floor is
 * where its ray goes on, away from the sun. The furniture's own shadows come on top.
 */
export function sunByPatches(floorLight: ShadeGrid, x: number, y: number, z: number, d: Vec3): number {
  const t = y / d[1];
  return inPatch(floorLight.at(x - d[0] * t, z - d[2] * t));
}

/**
 * How surely floor whose light is `factor` times the floor's median is in a sun patch: 0 below
 * EVEN, 1 from SUNLIT; or as far below `sunlit` as EVEN is below SUNLIT, 1 from it.
 */
export const inPatch = (factor: number, sunlit = SUNLIT) => smoothstep(EVEN + sunlit - SUNLIT, sunlit, factor);

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
