import type { Opening, WallId } from './analyze.ts';
import type { Mesh } from './mesh.ts';
import { wallPoint, wallRange, type RoomBox } from './roombox.ts';
import type { Vec3 } from './vec.ts';

/**
 * Differential shadows (Debevec 1998): how much of the light the photo's own floor and walls
 * receive is left once the furniture stands in the room, as a factor <= 1 that multiplies the
 * photo. The room's light is a uniform ambient part (the walls and ceiling bouncing light
 * around) plus the bright openings as area lights; the furniture is an occupancy height field
 * over the floor, which is what the ambient occlusion and the openings' shadow rays are
 * marched through.
 */

/** A regular grid of factors over a surface (floor: x and z; wall: along and height), sampled bilinearly. */
export class ShadeGrid {
  constructor(
    readonly u0: number,
    readonly v0: number,
    readonly cell: number,
    readonly nu: number,
    readonly nv: number,
    readonly factor: Float32Array,
  ) {}

  /** The same cells holding other factors. */
  withFactor(factor: Float32Array): ShadeGrid {
    return new ShadeGrid(this.u0, this.v0, this.cell, this.nu, this.nv, factor);
  }

  /** Bilinear inside the grid and clamped to its edge cells up to its border; 1 (no change) outside. */
  at(u: number, v: number): number {
    const gu = (u - this.u0) / this.cell - 0.5;
    const gv = (v - this.v0) / this.cell - 0.5;
    if (gu < -0.5 || gv < -0.5 || gu > this.nu - 0.5 || gv > this.nv - 0.5) return 1;
    const iu = Math.min(this.nu - 2, Math.max(0, Math.floor(gu)));
    const iv = Math.min(this.nv - 2, Math.max(0, Math.floor(gv)));
    const fu = Math.min(1, Math.max(0, gu - iu));
    const fv = Math.min(1, Math.max(0, gv - iv));
    const i = iv * this.nu + iu;
    const f = this.factor;
    return (
      f[i]! * (1 - fu) * (1 - fv) + f[i + 1]! * fu * (1 - fv) + f[i + this.nu]! * (1 - fu) * fv + f[i + this.nu + 1]! * fu * fv
    );
  }
}

export interface RoomShadows {
  /** Over the floor, by x and z, with the contact shadows around what touches it; rugs sample it too. */
  floor: ShadeGrid;
  /**
   * The same light without the contact shadows, and under a base the light just around it:
   * what the furniture's own parts near the floor (feet, a pedestal's base) receive.
   */
  pieces: ShadeGrid;
  /** Per wall near the furniture, by position along the wall and height. */
  walls: Partial<Record<WallId, ShadeGrid>>;
}

/** One point of an opening's area light. */
export interface LightSample {
  /** Centre of the patch of the opening it stands for, and half that patch's sides. */
  p: Vec3;
  halfAlong: Vec3;
  halfUp: number;
  /** Into the room (unit). */
  n: Vec3;
  /** Radiance times the area it stands for, relative to the ambient light's radiance. */
  w: number;
  /** Which of two interleaved halves of its opening's samples it is in (`receive`). */
  half: 0 | 1;
}

/**
 * An opening's sky is far brighter than the walls it lights (an overcast sky through glass is
 * some ten to thirty times a white wall's radiance): with this ratio the window's share of the
 * floor's light is about the ambient's at 2 m from a 1.5 m2 window, and dominates near it.
 */
const OPENING_RADIANCE = 18;
const MAX_SAMPLES = 24;

/** The bright openings as grids of light samples, a few per square metre, 24 at most in all. */
export function openingLights(box: RoomBox, openings: Opening[]): LightSample[] {
  const lit = openings.filter((o) => o.daylight && o.to > o.from && o.top > o.bottom);
  const out: LightSample[] = [];
  if (!lit.length) return out;
  const per = Math.max(4, Math.floor(MAX_SAMPLES / lit.length));
  for (const o of lit) {
    const w = o.to - o.from;
    const h = o.top - o.bottom;
    // Square-ish patches: more samples along the longer side.
    const na = Math.max(2, Math.min(per >> 1, Math.round(Math.sqrt((per * w) / h))));
    const nh = Math.max(2, Math.floor(per / na));
    const n: Vec3 = o.wall === 'back' ? [0, 0, -1] : o.wall === 'left' ? [1, 0, 0] : [-1, 0, 0];
    const halfAlong: Vec3 = o.wall === 'back' ? [w / na / 2, 0, 0] : [0, 0, w / na / 2];
    for (let i = 0; i < na; i++) {
      for (let j = 0; j < nh; j++) {
        const p = wallPoint(box, o.wall, o.from + ((i + 0.5) * w) / na, o.bottom + ((j + 0.5) * h) / nh, 0.02);
        out.push({ p, halfAlong, halfUp: h / nh / 2, n, w: (OPENING_RADIANCE * w * h) / (na * nh) / Math.PI, half: ((i + j) & 1) as 0 | 1 });
      }
    }
  }
  return out;
}

/** Height slabs per occupancy cell: one bit each of a 32-bit word. */
const SLABS = 32;

/**
 * What the furniture occupies above each floor cell: its lowest and highest surface (metres),
 * and which of SLABS equal slabs up to the tallest piece hold some of it. An open frame (a
 * sling chair's side, a table's legs and top) leaves the slabs between its members empty, so
 * light and the room's ambient pass between them as they would past the real piece; lowest to
 * highest alone would make it a solid panel.
 */
