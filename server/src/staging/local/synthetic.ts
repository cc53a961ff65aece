import { Camera } from './camera.ts';
import type { RgbImage } from './image.ts';
import { linearToSrgb8 } from './image.ts';
import { toLinear } from './materials.ts';
import { MeshBuilder } from './mesh.ts';
import { noise3 } from './prng.ts';
import { rasterize } from './raster.ts';
import type { Vec3 } from './vec.ts';

/** An empty box room with a known camera, for geometry tests and sample renders. */
export interface SyntheticRoom {
  width: number;
  height: number;
  /** Camera focal length as a fraction of the longer side. */
  focal: number;
  yaw: number;
  eyeHeight: number;
  /** Principal point row as a fraction of the height: the horizon row when pitch and roll are zero. */
  horizon: number;
  /** Camera tilt in radians (positive looks up), default 0. */
  pitch?: number;
  /** Camera rotation about its optical axis in radians (see Camera), default 0. */
  roll?: number;
  left: number;
  right: number;
  back: number;
  ceiling: number;
  /**
   * A window on the back wall: x from..to, sill and head heights (metres). Its glass is blown-out
   * sky unless `view` is 'trees': then it shows a garden darker than the wall, behind a white
   * frame and glazing bars, as in a photo exposed for the room.
   */
  window?: { from: number; to: number; bottom: number; top: number; view?: 'sky' | 'trees' };
  /** A closed door on the right wall: z from..to, 2.03 m high, in a white casing. */
  door?: { from: number; to: number };
  /** A run of kitchen base cabinets with a worktop along a wall. */
  counter?: SyntheticCounter;
  /** A free-standing kitchen island: centre (x, z), width along X, depth along Z, worktop height (metres). */
  island?: SyntheticIsland;
  /** A square concrete pillar from floor to ceiling: centre (x, z) and side (metres). */
  pillar?: { x: number; z: number; side: number };
  floorColor: Vec3;
  wallColor: Vec3;
}

export const DEFAULT_SYNTHETIC: SyntheticRoom = {
  width: 960,
  height: 640,
  focal: 0.62,
  yaw: 0.08,
  eyeHeight: 1.5,
  horizon: 0.46,
  left: -2.3,
  right: 2.6,
  back: 6.5,
  ceiling: 2.6,
  window: { from: -0.6, to: 0.7, bottom: 0.9, top: 2.2 },
  floorColor: [0.62, 0.48, 0.34],
  wallColor: [0.88, 0.87, 0.84],
};

export interface SyntheticCounter {
  /** The wall it stands against (default the back wall); from..to along it (Z for side walls, X for the back wall). */
  wall?: 'left' | 'right' | 'back';
  from: number;
  to: number;
  /** Worktop height and depth from the wall (metres). */
  height: number;
  depth: number;
  /** Wall cabinets above the worktop, leaving the window clear. */
  upper: boolean;
}

export interface SyntheticIsland {
  x: number;
  z: number;
  w: number;
  d: number;
  height: number;
}

export function syntheticCamera(s: SyntheticRoom): Camera {
  return new Camera({
    width: s.width,
    height: s.height,
    focal: s.focal * Math.max(s.width, s.height),
    cx: s.width / 2,
    cy: s.horizon * s.height,
    yaw: s.yaw,
    pitch: s.pitch ?? 0,
    roll: s.roll ?? 0,
    eyeHeight: s.eyeHeight,
  });
}

const FLOOR = 0;
const WALL = 1;
const SKIRTING = 2;
const WINDOW = 3;
const CEILING = 4;
const CABINET = 5;
const WORKTOP = 6;
const SHADOW_GAP = 7;
const HANDLE = 8;
const DOOR = 9;
const PILLAR = 10;

/**
 * Base cabinets (doors, toe kick, handles) under a worktop in the builder's current frame: local
 * X along the run (half length `half`), local Z from the back (0) to the doors' front (`D`).
 * `island` stands them free: doors and a worktop overhang on the back too, panels at the ends.
 */
function baseCabinets(b: MeshBuilder, half: number, D: number, height: number, island: boolean): void {
  const top = 0.035;
  const plinth = 0.1;
  const back = island ? 0.02 : 0;
  const kick = island ? 0.06 : 0;
  const over = island ? 0.015 : 0;
  // Carcass and toe kick are dark so the gaps between the doors read as lines.
  b.box([0, plinth / 2, (kick + D - 0.06) / 2], [half, plinth / 2, (D - 0.06 - kick) / 2], SHADOW_GAP);
  b.box([0, (plinth + height - top) / 2, (back + D - 0.02) / 2], [half, (height - top - plinth) / 2, (D - 0.02 - back) / 2], SHADOW_GAP);
  b.box([0, height - top / 2, (D + 0.015 - over) / 2], [half + 0.01 + over, top / 2, (D + 0.015 + over) / 2], WORKTOP);
  const doors = Math.max(1, Math.round((2 * half) / 0.6));
  const dw = (2 * half) / doors;
  // Front doors, and on an island the same on the back (z mirrored).
  const faces: Array<[number, number]> = island ? [[D - 0.01, 1], [0.01, -1]] : [[D - 0.01, 1]];
  for (const [face, out] of faces) {
    for (let i = 0; i < doors; i++) {
      const x = -half + dw * (i + 0.5);
      b.box([x, (plinth + height - top) / 2, face], [dw / 2 - 0.003, (height - top - plinth) / 2 - 0.003, 0.01], CABINET);
      b.box([x + (i % 2 ? -1 : 1) * (dw / 2 - 0.05), height - top - 0.12, face + out * 0.015], [0.006, 0.07, 0.006], HANDLE);
    }
  }
  if (island) {
    for (const x of [-half + 0.01, half - 0.01]) b.box([x, height / 2, D / 2], [0.01, height / 2 - 0.02, D / 2 - 0.01], CABINET);
  }
}

