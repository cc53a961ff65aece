import type { Camera } from './camera.ts';
import type { Opening, Wall } from './analyze.ts';
import { SRGB_TO_LINEAR } from './image.ts';
import { blurPlane } from './lines.ts';
import { toLinear } from './materials.ts';
import { sampleColor, type ColorPlanes, type RoomBox } from './roombox.ts';
import { clamp, luminance, normalize, type Vec3 } from './vec.ts';

/**
 * The room's light, built from the photo itself: every direction around the furniture looks
 * at a surface of the room box, and the photo says how bright that surface is. Furniture lit by
 * this environment takes the room's colour, its window side and its falloff from the photo;
 * nothing about the light is assumed but the room's mean reflectance (see `ROOM_ALBEDO`).
 *
 * The map is latitude-longitude: row 0 looks straight up, column ENV_W/2 looks along +Z (into
 * the room, away from the camera).
 */
export interface RoomRadiance {
  /** Linear RGB radiance per texel, ENV_W x ENV_H. */
  env: Float32Array;
  /** The same blurred over about 15 degrees: what a glossy finish (lacquer, marble, brushed metal) reflects. */
  glossy: Float32Array;
  /** Blurred over about 35 degrees: what a satin finish (oiled wood, leather) reflects. */
  satin: Float32Array;
  /** Per texel: 1 where the light comes through a daylight opening or from a clipped light. */
  daylight: Uint8Array;
  /** Irradiance over pi (the radiance of a white matte surface), order-2 spherical harmonics x RGB, from all but the daylight. */
  ambient: Float64Array;
  /** The same for the daylight alone: furniture can shadow it. */
  sun: Float64Array;
  /** Mean direction the daylight comes from (unit), or null when the photo shows no opening. */
  key: Vec3 | null;
  /** How much brighter than their clipped pixels the openings were taken to be. */
  gain: number;
  /**
   * How much brighter than its pixels the ceiling is taken in `ambient`: the light the photo does
   * not show (lamps, a flash bounced off the ceiling), which comes from above. `env` keeps the
   * ceiling as the photo shows it, for what a finish reflects.
   */
  overhead: number;
  /** The photo the map was taken from (the analysis size, sRGB), for what a mirror-like surface reflects of the room in view. */
  view: ColorPlanes;
  /**
   * The same blurred over some 7 pixels (sigma 2), for a curved mirror (a brass tube): it gathers
   * a wide angle of the room into each of its pixels, so single bright pixels of the photo (a
   * door's knob, a clipped fleck) would glitter along it as dots.
   */
  viewSoft: ColorPlanes;
}

/** Where the room's radiance is measured: a point in the middle of the floor, 0.7 m up, where the furniture groups stand. */
export function radianceCentre(box: RoomBox): Vec3 {
  return [(box.left + box.right) / 2, 0.7, Math.max(1.2, box.back * 0.6)];
}

export const ENV_W = 64;
export const ENV_H = 32;

/**
 * Mean reflectance of a room's walls, floor and ceiling together. In a closed room the
 * surfaces' radiance is this much of the mean light arriving, which fixes how strong the
 * clipped openings must really be.
 */
const ROOM_ALBEDO = 0.6;
/** Openings behind glass are rarely less than this much brighter than clipping, nor more than the cap. */
const GAIN_RANGE: [number, number] = [1.5, 16];
/** A wall pixel this bright (sRGB) is a light source, its true level unknown. */
const CLIPPED = 0.93;
/** The unseen wall behind the camera, metres behind it. */
const FRONT_WALL = -1.5;
/**
 * How the unseen walls follow the seen side walls' brightness in depth (per metre, in log
 * luminance, at most `slope`; only where the seen stretches spread over more than a metre, their
 * variance in metres squared over `spread`), and how far from the seen walls' mean they may go.
 */
const WALL_TREND = { slope: 0.35, spread: 0.1, least: 0.35, most: 1.5 };

