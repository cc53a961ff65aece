import { Camera } from './camera.ts';
import { detectCounters, type Counter } from './counters.ts';
import { detectObstacles, type Obstacle } from './obstacles.ts';
import type { RgbImage } from './image.ts';
import { blurPlane, detectSegments, gradient, lightBandEdge, type Gradient, type Plane, type Segment } from './lines.ts';
import { estimateFloorLight } from './floor-light.ts';
import { estimateRadiance, radianceCentre, type RoomRadiance } from './light.ts';
import { CEILING_SEARCH, colorDist, fitRoomBox, floorReference, sampleColor, seekCeiling, wallPoint, wallRange, type ColorPlanes, type RoomBox } from './roombox.ts';
import { ShadeGrid } from './shadows.ts';
import { estimateHiddenSun, estimateSun, type Sun } from './sun.ts';
import { depthSupport, depthVanishingPoints, estimateFocal, estimateVerticalVanishingPoint, verticalSupport, type VanishingPoint } from './vanishing.ts';
import { clamp, type Vec3 } from './vec.ts';

export type WallId = 'left' | 'right' | 'back';

export interface Opening {
  wall: WallId;
  kind: 'window' | 'door';
  /** Extent along the wall in metres (Z for side walls, X for the back wall). */
  from: number;
  to: number;
  bottom: number;
  top: number;
  /** Found as a bright run (glass, sky): it lights the room. Doorways found by their frames do not. */
  daylight: boolean;
  /**
   * A doorway seen as a dark gap into an unlit space, its door (if any) not swinging into this
   * room: a walkway is kept clear in front of it rather than a door's swing.
   */
  passage?: boolean;
}

export interface Wall {
  id: WallId;
  /** The part of the wall's base that the photo shows, along the wall, in metres. */
  visibleFrom: number;
  visibleTo: number;
  /** Intervals along the wall where the lower wall is not plain (doors, radiators, pillars...). */
  blocked: Array<[number, number]>;
  /** Median wall colour, 0..1 sRGB. */
  color: Vec3;
}

export interface RoomModel {
  /** Camera at the analysis resolution. */
  camera: Camera;
  box: RoomBox;
  walls: Wall[];
  openings: Opening[];
  segments: Segment[];
  /** True when no usable vanishing point was found and a default camera was assumed. */
  defaultCamera: boolean;
  /** Median floor colour near the camera, 0..1 sRGB. */
  floorColor: Vec3;
  /**
   * Median colour of the ceiling (0..1 sRGB), or null when too little of it is seen: ceilings
   * are nearly always white paint, so their tint is the room light's.
   */
  ceilingColor: Vec3 | null;
  /** The room's light, from the photo: what the furniture is lit by. */
  radiance: RoomRadiance;
  /** How mirror-like the floor is (0 matte .. 0.6), from the reflections of the openings in it. */
  floorGloss: number;
  /** Light on each point of the floor relative to the whole floor (sun patches), or null when unsure. */
  floorLight: ShadeGrid | null;
  /** The sun when the photo shows sun patches: through a window it shows, or one out of frame; else null. */
  sun: Sun | null;
  /** Kitchen counters along the walls (bar stools go in front of them). */
  counters: Counter[];
  /** Things standing free on the floor (kitchen islands among them): nothing may stand in or behind them. */
  obstacles: Obstacle[];
  /** Where the photo shows small things with edges every way (a light fitting, not a wall's edge). */
  clutter: Clutter;
}

/**
 * Per cell of CLUTTER_CELL analysis pixels, the smaller eigenvalue of the mean gradient tensor:
 * large where edges run several ways (a chandelier, a plant), small on plain paint and along a
 * single straight edge (a ceiling line, a door frame's side).
 */
export interface Clutter {
  cell: number;
  cols: number;
  rows: number;
  data: Float32Array;
}

const CLUTTER_CELL = 8;

/**
 * The tone (0..1, the 99th percentile of the grey) that a photo exposed for its room reaches at
 * least: its windows, lamps or white paint. Clutter is measured on gradients, which fall with the
 * exposure: an underexposed photo's clutter is scaled up as if it reached this tone, so its busy
 * walls are not taken for plain ones (the loft darkened to 55 % hung a picture on its stone wall).
 */
const CLUTTER_WHITE = 0.85;

/** The factor on an underexposed photo's clutter (1 where it reaches CLUTTER_WHITE): the square of its shortfall, as clutter is a squared gradient. */
function clutterGain(gray: Plane): number {
  const bins = new Uint32Array(256);
  for (const v of gray.data) bins[Math.max(0, Math.min(255, Math.floor(v * 255)))]!++;
  let above = 0;
  let b = 255;
  while (b > 0 && above + bins[b]! <= 0.01 * gray.data.length) above += bins[b--]!;
  const white = (b + 1) / 255;
  return white >= CLUTTER_WHITE ? 1 : (CLUTTER_WHITE / Math.max(0.05, white)) ** 2;
}

function measureClutter(g: Gradient, width: number, height: number, gain: number): Clutter {
  const cols = Math.ceil(width / CLUTTER_CELL);
  const rows = Math.ceil(height / CLUTTER_CELL);
  const data = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let xx = 0;
      let yy = 0;
      let xy = 0;
      let n = 0;
      for (let y = r * CLUTTER_CELL; y < Math.min(height, (r + 1) * CLUTTER_CELL); y++) {
        for (let x = c * CLUTTER_CELL; x < Math.min(width, (c + 1) * CLUTTER_CELL); x++) {
          const i = y * width + x;
          const gx = g.gx[i]!;
          const gy = g.gy[i]!;
          xx += gx * gx;
          yy += gy * gy;
          xy += gx * gy;
          n++;
        }
      }
      xx /= n;
      yy /= n;
      xy /= n;
      data[r * cols + c] = gain * ((xx + yy) / 2 - Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy));
    }
  }
  return { cell: CLUTTER_CELL, cols, rows, data };
}