/** Base cabinets along a wall, and wall cabinets beside the window, in the wall's frame (local Z out into the room). */
function addCounter(b: MeshBuilder, s: SyntheticRoom, k: SyntheticCounter): void {
  const wall = k.wall ?? 'back';
  const mid = (k.from + k.to) / 2;
  const half = (k.to - k.from) / 2;
  if (wall === 'back') b.setTransform(mid, s.back, Math.PI);
  else if (wall === 'left') b.setTransform(s.left, mid, Math.PI / 2);
  else b.setTransform(s.right, mid, -Math.PI / 2);
  // Local X of a position along the wall (the frames above turn it one way or the other).
  const local = (along: number) => (wall === 'right' ? along - mid : mid - along);
  baseCabinets(b, half, k.depth, k.height, false);
  if (k.upper) {
    const win = wall === 'back' ? s.window : undefined;
    const spans: Array<[number, number]> = win ? [[k.from, win.from - 0.15], [win.to + 0.15, k.to]] : [[k.from, k.to]];
    for (const [a, e] of spans) {
      if (e - a < 0.3) continue;
      const n = Math.max(1, Math.round((e - a) / 0.6));
      const w = (e - a) / n;
      const c = local((a + e) / 2);
      b.box([c, 1.8, 0.18], [(e - a) / 2, 0.36, 0.16], SHADOW_GAP);
      for (let i = 0; i < n; i++) b.box([c - (e - a) / 2 + w * (i + 0.5), 1.8, 0.345], [w / 2 - 0.003, 0.357, 0.01], CABINET);
    }
  }
  b.setTransform(0, 0, 0);
}

/** An island, its doors facing the camera (local Z from its back edge towards -Z). */
function addIsland(b: MeshBuilder, k: SyntheticIsland): void {
  b.setTransform(k.x, k.z + k.d / 2, Math.PI);
  baseCabinets(b, k.w / 2, k.d, k.height, true);
  b.setTransform(0, 0, 0);
}