export function texelDirection(i: number, j: number): Vec3 {
  const theta = ((j + 0.5) / ENV_H) * Math.PI;
  const phi = ((i + 0.5) / ENV_W) * 2 * Math.PI - Math.PI;
  const s = Math.sin(theta);
  return [s * Math.sin(phi), Math.cos(theta), s * Math.cos(phi)];
}

export function directionTexel(d: Vec3): number {
  const { x, y } = envCoords(d);
  const j = Math.min(ENV_H - 1, Math.floor(y));
  const i = ((Math.floor(x) % ENV_W) + ENV_W) % ENV_W;
  return j * ENV_W + i;
}

/** Where a direction falls on the map, in texels from its top-left corner (x across, y down). */
function envCoords(d: Vec3): { x: number; y: number } {
  return { x: ((Math.atan2(d[0], d[2]) + Math.PI) / (2 * Math.PI)) * ENV_W, y: (Math.acos(clamp(d[1], -1, 1)) / Math.PI) * ENV_H };
}

/** Real spherical harmonics up to order 2 at a unit direction. */
function shBasis(x: number, y: number, z: number, out: Float64Array): void {
  out[0] = 0.282095;
  out[1] = 0.488603 * y;
  out[2] = 0.488603 * z;
  out[3] = 0.488603 * x;
  out[4] = 1.092548 * x * y;
  out[5] = 1.092548 * y * z;
  out[6] = 0.315392 * (3 * z * z - 1);
  out[7] = 1.092548 * x * z;
  out[8] = 0.546274 * (x * x - y * y);
}

/** Cosine-lobe convolution per band, over pi: radiance coefficients to a white matte surface's radiance. */
const BAND = [1, 2 / 3, 2 / 3, 2 / 3, 1 / 4, 1 / 4, 1 / 4, 1 / 4, 1 / 4];

const evalBasis = new Float64Array(9);

/** Radiance of a white matte surface facing `n`, from spherical harmonics (never negative). */
export function evalSh(sh: Float64Array, nx: number, ny: number, nz: number, out: Vec3): void {
  shBasis(nx, ny, nz, evalBasis);
  for (let c = 0; c < 3; c++) {
    let v = 0;
    for (let b = 0; b < 9; b++) v += sh[c * 9 + b]! * evalBasis[b]!;
    out[c] = v > 0 ? v : 0;
  }
}

interface Surfaces {
  floor: Vec3;
  ceiling: Vec3;
  wall: Vec3;
}

/** Where a ray from `o` along the unit direction `d` leaves the room box: the point, how far it is, and which surface it is on. */
export function hitBox(o: Vec3, d: Vec3, box: RoomBox): { p: Vec3; t: number; surface: 'floor' | 'ceiling' | 'left' | 'right' | 'back' | 'front' } {
  let t = Infinity;
  let surface: 'floor' | 'ceiling' | 'left' | 'right' | 'back' | 'front' = 'back';
  const take = (tt: number, s: typeof surface) => {
    if (tt > 1e-6 && tt < t) {
      t = tt;
      surface = s;
    }
  };
  if (d[1] < 0) take(-o[1] / d[1], 'floor');
  if (d[1] > 0) take((box.ceiling - o[1]) / d[1], 'ceiling');
  if (d[0] < 0) take((box.left - o[0]) / d[0], 'left');
  if (d[0] > 0) take((box.right - o[0]) / d[0], 'right');
  if (d[2] > 0) take((box.back - o[2]) / d[2], 'back');
  if (d[2] < 0) take((FRONT_WALL - o[2]) / d[2], 'front');
  return { p: [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t], t, surface };
}

/**
 * Whether a point on a wall, `along` it (Z on a side wall, X on the back wall) at `height`,
 * lies inside one of the openings on that wall; with `daylight`, only the ones that light the room.
 */