/**
 * A room model that crossed to another thread: a structured clone keeps its data but not its
 * classes (the camera, the floor's light), which are made again from that data.
 */
export function reviveRoom(room: RoomModel): RoomModel {
  const light = room.floorLight;
  const revive = (g: ShadeGrid) => new ShadeGrid(g.u0, g.v0, g.cell, g.nu, g.nv, g.factor);
  return {
    ...room,
    camera: new Camera(room.camera.p),
    floorLight: light && revive(light),
    sun: room.sun && { dir: room.sun.dir, patches: room.sun.patches && revive(room.sun.patches) },
  };
}

export const ANALYSIS_LONG_SIDE = 640;
const EYE_HEIGHT = 1.5;
const DEFAULT_FOCAL = 0.62;

const lum = (v: Vec3): number => 0.299 * v[0] + 0.587 * v[1] + 0.114 * v[2];

export function toPlanes(img: RgbImage, sigma: number): { gray: Plane; color: ColorPlanes } {
  const n = img.width * img.height;
  const r = new Float32Array(n);
  const g = new Float32Array(n);
  const b = new Float32Array(n);
  const gray = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const rr = (img.data[3 * i] ?? 0) / 255;
    const gg = (img.data[3 * i + 1] ?? 0) / 255;
    const bb = (img.data[3 * i + 2] ?? 0) / 255;
    r[i] = rr;
    g[i] = gg;
    b[i] = bb;
    gray[i] = 0.299 * rr + 0.587 * gg + 0.114 * bb;
  }
  const w = img.width;
  const h = img.height;
  const blur = (d: Float32Array) => blurPlane({ width: w, height: h, data: d }, sigma).data;
  return { gray: { width: w, height: h, data: gray }, color: { width: w, height: h, r: blur(r), g: blur(g), b: blur(b) } };
}

/** Beyond these a vertical vanishing point is more likely wrong than the photo that tilted. */
const MAX_PITCH = (20 * Math.PI) / 180;
const MAX_ROLL = (8 * Math.PI) / 180;
/** The most a camera whose focal is assumed, not measured, is turned from the room's depth axis. */
const MAX_ASSUMED_YAW = 0.6;
/** A rolled or tilted camera must explain the verticals this much better than a simpler one. */
const TILT_MARGIN = 1.1;
/**
 * V measures the focal only when |V - c| / |horizon - c| is at most this, i.e. the camera is
 * tilted by 4 degrees or more: further out its distance is too uncertain.
 */
const MAX_FOCAL_LEVER = 1 / Math.tan((4 * Math.PI) / 180) ** 2;

/**
 * Camera from vanishing points. The depth one (D) gives the horizon's position and the yaw; the
 * verticals' one (V) gives roll and pitch; the focal comes from the lateral vanishing point or
 * from V and D. Three cameras are built around D: level (pitch and roll zero, principal point on
 * the horizon row, as in shift-corrected listing photos), level but rolled, and tilted
 * (principal point at the image centre, horizon through D, slanted as V says). The verticals
 * pick the one whose V they agree with best, the simpler one on near ties.
 */