class Occupancy {
  readonly lo: Float32Array;
  readonly hi: Float32Array;
  readonly slabs: Uint32Array;
  /** Metres per slab. */
  readonly slab: number;
  top = 0;
  /** The occupied cells' extent in metres, where shadow rays need marching. */
  ext = { x0: Infinity, z0: Infinity, x1: -Infinity, z1: -Infinity };
  constructor(
    readonly x0: number,
    readonly z0: number,
    readonly cell: number,
    readonly nx: number,
    readonly nz: number,
    tallest: number,
  ) {
    this.lo = new Float32Array(nx * nz).fill(Infinity);
    this.hi = new Float32Array(nx * nz).fill(-Infinity);
    this.slabs = new Uint32Array(nx * nz);
    this.slab = Math.max(tallest, 0.05) / SLABS;
  }

  index(x: number, z: number): number {
    const ix = Math.floor((x - this.x0) / this.cell);
    const iz = Math.floor((z - this.z0) / this.cell);
    return ix < 0 || iz < 0 || ix >= this.nx || iz >= this.nz ? -1 : iz * this.nx + ix;
  }

  slabOf(y: number): number {
    return Math.min(SLABS - 1, Math.max(0, Math.floor(y / this.slab)));
  }

  mark(i: number, lo: number, hi: number): void {
    if (lo < this.lo[i]!) this.lo[i] = lo;
    if (hi > this.hi[i]!) this.hi[i] = hi;
    if (hi > this.top) this.top = hi;
    const a = this.slabOf(lo);
    const n = this.slabOf(hi) - a + 1;
    this.slabs[i] = this.slabs[i]! | ((n >= 32 ? 0xffffffff : (1 << n) - 1) << a);
    const x = this.x0 + (i % this.nx) * this.cell;
    const z = this.z0 + Math.floor(i / this.nx) * this.cell;
    const e = this.ext;
    if (x < e.x0) e.x0 = x;
    if (x + this.cell > e.x1) e.x1 = x + this.cell;
    if (z < e.z0) e.z0 = z;
    if (z + this.cell > e.z1) e.z1 = z + this.cell;
  }

  /**
   * Whether height y over cell i is inside the furniture, to the slab: a thin panel (a sling, a
   * single-sided top) fills its whole slab, so a ray marched in steps cannot slip through it.
   */
  solid(i: number, y: number): boolean {
    return y >= 0 && y <= this.top && ((this.slabs[i]! >>> this.slabOf(y)) & 1) === 1;
  }

  /**
   * The heights the furniture fills over cell i, as runs of slabs (each clipped to the cell's
   * lowest and highest surface where that leaves it some thickness), seen from height y across
   * the stretch of distances [near, far] a march step stands for: each run adds the span of
   * slopes (height over distance) it covers to `into`.
   */
  addRuns(i: number, y: number, near: number, far: number, into: SpanUnion): void {
    let w = this.slabs[i]!;
    const lo = this.lo[i]!;
    const hi = this.hi[i]!;
    while (w !== 0) {
      const s = 31 - Math.clz32(w & -w);
      const above = ~(w >>> s);
      const len = above === 0 ? 32 - s : 31 - Math.clz32(above & -above);
      let y0 = s * this.slab;
      let y1 = (s + len) * this.slab;
      if (lo > y0 && lo < y1) y0 = lo;
      if (hi < y1 && hi > y0) y1 = hi;
      // Slopes fall with distance above the receiver and rise below it.
      const a = y0 - y;
      const b = y1 - y;
      into.add(a / (a > 0 ? far : near), b / (b > 0 ? near : far));
      w = s + len >= 32 ? 0 : w & (0xffffffff << (s + len));
    }
  }

  /** Rasterises a triangle's plan onto the cells, with its height interpolated per cell; vertical faces mark the cells along their edges. */
  addTriangle(P: ArrayLike<number>, o: number): void {
    const c = this.cell;
    const ax = (P[o]! - this.x0) / c;
    const ay = P[o + 1]!;
    const az = (P[o + 2]! - this.z0) / c;
    const bx = (P[o + 3]! - this.x0) / c;
    const by = P[o + 4]!;
    const bz = (P[o + 5]! - this.z0) / c;
    const cx = (P[o + 6]! - this.x0) / c;
    const cy = P[o + 7]!;
    const cz = (P[o + 8]! - this.z0) / c;
    const lo = Math.min(ay, by, cy);
    const hi = Math.max(ay, by, cy);
    const area = (bx - ax) * (cz - az) - (cx - ax) * (bz - az);
    const minX = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const maxX = Math.min(this.nx - 1, Math.floor(Math.max(ax, bx, cx)));
    const minZ = Math.max(0, Math.floor(Math.min(az, bz, cz)));
    const maxZ = Math.min(this.nz - 1, Math.floor(Math.max(az, bz, cz)));
    if (minX > maxX || minZ > maxZ) return;
    if (Math.abs(area) < 0.05 || (maxX - minX < 2 && maxZ - minZ < 2)) {
      // Vertical or smaller than a few cells: every cell its edges cross gets its whole height.
      for (const [px, pz, qx, qz] of [
        [ax, az, bx, bz],
        [bx, bz, cx, cz],
        [cx, cz, ax, az],
      ] as const) {
        const n = Math.ceil(2 * Math.hypot(qx - px, qz - pz)) + 1;
        for (let k = 0; k <= n; k++) {
          const i = this.index(this.x0 + (px + ((qx - px) * k) / n) * c, this.z0 + (pz + ((qz - pz) * k) / n) * c);
          if (i >= 0) this.mark(i, lo, hi);
        }
      }
      return;
    }
    for (let z = minZ; z <= maxZ; z++) {
      for (let x = minX; x <= maxX; x++) {
        const px = x + 0.5;
        const pz = z + 0.5;
        const w0 = ((bx - px) * (cz - pz) - (cx - px) * (bz - pz)) / area;
        const w1 = ((cx - px) * (az - pz) - (ax - px) * (cz - pz)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < -0.05 || w1 < -0.05 || w2 < -0.05) continue;
        const y = w0 * ay + w1 * by + w2 * cy;
        this.mark(z * this.nx + x, y, y);
      }
    }
  }