export function inOpening(openings: Opening[], wall: string, along: number, height: number, daylight = false): boolean {
  for (const o of openings) {
    if ((daylight && !o.daylight) || o.wall !== wall) continue;
    if (along >= o.from && along <= o.to && height >= o.bottom && height <= o.top) return true;
  }
  return false;
}

/**
 * The room's radiance around `centre` (a point among the furniture, in metres): each direction
 * takes the photo's colour where it meets the room box in view, and the mean colour of that
 * surface where the photo does not show it (behind the camera). Daylight openings and clipped
 * lights are then scaled up until the room's light budget balances: the surfaces' mean radiance
 * must be ROOM_ALBEDO times the mean light arriving.
 */
export function estimateRadiance(
  cam: Camera,
  box: RoomBox,
  walls: Wall[],
  openings: Opening[],
  color: ColorPlanes,
  floorColor: Vec3,
  ceilingColor: Vec3 | null,
  centre: Vec3,
  view: ColorPlanes,
): RoomRadiance {
  const wallMean: Vec3 = [0, 0, 0];
  for (const w of walls) for (let k = 0; k < 3; k++) wallMean[k]! += w.color[k]! / walls.length;
  if (!walls.length) wallMean.fill(0.7);
  const fallback: Surfaces = {
    floor: toLinear(floorColor),
    ceiling: toLinear(ceilingColor ?? wallMean),
    wall: toLinear(wallMean),
  };
  const n = ENV_W * ENV_H;
  const env = new Float32Array(n * 3);
  const daylight = new Uint8Array(n);
  const ceiling = new Uint8Array(n);
  const solid = new Float64Array(n);
  const tmp: Vec3 = [0, 0, 0];
  // Unseen walls' texels and how deep in the room each is; the side walls' seen ones, for the trend.
  const unseen: Array<{ t: number; z: number }> = [];
  const trend = { w: 0, z: 0, l: 0, zz: 0, zl: 0 };
  for (let j = 0; j < ENV_H; j++) {
    for (let i = 0; i < ENV_W; i++) {
      const t = j * ENV_W + i;
      const d = texelDirection(i, j);
      solid[t] = ((2 * Math.PI) / ENV_W) * (Math.PI / ENV_H) * Math.sin(((j + 0.5) / ENV_H) * Math.PI);
      const { p, surface } = hitBox(centre, d, box);
      if (surface === 'ceiling') ceiling[t] = 1;
      const wall = surface !== 'floor' && surface !== 'ceiling';
      const q = cam.project(p);
      if (q.depth > 0.2 && sampleColor(color, q.u, q.v, tmp)) {
        const lin = toLinear(tmp);
        env.set(lin, t * 3);
        // Clipped patches of floor and ceiling are glare on gloss and overexposed paint, not lights.
        if (inOpening(openings, surface, surface === 'back' ? p[0] : p[2], p[1], true) || (wall && Math.max(tmp[0], tmp[1], tmp[2]) > CLIPPED)) daylight[t] = 1;
        else if (surface === 'left' || surface === 'right') {
          const l = Math.log(Math.max(1e-4, luminance(lin[0], lin[1], lin[2])));
          const w = solid[t]!;
          trend.w += w;
          trend.z += w * p[2];
          trend.l += w * l;
          trend.zz += w * p[2] * p[2];
          trend.zl += w * p[2] * l;
        }
      } else {
        const c = surface === 'floor' ? fallback.floor : surface === 'ceiling' ? fallback.ceiling : fallback.wall;
        env.set(c, t * 3);
        if (wall) unseen.push({ t, z: p[2] });
      }
    }
  }
  // The walls the photo does not show (behind the camera, and the side walls' stretches beside
  // it) take the seen side walls' trend in depth: lit from windows across the room, walls dim
  // towards the camera and on behind it, and at the seen walls' mean they lit the fronts of the
  // furniture, which face the camera, nearly as brightly as the seats.
  if (trend.w > 0) {
    const zMean = trend.z / trend.w;
    const spread = trend.zz / trend.w - zMean * zMean;
    const slope = spread > WALL_TREND.spread ? clamp((trend.zl / trend.w - zMean * (trend.l / trend.w)) / spread, -WALL_TREND.slope, WALL_TREND.slope) : 0;
    for (const { t, z } of unseen) {
      const k = clamp(Math.exp(slope * (z - zMean)), WALL_TREND.least, WALL_TREND.most);
      for (let c = 0; c < 3; c++) env[t * 3 + c]! *= k;
    }
  }
  // The light budget: surfaces' mean radiance S = ROOM_ALBEDO x (mean arriving light), which is
  // the solid-angle-weighted mean of surfaces and openings, the openings scaled by the gain.
  let wS = 0;
  let sumS = 0;
  let wO = 0;
  let sumO = 0;
  let sumC = 0;
  for (let t = 0; t < n; t++) {
    const l = luminance(env[t * 3]!, env[t * 3 + 1]!, env[t * 3 + 2]!) * solid[t]!;
    if (daylight[t]) {
      wO += solid[t]!;
      sumO += l;
    } else {
      wS += solid[t]!;
      sumS += l;
      if (ceiling[t]) sumC += l;
    }
  }
  const total = wS + wO;
  const meanS = sumS / Math.max(1e-9, wS);
  const needed = (meanS / ROOM_ALBEDO) * total - sumS;
  const gain = sumO > 1e-6 ? clamp(needed / sumO, GAIN_RANGE[0], GAIN_RANGE[1]) : 1;
  // What the openings cannot supply comes from lights the photo does not show. Rooms are lit
  // from above (ceiling lamps, a flash bounced off the ceiling): spread evenly over the surfaces,
  // that light came from every side at once and lit a sofa's front as brightly as its seat.
  const overhead = Math.max(1, (needed - gain * sumO) / Math.max(1e-9, sumC) + 1);
  for (let t = 0; t < n; t++) {
    if (!daylight[t]) continue;
    for (let c = 0; c < 3; c++) env[t * 3 + c]! *= gain;
  }
  const ambient = new Float64Array(27);
  const sun = new Float64Array(27);
  const basis = new Float64Array(9);
  const keySum: Vec3 = [0, 0, 0];
  for (let j = 0; j < ENV_H; j++) {
    for (let i = 0; i < ENV_W; i++) {
      const t = j * ENV_W + i;
      const d = texelDirection(i, j);
      shBasis(d[0], d[1], d[2], basis);
      const target = daylight[t] ? sun : ambient;
      const k = solid[t]! * (ceiling[t] && !daylight[t] ? overhead : 1);
      for (let c = 0; c < 3; c++) {
        const l = env[t * 3 + c]! * k;
        for (let b = 0; b < 9; b++) target[c * 9 + b]! += l * basis[b]! * BAND[b]!;
      }
      if (daylight[t]) {
        const w = luminance(env[t * 3]!, env[t * 3 + 1]!, env[t * 3 + 2]!) * solid[t]!;
        for (let k = 0; k < 3; k++) keySum[k]! += d[k]! * w;
      }
    }
  }
  const key = Math.hypot(...keySum) > 1e-6 ? normalize([keySum[0], Math.max(keySum[1], 0.35 * Math.hypot(keySum[0], keySum[2])), keySum[2]]) : null;
  const soft = (p: Float32Array) => blurPlane({ width: view.width, height: view.height, data: p }, 2).data;
  const viewSoft = { width: view.width, height: view.height, r: soft(view.r), g: soft(view.g), b: soft(view.b) };
  return { env, glossy: blurEnv(env, 2), satin: blurEnv(env, 5), daylight, ambient, sun, key, gain, overhead, view, viewSoft };
}