export function estimateCamera(segments: Segment[], width: number, height: number, vp: VanishingPoint | null): { camera: Camera; fromVp: boolean } {
  const long = Math.max(width, height);
  const cx = width / 2;
  const defaultFocal = DEFAULT_FOCAL * long;
  if (vp === null || vp.support <= 0.4 * long) {
    const camera = new Camera({ width, height, focal: defaultFocal, cx, cy: 0.47 * height, yaw: 0, pitch: 0, roll: 0, eyeHeight: EYE_HEIGHT });
    return { camera, fromVp: false };
  }
  // The yaw turns D's ray onto the room's depth axis, exactly where the focal was measured: a
  // camera turned less than D says leaves the room's lines converging nowhere, and a corner shot
  // (both walls at about 45 degrees) then fitted one box or another as the photo was rolled a
  // degree either way. Past 45 degrees D belongs to the walls across the view, and the depth axis
  // is the one square to it. With the focal assumed, the yaw is as uncertain as it, and is held
  // within MAX_ASSUMED_YAW: a point of the hall's glossy floor's reflections, taken for D, turned
  // the camera 44 degrees and left no room for a sofa.
  const build = (focal: number, cy: number, pitch: number, roll: number): Camera => {
    const p = { width, height, focal, cx, cy, yaw: 0, pitch, roll, eyeHeight: EYE_HEIGHT };
    const d = new Camera(p).rayDir(vp.x, vp.y);
    const yaw = Math.atan2(-d[0], d[2]);
    if (focal === defaultFocal) return new Camera({ ...p, yaw: clamp(yaw, -MAX_ASSUMED_YAW, MAX_ASSUMED_YAW) });
    return new Camera({ ...p, yaw: Math.abs(yaw) > Math.PI / 4 ? yaw - Math.sign(yaw) * (Math.PI / 2) : yaw });
  };
  const levelFocal = estimateFocal(segments, vp, { x: cx, y: vp.y }, [1, 0], width, height) ?? defaultFocal;
  const level = build(levelFocal, clamp(vp.y, 0.25 * height, 0.75 * height), 0, 0);
  const vertical = estimateVerticalVanishingPoint(segments, width, height, vp);
  if (!vertical || vertical.count < 3 || vertical.support < 0.3 * height) return { camera: level, fromVp: true };
  // Roll from the image direction of world up at the centre (K^-1 V, signed to point up).
  const c = { x: cx, y: height / 2 };
  const vx = vertical.x - c.x * vertical.w;
  const vy = vertical.y - c.y * vertical.w;
  const up = vy < 0 ? 1 : -1;
  const roll = Math.atan2(up * vx, -up * vy);
  if (Math.abs(roll) > MAX_ROLL) return { camera: level, fromVp: true };
  const hd: [number, number] = [Math.cos(roll), Math.sin(roll)];
  const support = (cam: Camera) => {
    // World up's vanishing point, homogeneous: K R (0, 1, 0).
    const r = cam.rot;
    const { focal, cx: px, cy: py } = cam.p;
    return verticalSupport(segments, { x: focal * r[1]! + px * r[7]!, y: py * r[7]! - focal * r[4]!, w: r[7]! });
  };
  let best = { camera: level, score: support(level) };
  const consider = (camera: Camera) => {
    const score = support(camera);
    if (score > TILT_MARGIN * best.score && score >= 0.3 * height) best = { camera, score };
  };
  const cyRolled = clamp(vp.y - (vp.x - cx) * Math.tan(roll), 0.25 * height, 0.75 * height);
  consider(build(estimateFocal(segments, vp, { x: cx, y: cyRolled }, hd, width, height) ?? defaultFocal, cyRolled, 0, roll));
  // Tilted: the horizon passes through D across V's direction, `off` below the image centre.
  // A vanishing point pair (D and L, or D and V) measures the focal best when both lie about f
  // from the centre, badly when one is near it and the other far away.
  const off = (vp.y - c.y) * hd[0] - (vp.x - c.x) * hd[1];
  const dz = (vp.x - c.x) * hd[0] + (vp.y - c.y) * hd[1];
  let focal = defaultFocal;
  let lever = Infinity;
  const lateral = estimateFocal(segments, vp, c, hd, width, height);
  if (lateral !== null) {
    focal = lateral;
    lever = (lateral * lateral + off * off) / (dz * dz);
  }
  if (vertical.w !== 0) {
    const f2 = -((vx / vertical.w) * (vp.x - c.x) + (vy / vertical.w) * (vp.y - c.y));
    const vLever = Math.hypot(vx, vy) / Math.abs(vertical.w) / Math.max(1, Math.abs(off));
    if (f2 > (0.3 * long) ** 2 && f2 < (1.2 * long) ** 2 && vLever <= MAX_FOCAL_LEVER && vLever < lever) focal = Math.sqrt(f2);
  }
  const pitch = Math.atan(off / focal);
  if (Math.abs(pitch) <= MAX_PITCH) consider(build(focal, c.y, pitch, roll));
  return { camera: best.camera, fromVp: true };
}

const BIN = 0.1;
/** Height below which a doorway is open, in metres. */
const DOOR_HEIGHT = 1.9;
/** A doorway into an unlit space is darker than this share of the wall and of the wall beside it. */
const DARK_DOORWAY = 0.72;
/** Height of a doorway's head above the floor (metres): doors are 2.0-2.1 m nearly everywhere. */
const DOOR_TOP = 2.05;
/** Colour distance from the wall beside it that makes a sample inside a frame glass, not wall. */
const WINDOW_CONTRAST = 0.06;
/** The widest gap between two bright runs, in bins, that is a window's mullion. */
const MULLION_BINS = 3;
/** A door jamb this far inside a framed window's sides rules the window out (a frame's own width). */
const JAMB_CLEARANCE = 0.1;
/**
 * The white a photo's openings reach where it is exposed as listing photos are: its windows and
 * lamps clip, and a thousandth of its pixels are at least this bright (the fixtures: 0.96-1).
 */
const EXPOSED_WHITE = 0.95;

/**
 * The photo's exposure against EXPOSED_WHITE, at most 1: the luminance a thousandth of its pixels
 * reach, over it. An underexposed photo's windows are grey, no brighter than 0.6 where the
 * photo is 0.6 of a listing's exposure; what makes them openings is that they are its brightest.
 */
function exposureOf(c: ColorPlanes): number {
  const bins = 1024;
  const hist = new Uint32Array(bins);
  const n = c.width * c.height;
  for (let i = 0; i < n; i++) hist[Math.min(bins - 1, Math.max(0, Math.floor(lum([c.r[i]!, c.g[i]!, c.b[i]!]) * bins)))]!++;
  let above = 0;
  let k = bins - 1;
  for (; k > 0; k--) {
    above += hist[k]!;
    if (above >= 0.001 * n) break;
  }
  return clamp(k / bins / EXPOSED_WHITE, 0.25, 1);
}

/** A framed window's sides start at least this high; a door's jambs start lower. */
const LOWEST_SILL = 0.25;

/**
 * Walks each wall in 10 cm bins, sampling a vertical strip of the photo from skirting height to
 * near the ceiling: runs of very bright samples are windows or glass doors (restricting this to
 * the wall band keeps ceiling lights and floor reflections out); windows whose glass shows a
 * view no brighter than the wall are found by their frames; door frames found as vertical lines
 * block the wall. Colour changes alone are not used: sun patches and light falloff on a plain
 * wall are stronger than many real edges.
 */