  /**
   * The stretch [t0, t1] of `blocked`'s ray within the furniture's extent so far, narrowed axis
   * by axis by `clip`: kept here, since this runs for every shadow ray and a tuple per axis was
   * the largest part of the engine's garbage.
   */
  private t0 = 0;
  private t1 = 0;

  /** Narrows [t0, t1] to where the ray from `o` along `u` lies within [lo, hi] on one axis; false when it never does. */
  private clip(o: number, u: number, lo: number, hi: number): boolean {
    if (Math.abs(u) < 1e-9) return o >= lo && o <= hi;
    const ta = (lo - o) / u;
    const tb = (hi - o) / u;
    this.t0 = Math.max(this.t0, Math.min(ta, tb));
    this.t1 = Math.min(this.t1, Math.max(ta, tb));
    return true;
  }

  /** Whether the segment from q to p (straight, in metres) passes through an occupied cell. */
  blocked(qx: number, qy: number, qz: number, px: number, py: number, pz: number): boolean {
    const dx = px - qx;
    const dz = pz - qz;
    const dist = Math.sqrt(dx * dx + dz * dz);
    if (dist < 1e-6) return false;
    const slope = (py - qy) / dist;
    const ux = dx / dist;
    const uz = dz / dist;
    // Only the stretch of the ray over the occupied extent (a slab test), and within it only
    // where the ray is between the floor and the tallest piece, can meet anything.
    const e = this.ext;
    this.t0 = 0;
    this.t1 = dist;
    if (!this.clip(qx, ux, e.x0, e.x1) || !this.clip(qz, uz, e.z0, e.z1)) return false;
    const { t0, t1 } = this;
    if (t0 >= t1) return false;
    const step = this.cell;
    let from = t0;
    let to = t1;
    if (slope === 0) {
      if (qy < 0 || qy > this.top) return false;
    } else {
      const atFloor = -qy / slope;
      const atTop = (this.top - qy) / slope;
      from = Math.max(from, Math.min(atFloor, atTop));
      to = Math.min(to, Math.max(atFloor, atTop));
    }
    // The march keeps its steps on the same lattice from t0, so skipping changes no sample.
    const first = Math.max(0, Math.ceil((from - t0) / step - 0.5) - 1);
    const inv = 1 / this.cell;
    for (let t = t0 + (first + 0.5) * step; t < t1 && t <= to + step; t += step) {
      const y = qy + slope * t;
      const ix = Math.floor((qx + ux * t - this.x0) * inv);
      const iz = Math.floor((qz + uz * t - this.z0) * inv);
      if (ix < 0 || iz < 0 || ix >= this.nx || iz >= this.nz) return false;
      if (this.solid(iz * this.nx + ix, y)) return true;
    }
    return false;
  }
}

/**
 * The union of intervals (of the slopes a direction sees filled) so far, kept sorted and
 * disjoint; a few per direction, so insertion by shifting is cheap.
 */
class SpanUnion {
  private readonly s = new Float64Array(2 * 64);
  private n = 0;

  clear(): void {
    this.n = 0;
  }

  add(a: number, b: number): void {
    const s = this.s;
    let i = 0;
    while (i < this.n && s[2 * i + 1]! < a) i++;
    let j = i;
    let lo = a;
    let hi = b;
    while (j < this.n && s[2 * j]! <= b) {
      lo = Math.min(lo, s[2 * j]!);
      hi = Math.max(hi, s[2 * j + 1]!);
      j++;
    }
    const merged = j - i;
    if (merged === 0) {
      // A new span: past 64 it joins its neighbour (an over-estimate no scene comes near).
      if (this.n === 64) {
        const k = Math.min(i, 63);
        s[2 * k] = Math.min(s[2 * k]!, lo);
        s[2 * k + 1] = Math.max(s[2 * k + 1]!, hi);
        return;
      }
      for (let k = 2 * this.n - 1; k >= 2 * i; k--) s[k + 2] = s[k]!;
      this.n++;
    } else if (merged > 1) {
      for (let k = 2 * j; k < 2 * this.n; k++) s[k - 2 * (merged - 1)] = s[k]!;
      this.n -= merged - 1;
    }
    s[2 * i] = lo;
    s[2 * i + 1] = hi;
  }

  /** The union's total length in an increasing measure of the slope. */
  total(measure: (slope: number) => number): number {
    let t = 0;
    for (let k = 0; k < this.n; k++) t += measure(this.s[2 * k + 1]!) - measure(this.s[2 * k]!);
    return t;
  }
}

/** Scratch for the ambient occlusion's per-direction union (one shading pass runs per thread at a time). */
const SPANS = new SpanUnion();

/** Ambient occlusion is marched out to this distance, in steps growing geometrically from the receiver. */
const AO_REACH = 1.6;
const AO_DIRS = 16;
/** Furniture closer than this to the floor touches it: the dark line along a base or under a foot. */
const CONTACT_GAP = 0.03;
/**
 * Right by a base or foot the floor sees almost nothing of the room sideways and a photo shows a
 * dark line where a piece meets the floor: the whole light there is cut by up to this much,
 * fading with the distance from the piece over CONTACT_REACH (metres), whatever the cell size,
 * so a thin leg gets as strong a contact as a plinth.
 */
const CONTACT_DARK = 0.8;
const CONTACT_REACH = 0.03;
/**
 * A body hanging low over the floor (a sofa's frame, a bed's rails) shuts the floor under and
 * just in front of it off from the room more than the coarse occlusion shows: the floor under a
 * clearance of c (below LOW_CLEARANCE) is darkened by up to LOW_DARK * (1 - c / LOW_CLEARANCE),
 * spread a few centimetres past the body's edge.
 */
const LOW_CLEARANCE = 0.2;
const LOW_DARK = 0.45;
/** Occluded directions still see the furniture's own surfaces, which reflect part of the light back. */
const FURNITURE_BOUNCE = 0.2;