/** Box blur of the map, `radius` texels each way, wrapping around in longitude; twice, so nearly Gaussian. */
function blurEnv(env: Float32Array, radius: number): Float32Array {
  let src = env;
  for (let pass = 0; pass < 2; pass++) {
    const rows = new Float32Array(src.length);
    for (let j = 0; j < ENV_H; j++) {
      for (let i = 0; i < ENV_W; i++) {
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (let k = -radius; k <= radius; k++) s += src[(j * ENV_W + ((i + k + ENV_W) % ENV_W)) * 3 + c]!;
          rows[(j * ENV_W + i) * 3 + c] = s / (2 * radius + 1);
        }
      }
    }
    const cols = new Float32Array(src.length);
    for (let j = 0; j < ENV_H; j++) {
      for (let i = 0; i < ENV_W; i++) {
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (let k = -radius; k <= radius; k++) s += rows[(clamp(j + k, 0, ENV_H - 1) * ENV_W + i) * 3 + c]!;
          cols[(j * ENV_W + i) * 3 + c] = s / (2 * radius + 1);
        }
      }
    }
    src = cols;
  }
  return src;
}

/** How sharp a finish's reflection is: polished metal the room itself, lacquer and marble a little blurred, oiled wood and leather more. */
export type Finish = 'polished' | 'glossy' | 'satin';