function analyseWalls(cam: Camera, box: RoomBox, c: ColorPlanes, segments: Segment[], exposure: number): { walls: Wall[]; openings: Opening[] } {
  const walls: Wall[] = [];
  const openings: Opening[] = [];
  const tmp: Vec3 = [0, 0, 0];
  for (const id of ['left', 'right', 'back'] as WallId[]) {
    const [a0, a1] = wallRange(box, id);
    const top = Math.min(box.ceiling - 0.15, 2.5);
    const heights: number[] = [];
    for (let y = 0.2; y <= top + 1e-6; y += 0.1) heights.push(y);
    const bins: Array<{ along: number; samples: Array<Vec3 | null> }> = [];
    for (let a = a0 + BIN / 2; a < a1; a += BIN) {
      const samples = heights.map((y) => {
        const p = cam.project(wallPoint(box, id, a, y));
        if (p.depth < 0.3 || !sampleColor(c, p.u, p.v, tmp)) return null;
        return [tmp[0], tmp[1], tmp[2]] as Vec3;
      });
      bins.push({ along: a, samples });
    }
    const all = bins.flatMap((b) => b.samples.filter((s): s is Vec3 => s !== null));
    const visible = bins.filter((b) => b.samples[0] !== null && b.samples[0] !== undefined);
    if (all.length < 8 || visible.length === 0) continue;
    const med = (k: 0 | 1 | 2) => all.map((s) => s[k]).sort((p, q) => p - q)[all.length >> 1] ?? 0.5;
    const color: Vec3 = [med(0), med(1), med(2)];
    const wallLum = lum(color);
    // Openings are near the photo's white; a sunlit stretch of wall is bright but not that bright.
    const brightThreshold = exposure * Math.min(0.97, Math.max(0.85, wallLum / exposure + 0.08));
    const windowBins: Array<{ lo: number; hi: number } | null> = [];
    for (const bin of bins) {
      let lo = Infinity;
      let hi = -Infinity;
      bin.samples.forEach((s, k) => {
        if (!s || lum(s) <= brightThreshold) return;
        const y = heights[k] ?? 0;
        lo = Math.min(lo, y);
        hi = Math.max(hi, y);
      });
      windowBins.push(hi - lo >= 0.5 ? { lo, hi } : null);
    }
    const blocked: Array<[number, number]> = [];
    // Mullions split a window into runs: join them. A mullion of 20 cm covers two or three
    // bins depending on where the bins fall, so a mirrored photo would split where the original
    // joined with fewer.
    const bright = windowBins.map((w) => w !== null);
    for (let i = 1; i < bright.length - 1; i++) {
      if (bright[i] || !bright[i - 1]) continue;
      let next = -1;
      for (let k = i + 1; k <= i + MULLION_BINS && k < bright.length; k++) {
        if (bright[k]) {
          next = k;
          break;
        }
      }
      if (next > 0) for (let k = i; k < next; k++) bright[k] = true;
    }
    runs(bright, (i0, i1) => {
      if (i1 - i0 + 1 < 3) return;
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = i0; i <= i1; i++) {
        lo = Math.min(lo, windowBins[i]?.lo ?? Infinity);
        hi = Math.max(hi, windowBins[i]?.hi ?? -Infinity);
      }
      // An opening's edge is a step (its frame); sunlight on a wall fades out gradually.
      const binLum = (i: number): number | null => {
        const b = bins[i];
        if (!b) return null;
        const vals = b.samples.filter((v, k) => v && (heights[k] ?? 0) >= lo && (heights[k] ?? 0) <= hi).map((v) => lum(v!));
        return vals.length ? vals.reduce((x, y) => x + y, 0) / vals.length : null;
      };
      const step = (inner: number, outer: number) => {
        const a = binLum(inner);
        const b = binLum(outer);
        return a === null || b === null ? 1 : a - b;
      };
      if (Math.min(step(i0, i0 - 2), step(i1, i1 + 2)) < 0.06 * exposure) return;
      const from = (bins[i0]?.along ?? 0) - BIN / 2;
      const to = (bins[i1]?.along ?? 0) + BIN / 2;
      const bottom = Math.max(0, lo - 0.1);
      openings.push({ wall: id, kind: bottom < 0.35 ? 'door' : 'window', from, to, bottom, top: hi + 0.1, daylight: true });
      blocked.push([from, to]);
    });
    // Doorways into unlit rooms or corridors: a stretch of wall dark from skirting to door
    // height, with a step down at both sides (light falloff along a wall is gradual).
    const doorLum = bins.map((b) => {
      const v = b.samples.filter((x, k) => x && (heights[k] ?? 0) <= DOOR_HEIGHT).map((x) => lum(x!));
      return v.length >= 0.8 * heights.filter((y) => y <= DOOR_HEIGHT).length ? v.reduce((p, q) => p + q, 0) / v.length : null;
    });
    runs(
      doorLum.map((l) => l !== null && l < DARK_DOORWAY * wallLum),
      (i0, i1) => {
        const width = (i1 - i0 + 1) * BIN;
        if (width < 0.6 || width > 2) return;
        const inside = doorLum.slice(i0, i1 + 1).reduce((p: number, q) => p + (q ?? 0), 0) / (i1 - i0 + 1);
        const before = doorLum[i0 - 3];
        const after = doorLum[i1 + 3];
        if (!before || !after || inside > DARK_DOORWAY * Math.min(before, after)) return;
        const from = (bins[i0]?.along ?? 0) - BIN / 2;
        const to = (bins[i1]?.along ?? 0) + BIN / 2;
        if (openings.some((o) => o.wall === id && o.from < to && o.to > from)) return;
        openings.push({ wall: id, kind: 'door', from, to, bottom: 0, top: DOOR_TOP, daylight: false, passage: true });
        blocked.push([from, to]);
      },
    );
    const uprights = wallUprights(cam, box, id, segments);
    for (const w of framedWindows(cam, box, id, uprights, c, color)) {
      if (openings.some((o) => o.wall === id && o.from < w.to && o.to > w.from)) continue;
      openings.push({ wall: id, ...w });
      blocked.push([w.from, w.to]);
    }
    // Door frames: long vertical segments standing on this wall's base. Two of them a door's
    // width apart are a doorway even when the door is the wall's colour.
    const frames = frameLines(cam, box, uprights);
    for (const a of frames) blocked.push([a - 0.06, a + 0.06]);
    for (let i = 0; i + 1 < frames.length; i++) {
      const a = frames[i]!;
      const b = frames[i + 1]!;
      if (b - a >= 0.5 && b - a <= 1.8) blocked.push([a, b]);
    }
    for (const [from, to] of blocked) {
      if (to - from < 0.5 || openings.some((o) => o.wall === id && o.from < to && o.to > from)) continue;
      openings.push({ wall: id, kind: 'door', from, to, bottom: 0, top: DOOR_TOP, daylight: false });
    }
    blocked.sort((p, q) => p[0] - q[0]);
    walls.push({
      id,
      visibleFrom: (visible[0]?.along ?? 0) - BIN / 2,
      visibleTo: (visible[visible.length - 1]?.along ?? 0) + BIN / 2,
      blocked,
      color,
    });
  }
  return { walls, openings };
}