/** Renders the room with the engine's own rasteriser: plain walls, a wood floor, skirting boards, a bright window. */
export function renderSyntheticRoom(s: SyntheticRoom): RgbImage {
  const b = new MeshBuilder();
  const { left: L, right: R, back: B, ceiling: C } = s;
  // The room extends behind the camera; the rasteriser clips at its near plane.
  const near = -2;
  b.quad([L, 0, near], [R, 0, near], [R, 0, B], [L, 0, B], [0, 1, 0], FLOOR);
  b.quad([L, C, near], [L, C, B], [R, C, B], [R, C, near], [0, -1, 0], CEILING);
  b.quad([L, 0, near], [L, 0, B], [L, C, B], [L, C, near], [1, 0, 0], WALL);
  b.quad([R, 0, B], [R, 0, near], [R, C, near], [R, C, B], [-1, 0, 0], WALL);
  b.quad([L, 0, B], [R, 0, B], [R, C, B], [L, C, B], [0, 0, -1], WALL);
  const t = 0.012;
  const h = 0.09;
  b.box([L + t, h / 2, (near + B) / 2], [t, h / 2, (B - near) / 2], SKIRTING);
  b.box([R - t, h / 2, (near + B) / 2], [t, h / 2, (B - near) / 2], SKIRTING);
  b.box([(L + R) / 2, h / 2, B - t], [(R - L) / 2, h / 2, t], SKIRTING);
  if (s.window) {
    const w = s.window;
    b.quad([w.from, w.bottom, B - 0.005], [w.to, w.bottom, B - 0.005], [w.to, w.top, B - 0.005], [w.from, w.top, B - 0.005], [0, 0, -1], WINDOW);
  }
  if (s.door) {
    const { from, to } = s.door;
    const head = 2.03;
    const c = 0.07;
    b.quad([R - 0.005, 0, to], [R - 0.005, 0, from], [R - 0.005, head, from], [R - 0.005, head, to], [-1, 0, 0], DOOR);
    b.box([R - 0.01, head / 2, from - c / 2], [0.01, head / 2, c / 2], SKIRTING);
    b.box([R - 0.01, head / 2, to + c / 2], [0.01, head / 2, c / 2], SKIRTING);
    b.box([R - 0.01, head + c / 2, (from + to) / 2], [0.01, c / 2, (to - from) / 2 + c], SKIRTING);
  }
  if (s.counter) addCounter(b, s, s.counter);
  if (s.island) addIsland(b, s.island);
  if (s.pillar) b.box([s.pillar.x, C / 2, s.pillar.z], [s.pillar.side / 2, C / 2, s.pillar.side / 2], PILLAR);
  const mesh = b.build();
  const cam = syntheticCamera(s);
  const colors = [
    toLinear(s.floorColor),
    toLinear(s.wallColor),
    toLinear([0.96, 0.96, 0.95]),
    [1, 1, 1] as Vec3,
    toLinear([0.95, 0.95, 0.94]),
    toLinear([0.42, 0.5, 0.46]),
    toLinear([0.6, 0.45, 0.31]),
    toLinear([0.12, 0.12, 0.12]),
    toLinear([0.7, 0.7, 0.68]),
    toLinear([0.74, 0.72, 0.68]),
    toLinear([0.6, 0.59, 0.56]),
  ];
  const layer = rasterize(mesh, cam, s.width, s.height, (f, out) => {
    const c = colors[f.material] ?? [0.5, 0.5, 0.5];
    // Walls facing the camera less are a little darker; the floor gets plank-like streaks;
    // corners and edges get a soft ambient occlusion, and light falls off away from the window.
    let k = 0.75 + 0.25 * Math.abs(f.nz);
    if (f.material === FLOOR) k *= 0.9 + 0.2 * noise3(f.px * 0.8, 0, f.pz * 12, 11);
    // (Only along the floor and ceiling: darkened vertical corners would weaken the corner
    // lines that the geometry tests rely on.)
    const wall = f.material === WALL || f.material === SKIRTING;
    const d = wall ? Math.min(f.py, C - f.py) : Math.min(f.px - L, R - f.px, B - f.pz);
    k *= 1 - 0.18 * Math.exp(-Math.max(0, d) / 0.35);
    if (s.window) k *= 0.92 + 0.12 * Math.exp(-Math.hypot(f.px - (s.window.from + s.window.to) / 2, f.pz - B) / 4);
    if (f.material === WINDOW) {
      if (s.window?.view === 'trees') {
        gardenView(s.window, f.px, f.py, out);
        return;
      }
      k = 1.2;
    }
    out[0] = (c[0] ?? 0) * k;
    out[1] = (c[1] ?? 0) * k;
    out[2] = (c[2] ?? 0) * k;
  });
  const data = new Uint8Array(s.width * s.height * 3);
  for (let i = 0; i < s.width * s.height; i++) {
    for (let k = 0; k < 3; k++) data[i * 3 + k] = linearToSrgb8(layer.color[i * 3 + k] ?? 0);
  }
  return { width: s.width, height: s.height, data };
}

/** A garden seen through a window with a white frame and glazing bars (linear RGB). */
function gardenView(w: { from: number; to: number; bottom: number; top: number }, x: number, y: number, out: Float32Array): void {
  const frame = 0.06;
  const mid = (w.from + w.to) / 2;
  const sash = (w.bottom + w.top) / 2;
  const bar = x - w.from < frame || w.to - x < frame || y - w.bottom < frame || w.top - y < frame || Math.abs(x - mid) < 0.025 || Math.abs(y - sash) < 0.025;
  if (bar) {
    out[0] = out[1] = out[2] = 0.8;
    return;
  }
  // Foliage in clumps over a pale sky, brighter towards the top.
  const leaves = noise3(x * 3, y * 3, 0, 5) * 0.6 + noise3(x * 11, y * 11, 0, 6) * 0.4;
  const sky = Math.min(1, Math.max(0, (y - w.bottom) / (w.top - w.bottom) - leaves + 0.3));
  out[0] = 0.1 + 0.45 * sky;
  out[1] = 0.16 + 0.42 * sky;
  out[2] = 0.08 + 0.5 * sky;
}

/** The sample empty rooms shown where no real photo exists (landing page, example renders). */
export const SAMPLE_BEDROOM: SyntheticRoom = { ...DEFAULT_SYNTHETIC, width: 1500, height: 1000, floorColor: [0.7, 0.6, 0.5], wallColor: [0.86, 0.85, 0.82] };
export const SAMPLE_KITCHEN: SyntheticRoom = {
  ...DEFAULT_SYNTHETIC,
  width: 1500,
  height: 1000,
  left: -2,
  right: 2.4,
  back: 4.6,
  yaw: -0.1,
  window: { from: -0.4, to: 0.8, bottom: 1.1, top: 2.15 },
  counter: { from: -2, to: 2.4, height: 0.91, depth: 0.62, upper: true },
  floorColor: [0.55, 0.55, 0.53],
  wallColor: [0.93, 0.92, 0.9],
};