/**
 * What a finish reflects from direction `d` (linear RGB). Interpolated between the four nearest
 * texels: a texel is 5.6 degrees across, and taken whole it drew a straight step across a marble
 * top and bands round a brass base.
 */
export function reflectedLight(r: RoomRadiance, d: Vec3, finish: Finish, out: Vec3): void {
  const map = finish === 'polished' ? r.env : finish === 'glossy' ? r.glossy : r.satin;
  // Texel centres sit half a texel in.
  const at = envCoords(d);
  const x = at.x - 0.5;
  const y = at.y - 0.5;
  const j = Math.floor(y);
  const i = Math.floor(x);
  const fy = y - j;
  const fx = x - i;
  const j0 = clamp(j, 0, ENV_H - 1) * ENV_W;
  const j1 = clamp(j + 1, 0, ENV_H - 1) * ENV_W;
  const i0 = (i + ENV_W) % ENV_W;
  const i1 = (i + 1) % ENV_W;
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  for (let c = 0; c < 3; c++) {
    out[c] = w00 * map[(j0 + i0) * 3 + c]! + w10 * map[(j0 + i1) * 3 + c]! + w01 * map[(j1 + i0) * 3 + c]! + w11 * map[(j1 + i1) * 3 + c]!;
  }
}

/**
 * What a mirror-like surface at `o` reflects along `d` (unit), into `out`: the photo's own pixel
 * where the ray meets the room box in view, at the radiance map's scale (the openings' gain; a
 * surface as the photo shows it), so a glass top shows the window's frames and the door where
 * they are. Off the photo (behind the camera, above its top) the map's texel stands in. A
 * `curved` mirror takes the averaged photo (`viewSoft`).
 */
export function mirrorLight(r: RoomRadiance, cam: Camera, box: RoomBox, openings: Opening[], o: Vec3, d: Vec3, out: Vec3, curved = false): void {
  const { p, surface } = hitBox(o, d, box);
  const q = surface === 'front' ? null : cam.project(p);
  const v = curved ? r.viewSoft : r.view;
  if (!q || q.depth <= 0.2 || !sampleColor(v, q.u, q.v, out)) {
    reflectedLight(r, d, 'polished', out);
    return;
  }
  const wall = surface !== 'floor' && surface !== 'ceiling';
  const k = inOpening(openings, surface, surface === 'back' ? p[0] : p[2], p[1], true) || (wall && Math.max(out[0], out[1], out[2]) > CLIPPED) ? r.gain : 1;
  for (let c = 0; c < 3; c++) out[c] = k * SRGB_TO_LINEAR[Math.round(clamp(out[c]!, 0, 1) * 255)]!;
}