/** A near-vertical segment of the photo laid on a wall: where along it, and its bottom and top heights. */
interface Upright {
  along: number;
  bottom: number;
  top: number;
  /** The segment's lower end in the photo. */
  u: number;
  v: number;
}

/** Near-vertical segments whose ends both meet the wall's plane inside the room box. */
function wallUprights(cam: Camera, box: RoomBox, wall: WallId, segments: Segment[]): Upright[] {
  const out: Upright[] = [];
  const [lo, hi] = wallRange(box, wall);
  const hit = (u: number, v: number) =>
    wall === 'left' ? cam.planeXPoint(u, v, box.left) : wall === 'right' ? cam.planeXPoint(u, v, box.right) : cam.planeZPoint(u, v, box.back);
  for (const s of segments) {
    if (Math.abs(s.angle - Math.PI / 2) > (6 * Math.PI) / 180) continue;
    const [bx, by, tx, ty] = s.y1 > s.y2 ? [s.x1, s.y1, s.x2, s.y2] : [s.x2, s.y2, s.x1, s.y1];
    const bottom = hit(bx, by);
    const top = hit(tx, ty);
    if (!bottom || !top) continue;
    const along = wall === 'back' ? bottom[0] : bottom[2];
    // Room corners are not frames.
    if (along < lo + 0.15 || along > hi - 0.15) continue;
    out.push({ along, bottom: bottom[1], top: top[1], u: bx, v: by });
  }
  return out.sort((a, b) => a.along - b.along);
}

/** Positions along a wall of near-vertical segments reaching from its base to above door-handle height. */
function frameLines(cam: Camera, box: RoomBox, uprights: Upright[]): number[] {
  const out: number[] = [];
  for (const s of uprights) {
    if (s.bottom > 0.5 || s.bottom < -0.3 || s.top < 1.5) continue;
    // The ray must meet this wall inside the room, not a wall that hides it.
    const floorHit = cam.floorPoint(s.u, s.v + 4);
    if (floorHit && (floorHit[0] < box.left - 0.3 || floorHit[0] > box.right + 0.3)) continue;
    out.push(s.along);
  }
  const merged: number[] = [];
  for (const a of out) if (!merged.length || a - (merged[merged.length - 1] ?? 0) > 0.12) merged.push(a);
  return merged;
}

/**
 * Windows whose glass shows the view (trees, a street) rather than blown-out sky: darker than
 * the wall, so the bright-run search misses them. Two uprights of the photo standing on the wall
 * above the floor, their sills and heads level with each other, frame one when what lies
 * between them is not the wall: beside each is plain wall, much of the inside differs from the
 * wall just outside at the same height, and no stretch of plain wall wider than a glazing bar
 * splits it. No doorway's jamb (a `frameLines` upright starting below any sill) stands inside it:
 * an open door leaf and the room beyond differ from the wall as much as a view does.
 */
