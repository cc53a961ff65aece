import type { RoomModel } from '../local/analyze.ts';
import { morph, type Mask } from './planes.ts';

/** What each working pixel of the original shows, from the room box. */
export const Surface = { Floor: 1, Wall: 2, Ceiling: 3 } as const;
export type Surface = (typeof Surface)[keyof typeof Surface];

export interface Zones {
  width: number;
  height: number;
  surface: Uint8Array;
  /** Where staging may put something: the floor, walls up to picture height, anything standing on the floor. */
  staging: Mask;
  /** The rest: ceiling, upper walls. A change here is a change to the room. */
  structure: Mask;
  /** The original's windows and doors (as the local engine's analysis found them). */
  openings: Mask;
}

/** Art, mirrors and curtains on walls end below this; windows and doors reach higher. */
const PICTURE_TOP = 2.1;
/** Floor lamps and plants are at most this tall. */
const OBJECT_HEIGHT = 1.9;
/** Furniture stands at least this far from the camera (the foreground stays clear). */
const OBJECT_MIN_DEPTH = 1.8;
/**
 * Near the camera a stager puts only low pieces: a standing object's top rises at most this far
 * above the horizon (in focal lengths), as far as a floor lamp at OBJECT_MIN_DEPTH seen from 1.5 m.
 * Seen from lower down, a tall piece that near would hide whole walls, windows and all.
 */
const MAX_RISE = (OBJECT_HEIGHT - 1.5) / OBJECT_MIN_DEPTH;
/** The room box is an estimate: the staging zone is grown by this share of the longer side. */
const ZONE_MARGIN = 0.012;

/**
 * Zones on the analysis grid: each pixel's ray meets the room box (camera inside) at its nearest
 * exit plane; heights come from that point. Objects standing on the floor are swept up from every
 * floor point to their height, as a lamp in the middle of the room hides the back wall above
 * picture height.
 */
export function roomZones(room: RoomModel): Zones {
  const cam = room.camera;
  const { width, height } = cam.p;
  const { left, right, back, ceiling } = room.box;
  const eye = cam.p.eyeHeight;
  const surface = new Uint8Array(width * height);
  const staging = new Uint8Array(width * height);
  const lowWallTop = Math.min(PICTURE_TOP, ceiling - 0.25);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const d = cam.rayDir(u, v);
      // Nearest exit plane of the box (the camera stands inside it); floor first, as ties go to it.
      let t = d[1] < 0 ? eye / -d[1] : Infinity;
      let kind: Surface = Surface.Floor;
      const tc = d[1] > 0 ? (ceiling - eye) / d[1] : Infinity;
      if (tc > 0 && tc < t) {
        t = tc;
        kind = Surface.Ceiling;
      }
      const ts = d[0] < 0 ? left / d[0] : d[0] > 0 ? right / d[0] : Infinity;
      if (ts > 0 && ts < t) {
        t = ts;
        kind = Surface.Wall;
      }
      const tb = d[2] > 0 ? back / d[2] : Infinity;
      if (tb > 0 && tb < t) {
        t = tb;
        kind = Surface.Wall;
      }
      const i = v * width + u;
      surface[i] = kind;
      const y = eye + d[1] * t;
      if (kind === Surface.Floor || (kind === Surface.Wall && y < lowWallTop)) staging[i] = 1;
    }
  }
  sweepObjects(room, surface, staging);
  const grown = morph({ width, height, data: staging }, Math.round(ZONE_MARGIN * Math.max(width, height)));
  const structure = new Uint8Array(width * height);
  for (let i = 0; i < structure.length; i++) structure[i] = grown.data[i] ? 0 : 1;
  return { width, height, surface, staging: grown, structure: { width, height, data: structure }, openings: openingMask(room) };
}

/** Marks, above each floor point far enough away, the pixels an object of OBJECT_HEIGHT there would cover (no higher than MAX_RISE allows). */
function sweepObjects(room: RoomModel, surface: Uint8Array, staging: Uint8Array): void {
  const cam = room.camera;
  const { width, height } = cam.p;
  for (let v = 0; v < height; v += 2) {
    for (let u = 0; u < width; u += 2) {
      if (surface[v * width + u] !== Surface.Floor) continue;
      const p = cam.floorPoint(u, v);
      if (!p || p[2] < OBJECT_MIN_DEPTH) continue;
      const top = cam.project([p[0], Math.min(OBJECT_HEIGHT, cam.p.eyeHeight + MAX_RISE * p[2]), p[2]]);
      const steps = Math.ceil(Math.hypot(top.u - u, top.v - v));
      for (let s = 0; s <= steps; s++) {
        const f = s / Math.max(1, steps);
        const x = Math.round(u + (top.u - u) * f);
        const y = Math.round(v + (top.v - v) * f);
        if (x >= 0 && y >= 0 && x < width && y < height) {
          staging[y * width + x] = 1;
          if (x + 1 < width) staging[y * width + x + 1] = 1;
        }
      }
    }
  }
}

function openingMask(room: RoomModel): Mask {
  const cam = room.camera;
  const { width, height } = cam.p;
  const data = new Uint8Array(width * height);
  const { box } = room;
  for (const o of room.openings) {
    const corner = (along: number, y: number) => {
      const p: [number, number, number] =
        o.wall === 'left' ? [box.left, y, along] : o.wall === 'right' ? [box.right, y, along] : [along, y, box.back];
      return cam.project(p);
    };
    const pts = [corner(o.from, o.bottom), corner(o.to, o.bottom), corner(o.to, o.top), corner(o.from, o.top)];
    if (pts.some((p) => p.depth <= 0.1)) continue;
    fillQuad(data, width, height, pts);
  }
  return { width, height, data };
}

/** Fills a convex quadrilateral by testing each pixel of its bounding box against its edges. */
function fillQuad(data: Uint8Array, width: number, height: number, pts: Array<{ u: number; v: number }>): void {
  const x0 = Math.max(0, Math.floor(Math.min(...pts.map((p) => p.u))));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...pts.map((p) => p.u))));
  const y0 = Math.max(0, Math.floor(Math.min(...pts.map((p) => p.v))));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...pts.map((p) => p.v))));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      let pos = 0;
      let neg = 0;
      for (let k = 0; k < 4; k++) {
        const a = pts[k]!;
        const b = pts[(k + 1) % 4]!;
        const c = (b.u - a.u) * (y - a.v) - (b.v - a.v) * (x - a.u);
        if (c >= 0) pos++;
        if (c <= 0) neg++;
      }
      if (pos === 4 || neg === 4) data[y * width + x] = 1;
    }
  }
}