function aoSteps(cell: number): Float32Array {
  const out: number[] = [];
  for (let d = 0.6 * cell; d < AO_REACH; d *= 1.2) out.push(d);
  return Float32Array.from(out);
}

/** Scratch for `turnDirections` (one shading pass runs per thread at a time). */
const TURNED = new Float32Array(2 * AO_DIRS);

/** The ambient directions turned by a per-receiver angle, so neighbours sample between each other's directions. */
function turnDirections(dirs: Float32Array, id: number): Float32Array {
  const turn = (jitter(id, -1) * 2 * Math.PI) / AO_DIRS;
  const c = Math.cos(turn);
  const sn = Math.sin(turn);
  for (let a = 0; a < AO_DIRS; a++) {
    TURNED[2 * a] = c * dirs[2 * a]! - sn * dirs[2 * a + 1]!;
    TURNED[2 * a + 1] = sn * dirs[2 * a]! + c * dirs[2 * a + 1]!;
  }
  return TURNED;
}

/** Index of the occupancy cell under floor point (x, z), or -1 off the grid. */
function cellAt(occ: Occupancy, x: number, z: number): number {
  const ix = Math.floor((x - occ.x0) / occ.cell);
  const iz = Math.floor((z - occ.z0) / occ.cell);
  return ix < 0 || iz < 0 || ix >= occ.nx || iz >= occ.nz ? -1 : iz * occ.nx + ix;
}

/**
 * Fills SPANS with the slopes the furniture fills seen from (x, y, z) along (ux, uz), out to
 * the last step. Consecutive steps over cells filled alike (one cell, or the inside of a
 * sofa's body) are one stretch of distances, added once.
 */
function marchSpans(occ: Occupancy, x: number, y: number, z: number, ux: number, uz: number, steps: Float32Array): void {
  SPANS.clear();
  let cell = -1;
  let near = 0;
  let far = 0;
  for (let k = 0; k < steps.length; k++) {
    const d = steps[k]!;
    const i = cellAt(occ, x + ux * d, z + uz * d);
    if (i !== cell && (i < 0 || cell < 0 || occ.slabs[i] !== occ.slabs[cell] || occ.lo[i] !== occ.lo[cell] || occ.hi[i] !== occ.hi[cell])) {
      if (cell >= 0 && occ.slabs[cell] !== 0) occ.addRuns(cell, y, near, far, SPANS);
      if (i < 0) return;
      near = k > 0 ? steps[k - 1]! : 0.5 * d;
    }
    cell = i;
    far = d;
  }
  if (cell >= 0 && occ.slabs[cell] !== 0) occ.addRuns(cell, y, near, far, SPANS);
}

/** The cosine-weighted measure of elevations from the floor up to slope t: sin^2 of the elevation. */
const floorMeasure = (t: number) => (t * t) / (1 + t * t);

/**
 * Irradiance left at a floor point by the furniture, as a fraction of the open floor's: per
 * azimuth the elevations the furniture fills, in the cosine-weighted measure sin^2 of the
 * elevation, each elevation counted once however many pieces fill it.
 */
function floorAmbient(occ: Occupancy, x: number, z: number, steps: Float32Array, dirs: Float32Array, id: number): number {
  let blocked = 0;
  const u = turnDirections(dirs, id);
  for (let a = 0; a < AO_DIRS; a++) {
    const ux = u[2 * a]!;
    const uz = u[2 * a + 1]!;
    marchSpans(occ, x, 0, z, ux, uz, steps);
    blocked += SPANS.total(floorMeasure);
  }
  return 1 - (1 - FURNITURE_BOUNCE) * (blocked / AO_DIRS);
}

/** E(atan t) with E(e) = integral of cos^2 from 0 to e: the cosine-weighted measure of elevations seen from a wall, up to slope t. */
const wallMeasure = (t: number) => {
  const e = Math.atan(t);
  return e / 2 + Math.sin(2 * e) / 4;
};

/** The same for a point on a wall at height y, over the half-space in front of the wall. */
function wallAmbient(occ: Occupancy, x: number, y: number, z: number, n: Vec3, steps: Float32Array, dirs: Float32Array, id: number): number {
  let blocked = 0;
  let total = 0;
  const u = turnDirections(dirs, id);
  for (let a = 0; a < AO_DIRS; a++) {
    const ux = u[2 * a]!;
    const uz = u[2 * a + 1]!;
    const facing = ux * n[0] + uz * n[2];
    if (facing <= 0.05) continue;
    total += facing * (Math.PI / 2);
    marchSpans(occ, x, y, z, ux, uz, steps);
    blocked += facing * SPANS.total(wallMeasure);
  }
  return total > 0 ? 1 - (1 - FURNITURE_BOUNCE) * (blocked / total) : 1;
}