function framedWindows(cam: Camera, box: RoomBox, wall: WallId, uprights: Upright[], c: ColorPlanes, wallColor: Vec3): Array<Omit<Opening, 'wall'>> {
  const sides = uprights.filter((s) => s.bottom > LOWEST_SILL && s.bottom < 1.4 && s.top > 1.5 && s.top < box.ceiling + 0.05 && s.top - s.bottom > 0.6);
  // Door jambs: frames starting lower than any sill, so a low window's own glazing bars are none.
  const jambs = frameLines(cam, box, uprights.filter((s) => s.bottom < LOWEST_SILL));
  const found: Array<Omit<Opening, 'wall'>> = [];
  const tmp: Vec3 = [0, 0, 0];
  const at = (a: number, y: number): Vec3 | null => {
    const p = cam.project(wallPoint(box, wall, a, y));
    return p.depth >= 0.3 && sampleColor(c, p.u, p.v, tmp) ? [tmp[0], tmp[1], tmp[2]] : null;
  };
  // Both sides of a window are wall (not the window beside it, nor a door).
  const plainWall = (side: Array<Vec3 | null>): boolean => {
    const seen = side.filter((v): v is Vec3 => v !== null);
    return seen.length > 0 && seen.filter((v) => colorDist(v, wallColor) < 0.1).length >= 0.7 * seen.length;
  };
  const framed = (from: number, to: number, bottom: number, top: number): boolean => {
    const heights: number[] = [];
    for (let y = bottom + 0.1; y < top - 0.05; y += 0.1) heights.push(y);
    const left = heights.map((y) => at(from - 0.15, y));
    const right = heights.map((y) => at(to + 0.15, y));
    if (!plainWall(left) || !plainWall(right)) return false;
    // The wall beside the window at each height: the inside is compared with it there.
    const refs = heights.map((_, k): Vec3 | null => {
      const l = left[k];
      const r = right[k];
      return l && r ? [(l[0] + r[0]) / 2, (l[1] + r[1]) / 2, (l[2] + r[2]) / 2] : (l ?? r ?? null);
    });
    let differs = 0;
    let samples = 0;
    let plainRun = 0;
    for (let a = from + BIN / 2; a < to; a += BIN) {
      let columnDiffers = 0;
      let column = 0;
      heights.forEach((y, k) => {
        const ref = refs[k];
        const inside = ref && at(a, y);
        if (!ref || !inside) return;
        column++;
        if (colorDist(inside, ref) > WINDOW_CONTRAST) columnDiffers++;
      });
      if (!column) return false;
      samples += column;
      differs += columnDiffers;
      plainRun = columnDiffers < 0.3 * column ? plainRun + 1 : 0;
      if (plainRun > 2) return false;
    }
    return samples > 0 && differs >= 0.4 * samples;
  };
  // Widest first, so a window's outer frame wins over its glazing bars.
  const pairs: Array<[Upright, Upright]> = [];
  for (let i = 0; i < sides.length; i++) {
    for (let j = i + 1; j < sides.length; j++) {
      const p = sides[i]!;
      const q = sides[j]!;
      const width = q.along - p.along;
      if (width >= 0.45 && width <= 3.2 && Math.abs(p.bottom - q.bottom) < 0.3 && Math.abs(p.top - q.top) < 0.3) pairs.push([p, q]);
    }
  }
  pairs.sort((x, y) => y[1].along - y[0].along - (x[1].along - x[0].along));
  for (const [p, q] of pairs) {
    if (found.some((o) => o.from < q.along && o.to > p.along)) continue;
    if (jambs.some((a) => a > p.along + JAMB_CLEARANCE && a < q.along - JAMB_CLEARANCE)) continue;
    const bottom = Math.max(p.bottom, q.bottom);
    const top = Math.min(p.top, q.top);
    if (!framed(p.along, q.along, bottom, top)) continue;
    found.push({ kind: 'window', from: p.along, to: q.along, bottom, top, daylight: true });
  }
  return found;
}

/**
 * The camera's height measured by the room's doorways. Every doorway found by its two jambs
 * gives the height its jambs reach, at the assumed eye height; doors are near enough all the
 * same height (DOOR_TOP), so their median says how much the assumed height is off. Null when no
 * doorway measures it, the change is small, or it would put the camera somewhere no camera is.
 */
function eyeHeightFromDoors(cam: Camera, box: RoomBox, openings: Opening[], segments: Segment[]): number | null {
  const heights: number[] = [];
  for (const o of openings) {
    if (o.kind !== 'door' || o.daylight || o.passage) continue;
    const jambs = wallUprights(cam, box, o.wall, segments).filter((s) => s.bottom > -0.3 && s.bottom < 0.5 && s.top > 1.5);
    const reach = (at: number) => Math.max(0, ...jambs.filter((s) => Math.abs(s.along - at) < 0.15).map((s) => s.top));
    const a = reach(o.from);
    const b = reach(o.to);
    if (a > 0 && b > 0 && Math.abs(a - b) < 0.12 * Math.max(a, b)) heights.push((a + b) / 2);
  }
  if (!heights.length) return null;
  heights.sort((p, q) => p - q);
  const scale = DOOR_TOP / heights[heights.length >> 1]!;
  const eye = cam.p.eyeHeight * scale;
  if (Math.abs(scale - 1) < 0.08 || eye < 0.8 || eye > 1.9) return null;
  return eye;
}

/**
 * Whether a doorway's scale puts the ceiling where rooms have one. The assumed scale's ceiling
 * line, scaled, must land there; or, where it does not, the room fitted afresh at the doorway's
 * scale must find a ceiling there that is better seen. The assumed scale's search stops at
 * CEILING_SEARCH's top, so a camera that a doorway finds well below the assumed one had its true
 * ceiling out of reach, and whatever line stood in for it says nothing of the room.
 */
function keepsCeiling(scale: number, assumed: RoomBox, measured: RoomBox): boolean {
  return plausibleCeiling(assumed.ceiling * scale) || (plausibleCeiling(measured.ceiling) && (measured.ceilingScore ?? 0) > (assumed.ceilingScore ?? 0));
}

/** The heights of the ceilings rooms have, in metres. */
const CEILING_HEIGHTS: [number, number] = [2.2, 3.6];

const plausibleCeiling = (h: number) => h >= CEILING_HEIGHTS[0] && h <= CEILING_HEIGHTS[1];

/**
 * A camera lower than assumed, told by the ceiling where no doorway measures it. Past the
 * search's reach (CEILING_SEARCH) a ceiling line seen better than the one found within it is
 * the room's ceiling, so high up at the assumed height that the camera must stand lower (or
 * the room be a hall): the Pruna room's left part, 0.92 m up under 3.1 m, shows its ceiling
 * 5 m up at 1.5 m, and its window's meeting rail stood in for it. Which of the two it is, no
 * line tells, so the eye height is lowered only as far as puts that ceiling at the top of
 * CEILING_HEIGHTS. Null when no such line is seen, or it would put the camera under 0.8 m.
 */
function eyeHeightFromHighCeiling(cam: Camera, box: RoomBox, c: ColorPlanes): number | null {
  const high = seekCeiling(cam, c, box, [CEILING_SEARCH[1], HIGHEST_CEILING]);
  const long = Math.max(cam.p.width, cam.p.height);
  if (high.score <= Math.max(box.ceilingScore ?? 0, SEEN_CEILING * long)) return null;
  const eye = (cam.p.eyeHeight * CEILING_HEIGHTS[1]) / high.height;
  return eye >= 0.8 ? eye : null;
}

/** How high, at the assumed eye height, a ceiling is sought past the box's search: as a camera 0.6 m up sees 3.6 m. */
const HIGHEST_CEILING = 9;

/** The least score (per pixel of the long side) of a ceiling line sought past the box's search. */
const SEEN_CEILING = 0.008;

/**
 * Floor gloss: a bright opening mirrored in the floor (a window's reflection below it) shows as
 * floor brighter there than beside it. The ratio of that excess to the opening's own excess
 * over the floor is the reflectance; the strongest opening decides.
 */
function estimateGloss(cam: Camera, box: RoomBox, openings: Opening[], c: ColorPlanes): number {
  const tmp: Vec3 = [0, 0, 0];
  const lumAt = (p: Vec3): number | null => {
    const q = cam.project(p);
    if (q.depth < 0.3 || !sampleColor(c, q.u, q.v, tmp)) return null;
    return lum(tmp);
  };
  const at = (o: Opening, a: number, y: number, inset: number): Vec3 => wallPoint(box, o.wall, a, y, inset);
  let gloss = 0;
  for (const o of openings) {
    const mid = (o.from + o.to) / 2;
    const width = o.to - o.from;
    let open = 0;
    let mirrored = 0;
    let beside = 0;
    let n = 0;
    for (let y = o.bottom + 0.1; y < o.top - 0.05; y += 0.1) {
      for (const a of [mid - width * 0.25, mid, mid + width * 0.25]) {
        // The mirror image of (a, y) on the floor is the floor point seen towards (a, -y).
        const lo = lumAt(at(o, a, y, 0.01));
        const lm = lumAt(at(o, a, -y, 0.01));
        const lb = lumAt(at(o, a + (a < mid ? -1 : 1) * width, -y, 0.01));
        if (lo === null || lm === null || lb === null) continue;
        open += lo;
        mirrored += lm;
        beside += lb;
        n++;
      }
    }
    if (n < 4) continue;
    const excess = (open - beside) / n;
    if (excess < 0.15) continue;
    gloss = Math.max(gloss, clamp((mirrored - beside) / n / excess, 0, 0.6));
  }
  return gloss;
}

/** The ceiling's median colour over the box's ceiling plane, away from its edges (cornices, lights). */
function ceilingColor(cam: Camera, box: RoomBox, c: ColorPlanes): Vec3 | null {
  const tmp: Vec3 = [0, 0, 0];
  const ch: number[][] = [[], [], []];
  const w = box.right - box.left;
  for (let fz = 0.15; fz < 0.9; fz += 0.05) {
    for (let fx = 0.15; fx < 0.9; fx += 0.05) {
      const q = cam.project([box.left + fx * w, box.ceiling, 0.5 + fz * (box.back - 0.5)]);
      if (q.depth < 0.3 || !sampleColor(c, q.u, q.v, tmp)) continue;
      for (let k = 0; k < 3; k++) ch[k]!.push(tmp[k]!);
    }
  }
  if (ch[0]!.length < 20) return null;
  const med = (a: number[]) => a.sort((p, q) => p - q)[a.length >> 1]!;
  return [med(ch[0]!), med(ch[1]!), med(ch[2]!)];
}

function runs(flags: boolean[], emit: (i0: number, i1: number) => void): void {
  let start = -1;
  for (let i = 0; i <= flags.length; i++) {
    const on = i < flags.length && flags[i] === true;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      emit(start, i - 1);
      start = -1;
    }
  }
}

/** How many rival depth vanishing points are tried, and the share of the best's support each needs. */
const RIVAL_VPS = 3;
const RIVAL_SHARE = 0.5;
/**
 * A rival's room box must explain the photo this much better than the best supported one's, by
 * its floor and ceiling lines together: a family of lines on the floor alone (sun patches' edges,
 * tiles on the diagonal, reflections in a glossy floor) can fit a box's floor lines as well as
 * the room's own, but not its ceiling's.
 */
const RIVAL_MARGIN = 1.25;
const explained = (box: RoomBox) => box.score + (box.ceilingScore ?? 0);

/**
 * The camera and room box together. Lines alone can mistake another family of parallels for
 * the room's depth (tile grout laid on the diagonal outnumbers the wall lines in a washed-out
 * photo); the room box each camera implies tells them apart, since only the true camera puts
 * its floor lines on the photo's floor-wall boundaries.
 */
function cameraAndBox(segments: Segment[], bands: ReadonlySet<Segment>, color: ColorPlanes, width: number, height: number): { camera: Camera; fromVp: boolean; box: RoomBox } {
  // The candidates are ranked by their support less the edges of bands of light: sun stripes run
  // whichever way the sun does, and are no evidence of the room's depth.
  const unlit = segments.filter((s) => !bands.has(s));
  const vps = depthVanishingPoints(segments, width, height, RIVAL_VPS, RIVAL_SHARE)
    .map((vp) => ({ vp, support: depthSupport(unlit, vp) }))
    .sort((a, b) => b.support - a.support)
    .map(({ vp }) => vp);
  const first = estimateCamera(segments, width, height, vps[0] ?? null);
  let best = { ...first, box: fitRoomBox(first.camera, color) };
  if (!first.fromVp) return best;
  for (const vp of vps.slice(1)) {
    const rival = estimateCamera(segments, width, height, vp);
    if (!rival.fromVp) continue;
    const box = fitRoomBox(rival.camera, color);
    if (!box.fallback && explained(box) > RIVAL_MARGIN * Math.max(explained(best.box), 0)) best = { ...rival, box };
  }
  return best;
}