/** A deterministic number in [0, 1) for a receiver and a light sample (integer hash). */
function jitter(receiver: number, sample: number): number {
  let h = Math.imul(receiver ^ Math.imul(sample + 1, 0x9e3779b9), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/**
 * Differential factor at a receiver: (ambient x occlusion + the openings' light that still
 * arrives) / (ambient + all of it). Each sample's point moves within its patch from receiver to
 * receiver, so the penumbra is fine noise that the grid's blur smooths, not bands.
 * Shadow rays are the engine's largest cost, so a receiver traces only the half of the samples
 * its `half` names (a chequerboard over the grid, each half spread over every opening) and
 * scales what arrives by the light that half carries. The grid's tent filter leaves 1/81 of a
 * chequerboard, so the two halves' difference does not show; where the filter is cut short (the
 * grid's edges, the floor round a piece's base) `half` is -1 and every sample is traced.
 */
function receive(occ: Occupancy, lights: LightSample[], q: Vec3, m: Vec3, ambient: number, id: number, half: number): number {
  let open = 0;
  let traced = 0;
  let arrives = 0;
  for (let k = 0; k < lights.length; k++) {
    const s = lights[k]!;
    const ja = 2 * jitter(id, 2 * k) - 1;
    const ju = 2 * jitter(id, 2 * k + 1) - 1;
    const sx = s.p[0] + s.halfAlong[0] * ja;
    const sy = s.p[1] + s.halfUp * ju;
    const sz = s.p[2] + s.halfAlong[2] * ja;
    const dx = sx - q[0];
    const dy = sy - q[1];
    const dz = sz - q[2];
    const r2 = dx * dx + dy * dy + dz * dz;
    const r = Math.sqrt(r2);
    const cosQ = (dx * m[0] + dy * m[1] + dz * m[2]) / r;
    const cosS = -(dx * s.n[0] + dy * s.n[1] + dz * s.n[2]) / r;
    if (cosQ <= 0 || cosS <= 0) continue;
    const e = (s.w * cosQ * cosS) / Math.max(r2, 0.05);
    open += e;
    if (half >= 0 && s.half !== half) continue;
    traced += e;
    if (!occ.blocked(q[0], q[1], q[2], sx, sy, sz)) arrives += e;
  }
  // The half sees none of the light: the other half stands for it.
  if (traced === 0 && open > 0 && half >= 0) return receive(occ, lights, q, m, ambient, id, 1 - half);
  return Math.min(1, (ambient + (traced > 0 ? (arrives * open) / traced : 0)) / (1 + open));
}

function boxBlur(src: Float32Array, nx: number, nz: number, r: number): Float32Array {
  const a = src.slice();
  const b = new Float32Array(a.length);
  const norm = 1 / (2 * r + 1);
  for (let z = 0; z < nz; z++) {
    for (let x = 0; x < nx; x++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += a[z * nx + Math.min(nx - 1, Math.max(0, x + k))]!;
      b[z * nx + x] = acc * norm;
    }
  }
  for (let z = 0; z < nz; z++) {
    for (let x = 0; x < nx; x++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += b[Math.min(nz - 1, Math.max(0, z + k)) * nx + x]!;
      a[z * nx + x] = acc * norm;
    }
  }
  return a;
}

/** A tent filter over five cells: removes the sampling noise of the occlusion and the shadow rays. */
const smooth = (f: Float32Array, nu: number, nv: number) => boxBlur(boxBlur(f, nu, nv, 1), nu, nv, 1);
/** How many cells the tent reaches to each side. */
const TENT_REACH = 2;

/** Whether cell (u, v) of an nu x nv grid lies within TENT_REACH of its edge, where the tent is cut short. */
const nearGridEdge = (u: number, v: number, nu: number, nv: number) => u < TENT_REACH || v < TENT_REACH || u >= nu - TENT_REACH || v >= nv - TENT_REACH;

/**
 * Cells where `smooth` or `smoothOutside` is cut short, so a chequerboard of half the shadow rays
 * (`receive`) would show: within TENT_REACH of the grid's edge or of a cell a piece touches.
 */
function nearEdgeOrBase(touch: Uint8Array, nu: number, nv: number): Uint8Array {
  const near = new Uint8Array(nu * nv);
  for (let v = 0; v < nv; v++) {
    for (let u = 0; u < nu; u++) {
      if (nearGridEdge(u, v, nu, nv)) {
        near[v * nu + u] = 1;
        continue;
      }
      if (!touch[v * nu + u]) continue;
      for (let dv = -TENT_REACH; dv <= TENT_REACH; dv++) near.fill(1, (v + dv) * nu + u - TENT_REACH, (v + dv) * nu + u + TENT_REACH + 1);
    }
  }
  return near;
}

/**
 * The smoothing of `smooth` over the cells no piece touches only: the floor hidden under a base
 * is as dark as the base's own occlusion makes it, and would spread a dark puddle around it.
 * Touching cells keep their value.
 */
function smoothOutside(f: Float32Array, touch: Uint8Array, nu: number, nv: number): Float32Array {
  const open = new Float32Array(nu * nv);
  const weighted = new Float32Array(nu * nv);
  for (let i = 0; i < nu * nv; i++) {
    open[i] = touch[i] ? 0 : 1;
    weighted[i] = touch[i] ? 0 : f[i]!;
  }
  const w = smooth(open, nu, nv);
  const v = smooth(weighted, nu, nv);
  const out = f.slice();
  for (let i = 0; i < nu * nv; i++) if (!touch[i] && w[i]! > 1e-6) out[i] = v[i]! / w[i]!;
  return out;
}

/**
 * Touching cells take the mean of their filled neighbours, ring by ring from the outside in: a
 * pedestal's base is lit like the floor around it, not like the floor it hides.
 */
function fillUnder(f: Float32Array, touch: Uint8Array, nu: number, nv: number): Float32Array {
  const out = f.slice();
  const filled = new Uint8Array(nu * nv);
  for (let i = 0; i < nu * nv; i++) filled[i] = touch[i] ? 0 : 1;
  const ring: number[] = [];
  for (let pass = 0; pass < nu + nv; pass++) {
    ring.length = 0;
    for (let i = 0; i < nu * nv; i++) {
      if (filled[i]) continue;
      const u = i % nu;
      let sum = 0;
      let n = 0;
      for (const j of [u > 0 ? i - 1 : -1, u < nu - 1 ? i + 1 : -1, i - nu, i + nu]) {
        if (j < 0 || j >= nu * nv || !filled[j]) continue;
        sum += out[j]!;
        n++;
      }
      if (n) {
        out[i] = sum / n;
        ring.push(i);
      }
    }
    if (!ring.length) break;
    for (const i of ring) filled[i] = 1;
  }
  return out;
}

/**
 * Distance in metres from each cell's centre to the nearest touching cell's edge (0 on one), by
 * a two-pass chamfer over the grid: the contact shadow's falloff.
 */
function distanceTo(touch: Uint8Array, nu: number, nv: number, cell: number): Float32Array {
  const d = new Float32Array(nu * nv);
  for (let i = 0; i < nu * nv; i++) d[i] = touch[i] ? 0 : Infinity;
  const diag = Math.SQRT2 * cell;
  const relax = (i: number, j: number, step: number) => {
    if (d[j]! + step < d[i]!) d[i] = d[j]! + step;
  };
  for (let v = 0; v < nv; v++) {
    for (let u = 0; u < nu; u++) {
      const i = v * nu + u;
      if (u > 0) relax(i, i - 1, cell);
      if (v > 0) {
        relax(i, i - nu, cell);
        if (u > 0) relax(i, i - nu - 1, diag);
        if (u < nu - 1) relax(i, i - nu + 1, diag);
      }
    }
  }
  for (let v = nv - 1; v >= 0; v--) {
    for (let u = nu - 1; u >= 0; u--) {
      const i = v * nu + u;
      if (u < nu - 1) relax(i, i + 1, cell);
      if (v < nv - 1) {
        relax(i, i + nu, cell);
        if (u < nu - 1) relax(i, i + nu + 1, diag);
        if (u > 0) relax(i, i + nu - 1, diag);
      }
    }
  }
  // From the touching cell's edge, not its centre.
  for (let i = 0; i < nu * nv; i++) d[i] = touch[i] ? 0 : Math.max(0, d[i]! - 0.5 * cell);
  return d;
}

/** The furniture as the room's shadows see it: its occupancy over the floor and what marches through it. */
export interface ShadowCaster {
  occ: Occupancy;
  box: RoomBox;
  lights: LightSample[];
  bounds: { x0: number; z0: number; x1: number; z1: number };
  /** The casting furniture's extent over the floor, metres. */
  extent: { x0: number; z0: number; x1: number; z1: number };
  steps: Float32Array;
  dirs: Float32Array;
  /** The plan of every casting triangle's part within CONTACT_GAP of the floor, as polygons. */
  feet: Array<Array<[number, number]>>;
  /** The rugs, which cast nothing but the thin line along their edges (rugEdgeLight). */
  rugs: RugOutline[];
}

/** A rug's outline on the floor: its centre, the cosine and sine of its yaw, and its half sides (metres). */
export interface RugOutline {
  x: number;
  z: number;
  cos: number;
  sin: number;
  halfW: number;
  halfD: number;
}

/**
 * A rug is a centimetre thick: right by its edge the floor sees nothing of the room on the rug's
 * side below 45 degrees, and a photo shows a thin dark line there, the rug's contact with the
 * floor. Without it a rug's clean edge on the boards read as printed on them. The floor's light
 * is cut by up to RUG_EDGE_DARK at the edge, fading over RUG_EDGE_REACH (metres).
 */
const RUG_EDGE_DARK = 0.4;
const RUG_EDGE_REACH = 0.01;

/** The floor's light by the rugs' edges at (x, z): 1 on a rug and beyond the line's reach. */
export function rugEdgeLight(rugs: RugOutline[], x: number, z: number): number {
  let nearest = 6 * RUG_EDGE_REACH;
  for (const r of rugs) {
    const dx = x - r.x;
    const dz = z - r.z;
    const outW = Math.abs(r.cos * dx - r.sin * dz) - r.halfW;
    const outD = Math.abs(r.sin * dx + r.cos * dz) - r.halfD;
    if (outW <= 0 && outD <= 0) return 1;
    const ox = Math.max(outW, 0);
    const oz = Math.max(outD, 0);
    nearest = Math.min(nearest, Math.sqrt(ox * ox + oz * oz));
  }
  return nearest < 6 * RUG_EDGE_REACH ? 1 - RUG_EDGE_DARK * Math.exp(-nearest / RUG_EDGE_REACH) : 1;
}

/** Most cells along a side of the floor's grid. */
export const FLOOR_GRID_SIDE = 280;

/**
 * Rows of the floor's grid shared out between two threads (helper.ts): the plane both write
 * their rows into, the next row to take, a row finished, and whether all `rows` rows are in.
 */
export interface FloorRows {
  plane: Float32Array;
  /** The next row to compute, or `rows` or more when none is left. */
  next(rows: number): number;
  finished(): void;
  allIn(rows: number): boolean;
}

/** The other thread did not deliver its rows of the floor's grid. */
export class RowsLost extends Error {}

/** The floor's and the walls' shadows, apart: the shader needs only the floor's (render.ts hands the walls to another thread). */
export type FloorShadows = Omit<RoomShadows, 'walls'>;

/**
 * The furniture's occupancy for the room's shadows. `bounds` is the floor area (metres) the
 * furniture can darken.
 */
export function shadowCaster(
  mesh: Mesh,
  casts: Uint8Array,
  box: RoomBox,
  lights: LightSample[],
  bounds: { x0: number; z0: number; x1: number; z1: number },
  rugs: RugOutline[] = [],
): ShadowCaster {
  let cell = 0.025;
  while ((bounds.x1 - bounds.x0) / cell > FLOOR_GRID_SIDE || (bounds.z1 - bounds.z0) / cell > FLOOR_GRID_SIDE) cell *= 1.25;
  const nx = Math.max(2, Math.ceil((bounds.x1 - bounds.x0) / cell));
  const nz = Math.max(2, Math.ceil((bounds.z1 - bounds.z0) / cell));
  const P = mesh.positions;
  let tallest = 0;
  for (let t = 0; t < mesh.materials.length; t++) {
    if (casts[t]) tallest = Math.max(tallest, P[t * 9 + 1]!, P[t * 9 + 4]!, P[t * 9 + 7]!);
  }
  const occ = new Occupancy(bounds.x0, bounds.z0, cell, nx, nz, tallest);
  const extent = { x0: Infinity, z0: Infinity, x1: -Infinity, z1: -Infinity };
  const feet: ShadowCaster['feet'] = [];
  for (let t = 0; t < mesh.materials.length; t++) {
    if (!casts[t]) continue;
    occ.addTriangle(P, t * 9);
    const foot = belowGap(P, t * 9);
    if (foot) feet.push(foot);
    for (let k = 0; k < 3; k++) {
      extent.x0 = Math.min(extent.x0, P[t * 9 + k * 3]!);
      extent.x1 = Math.max(extent.x1, P[t * 9 + k * 3]!);
      extent.z0 = Math.min(extent.z0, P[t * 9 + k * 3 + 2]!);
      extent.z1 = Math.max(extent.z1, P[t * 9 + k * 3 + 2]!);
    }
  }
  // Each receiver turns this set by its own fraction of a step, so the directions between them
  // show as fine noise (smoothed) rather than as streaks.
  const dirs = new Float32Array(2 * AO_DIRS);
  for (let a = 0; a < AO_DIRS; a++) {
    const th = (a * 2 * Math.PI) / AO_DIRS;
    dirs[2 * a] = Math.cos(th);
    dirs[2 * a + 1] = Math.sin(th);
  }
  return { occ, box, lights, bounds, extent, steps: aoSteps(cell), dirs, feet, rugs };
}

/** The plan (x, z) of the part of triangle `o` of P within CONTACT_GAP of the floor, or null. */
function belowGap(P: ArrayLike<number>, o: number): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  for (let k = 0; k < 3; k++) {
    const a = o + 3 * k;
    const b = o + 3 * ((k + 1) % 3);
    const ya = P[a + 1]!;
    const yb = P[b + 1]!;
    if (ya <= CONTACT_GAP) out.push([P[a]!, P[a + 2]!]);
    if (ya <= CONTACT_GAP !== yb <= CONTACT_GAP) {
      const t = (CONTACT_GAP - ya) / (yb - ya);
      out.push([P[a]! + (P[b]! - P[a]!) * t, P[a + 2]! + (P[b + 2]! - P[a + 2]!) * t]);
    }
  }
  return out.length ? out : null;
}

/** Cells (metres) of the contact shadows' own map: a thin leg's dark rim is a centimetre or two wide. */
const CONTACT_CELL = 0.005;
/** How far past what touches the floor the contact map reaches: its darkening is under 1 % beyond. */
const CONTACT_MARGIN = 5 * CONTACT_REACH;

/**
 * The contact shadows alone, on a grid of CONTACT_CELL over what touches the floor: on the
 * floor's grid (2.5 cm cells or more, smoothed) a chair leg's dark rim spread into a soft blot
 * some 10 cm wide.
 */
function contactMap(feet: ShadowCaster['feet']): ShadeGrid | null {
  let x0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let z1 = -Infinity;
  for (const f of feet) {
    for (const [x, z] of f) {
      x0 = Math.min(x0, x);
      z0 = Math.min(z0, z);
      x1 = Math.max(x1, x);
      z1 = Math.max(z1, z);
    }
  }
  if (!(x1 >= x0)) return null;
  x0 -= CONTACT_MARGIN;
  z0 -= CONTACT_MARGIN;
  const c = CONTACT_CELL;
  const nu = Math.ceil((x1 + CONTACT_MARGIN - x0) / c);
  const nv = Math.ceil((z1 + CONTACT_MARGIN - z0) / c);
  const touch = new Uint8Array(nu * nv);
  const mark = (x: number, z: number) => {
    const u = Math.floor((x - x0) / c);
    const v = Math.floor((z - z0) / c);
    if (u >= 0 && v >= 0 && u < nu && v < nv) touch[v * nu + u] = 1;
  };
  for (const f of feet) {
    // Its outline, stepped at half a cell (all there is of a vertical face's plan)...
    for (let k = 0; k < f.length; k++) {
      const [ax, az] = f[k]!;
      const [bx, bz] = f[(k + 1) % f.length]!;
      const n = Math.ceil((2 * Math.hypot(bx - ax, bz - az)) / c) + 1;
      for (let i = 0; i <= n; i++) mark(ax + ((bx - ax) * i) / n, az + ((bz - az) * i) / n);
    }
    // ...and its inside (a base's bottom face): a triangle clipped by a plane is convex.
    let area = 0;
    for (let k = 0; k < f.length; k++) {
      const [ax, az] = f[k]!;
      const [bx, bz] = f[(k + 1) % f.length]!;
      area += ax * bz - bx * az;
    }
    if (f.length < 3 || Math.abs(area) < c * c) continue;
    const sign = Math.sign(area);
    const us = f.map(([x]) => (x - x0) / c);
    const vs = f.map(([, z]) => (z - z0) / c);
    for (let v = Math.max(0, Math.floor(Math.min(...vs))); v <= Math.min(nv - 1, Math.floor(Math.max(...vs))); v++) {
      for (let u = Math.max(0, Math.floor(Math.min(...us))); u <= Math.min(nu - 1, Math.floor(Math.max(...us))); u++) {
        let inside = true;
        for (let k = 0; k < f.length && inside; k++) {
          const j = (k + 1) % f.length;
          inside = sign * ((us[j]! - us[k]!) * (v + 0.5 - vs[k]!) - (vs[j]! - vs[k]!) * (u + 0.5 - us[k]!)) >= 0;
        }
        if (inside) touch[v * nu + u] = 1;
      }
    }
  }
  const near = distanceTo(touch, nu, nv, c);
  const factor = new Float32Array(nu * nv);
  for (let i = 0; i < nu * nv; i++) factor[i] = 1 - CONTACT_DARK * Math.exp(-near[i]! / CONTACT_REACH);
  return new ShadeGrid(x0, z0, c, nu, nv, factor);
}

/** The floor's light on its grid, with the contact shadows laid over it from their own finer map, and the rugs' edges. */
class FloorShade extends ShadeGrid {
  constructor(
    grid: ShadeGrid,
    readonly contact: ShadeGrid | null,
    readonly rugs: RugOutline[],
  ) {
    super(grid.u0, grid.v0, grid.cell, grid.nu, grid.nv, grid.factor);
  }

  override at(u: number, v: number): number {
    const f = this.contact ? super.at(u, v) * this.contact.at(u, v) : super.at(u, v);
    return this.rugs.length ? f * rugEdgeLight(this.rugs, u, v) : f;
  }
}

/** The factors on the floor around the furniture, with and without its contact shadows. */
export function floorShadows(c: ShadowCaster, rows?: FloorRows): FloorShadows {
  const { occ, lights, bounds, steps, dirs } = c;
  const { cell, nx, nz } = occ;
  const { x0: fx0, z0: fz0, x1: fx1, z1: fz1 } = c.extent;
  const up: Vec3 = [0, 1, 0];
  const q: Vec3 = [0, 0, 0];
  const touch = new Uint8Array(nx * nz);
  for (let i = 0; i < nx * nz; i++) touch[i] = occ.lo[i]! < CONTACT_GAP ? 1 : 0;
  const everySample = nearEdgeOrBase(touch, nx, nz);
  const floor = rows ? rows.plane.subarray(0, nx * nz) : new Float32Array(nx * nz);
  let row = 0;
  const next = rows ? () => rows.next(nz) : () => row++;
  for (let iz = next(); iz < nz; iz = next()) {
    for (let ix = 0; ix < nx; ix++) {
      q[0] = bounds.x0 + (ix + 0.5) * cell;
      q[2] = bounds.z0 + (iz + 0.5) * cell;
      const far = q[0] < fx0 - AO_REACH || q[0] > fx1 + AO_REACH || q[2] < fz0 - AO_REACH || q[2] > fz1 + AO_REACH;
      const i = iz * nx + ix;
      if (far && !lights.length) {
        floor[i] = 1;
        continue;
      }
      const ambient = far ? 1 : floorAmbient(occ, q[0], q[2], steps, dirs, i);
      floor[i] = receive(occ, lights, q, up, ambient, i, everySample[i] ? -1 : (ix + iz) & 1);
    }
    rows?.finished();
  }
  if (rows && !rows.allIn(nz)) throw new RowsLost('the floor grid is incomplete');
  const pieces = fillUnder(smoothOutside(floor, touch, nx, nz), touch, nx, nz);
  const low = new Float32Array(nx * nz);
  for (let i = 0; i < nx * nz; i++) low[i] = Math.max(0, 1 - occ.lo[i]! / LOW_CLEARANCE);
  const lowNear = smooth(low, nx, nz);
  const underLow = new Float32Array(nx * nz);
  for (let i = 0; i < nx * nz; i++) underLow[i] = pieces[i]! * (1 - LOW_DARK * lowNear[i]!);
  return {
    floor: new FloorShade(new ShadeGrid(bounds.x0, bounds.z0, cell, nx, nz, underLow), contactMap(c.feet), c.rugs),
    pieces: new ShadeGrid(bounds.x0, bounds.z0, cell, nx, nz, pieces),
  };
}

/** The factors on the walls next to the furniture; walls farther than the AO reach from every piece get none. */
export function wallShadows(c: ShadowCaster): RoomShadows['walls'] {
  const { occ, box, lights, steps, dirs } = c;
  const { x0: fx0, z0: fz0, x1: fx1, z1: fz1 } = c.extent;
  const walls: RoomShadows['walls'] = {};
  const wallCell = Math.max(0.03, occ.cell);
  for (const id of ['left', 'right', 'back'] as WallId[]) {
    // The furniture's distance to this wall, and its extent along it.
    const gap = id === 'left' ? fx0 - box.left : id === 'right' ? box.right - fx1 : box.back - fz1;
    if (!(gap < AO_REACH)) continue;
    const [r0, r1] = wallRange(box, id);
    const a0 = Math.max(r0, (id === 'back' ? fx0 : fz0) - AO_REACH);
    const a1 = Math.min(r1, (id === 'back' ? fx1 : fz1) + AO_REACH);
    if (!(a1 > a0)) continue;
    const height = Math.min(box.ceiling, occ.top + AO_REACH);
    const nu = Math.max(2, Math.ceil((a1 - a0) / wallCell));
    const nv = Math.max(2, Math.ceil(height / wallCell));
    const n: Vec3 = id === 'left' ? [1, 0, 0] : id === 'right' ? [-1, 0, 0] : [0, 0, -1];
    const factor = new Float32Array(nu * nv);
    for (let iv = 0; iv < nv; iv++) {
      for (let iu = 0; iu < nu; iu++) {
        const p = wallPoint(box, id, a0 + (iu + 0.5) * wallCell, (iv + 0.5) * wallCell, 0.005);
        const ambient = wallAmbient(occ, p[0], p[1], p[2], n, steps, dirs, iv * nu + iu);
        factor[iv * nu + iu] = receive(occ, lights, p, n, ambient, iv * nu + iu, nearGridEdge(iu, iv, nu, nv) ? -1 : (iu + iv) & 1);
      }
    }
    walls[id] = new ShadeGrid(a0, 0, wallCell, nu, nv, smooth(factor, nu, nv));
  }
  return walls;
}

/** The factors on the floor around the furniture and on the walls next to it (shadowCaster's arguments). */
export function computeRoomShadows(...args: Parameters<typeof shadowCaster>): RoomShadows {
  const c = shadowCaster(...args);
  return { ...floorShadows(c), walls: wallShadows(c) };
}