/** The photo's straight lines, and the gradient they were found on. */
function lineSegments(gray: Plane): { segments: Segment[]; bands: Set<Segment>; grad: Gradient } {
  const smooth = blurPlane(gray, 1);
  const grad = gradient(smooth);
  const long = Math.max(gray.width, gray.height);
  const segments = detectSegments(smooth, grad, { threshold: 0.008, minLength: Math.round(0.03 * long) });
  return { segments, bands: new Set(segments.filter((s) => lightBandEdge(smooth, s))), grad };
}

/** Below this box score per pixel of the long side the room's lines are in doubt (the fixtures score 0.055-0.11). */
const DOUBTFUL_FIT = 0.045;
/** A doubtful photo is stretched so its grey's 1st to 99th percentiles span this much, at most 4 times. */
const STRETCHED_SPAN = 0.8;

/**
 * A washed-out photo (haze, a white room, a phone's flat rendering) stretched to STRETCHED_SPAN,
 * so the line detector's fixed threshold finds its walls' weak edges and the box fit's noise
 * floor does not swallow them; null when the photo already spans that much.
 */
function stretched(gray: Plane, color: ColorPlanes): { gray: Plane; color: ColorPlanes } | null {
  const sorted = Float32Array.from(gray.data).sort();
  const lo = sorted[Math.floor(0.01 * (sorted.length - 1))] ?? 0;
  const hi = sorted[Math.floor(0.99 * (sorted.length - 1))] ?? 1;
  const gain = Math.min(4, STRETCHED_SPAN / Math.max(1e-3, hi - lo));
  if (!(gain >= 1.25)) return null;
  const stretch = (p: Float32Array) => p.map((v) => (v - lo) * gain);
  return {
    gray: { width: gray.width, height: gray.height, data: stretch(gray.data) },
    color: { width: color.width, height: color.height, r: stretch(color.r), g: stretch(color.g), b: stretch(color.b) },
  };
}

/** Room understanding on an image already reduced to ANALYSIS_LONG_SIDE. */
export function analyseRoom(img: RgbImage): RoomModel {
  const long = Math.max(img.width, img.height);
  const { gray, color } = toPlanes(img, 1.2);
  const { grad, ...lines } = lineSegments(gray);
  let segments = lines.segments;
  let first = cameraAndBox(segments, lines.bands, color, img.width, img.height);
  // The colours the box was fitted on, for fitting it again at a measured scale: the photo's
  // own were the ones in doubt. Everything that reads colour as colour keeps the photo's own.
  let boxColor = color;
  // Where the room's lines are in doubt they are sought again on the photo stretched, and both
  // cameras' room boxes are fitted on the stretched colours. The stretched photo's lines are the
  // fuller evidence, so its camera is kept unless the first one explains the room better.
  // Only a photo already seen in perspective: stretched, a close-up of floorboards shows
  // converging lines too, and would pass for a room.
  const flat = first.fromVp && first.box.score < DOUBTFUL_FIT * long ? stretched(gray, color) : null;
  if (flat) {
    const { segments: again, bands } = lineSegments(flat.gray);
    const alt = cameraAndBox(again, bands, flat.color, img.width, img.height);
    const mine = fitRoomBox(first.camera, flat.color);
    if (alt.fromVp && !alt.box.fallback && alt.box.score >= mine.score) {
      first = alt;
      segments = again;
      boxColor = flat.color;
    }
  }
  const fromVp = first.fromVp;
  let { camera, box } = first;
  const exposure = exposureOf(color);
  let { walls, openings } = analyseWalls(camera, box, color, segments, exposure);
  // The eye height is assumed until a doorway measures it; then the room is fitted again at
  // that scale, so furniture is drawn at its true size beside the room's doors. With no doorway,
  // a ceiling seen past the search's reach lowers it.
  const eye = eyeHeightFromDoors(camera, box, openings, segments);
  let measured = false;
  if (eye !== null) {
    const atDoors = new Camera({ ...camera.p, eyeHeight: eye });
    const refitted = fitRoomBox(atDoors, boxColor);
    if (keepsCeiling(eye / camera.p.eyeHeight, box, refitted)) {
      camera = atDoors;
      box = refitted;
      ({ walls, openings } = analyseWalls(camera, box, color, segments, exposure));
      measured = true;
    }
  }
  const lower = measured ? null : eyeHeightFromHighCeiling(camera, box, boxColor);
  if (lower !== null) {
    camera = new Camera({ ...camera.p, eyeHeight: lower });
    box = fitRoomBox(camera, boxColor);
    ({ walls, openings } = analyseWalls(camera, box, color, segments, exposure));
  }
  const floorColor = floorReference(color);
  const floorGloss = estimateGloss(camera, box, openings, color);
  const ceiling = ceilingColor(camera, box, color);
  const floorLight = estimateFloorLight(camera, box, color, openings, floorGloss);
  const seenSun = estimateSun(box, openings, floorLight);
  const sun = seenSun ? { dir: seenSun, patches: null } : estimateHiddenSun(camera, box, floorLight, segments);
  const sharp = toPlanes(img, 0).color;
  const radiance = estimateRadiance(camera, box, walls, openings, color, floorColor, ceiling, radianceCentre(box), sharp);
  const counters = detectCounters(camera, box, color, walls, openings, floorColor);
  const obstacles = detectObstacles(camera, box, color, sharp, segments, counters, floorColor, floorGloss);
  return {
    camera,
    box,
    walls,
    openings,
    segments,
    defaultCamera: !fromVp,
    floorColor,
    ceilingColor: ceiling,
    radiance,
    floorGloss,
    floorLight,
    sun,
    counters,
    obstacles,
    clutter: measureClutter(grad, img.width, img.height, clutterGain(gray)),
  };
}
