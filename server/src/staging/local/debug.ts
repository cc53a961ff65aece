import type { RoomModel, WallId } from './analyze.ts';
import type { Camera } from './camera.ts';
import type { RgbImage } from './image.ts';
import { obstacleZone } from './layout.ts';
import { directionTexel, ENV_H, ENV_W } from './light.ts';
import { wallPoint } from './roombox.ts';
import type { Vec3 } from './vec.ts';

export interface Footprint {
  /** Four floor corners (x, z) in metres. */
  corners: Array<[number, number]>;
}

type Rgb = [number, number, number];

function drawLine(img: RgbImage, x0: number, y0: number, x1: number, y1: number, color: Rgb, thick = 1): void {
  const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))) + 1;
  if (n > 20000) return;
  for (let k = 0; k <= n; k++) {
    const x = Math.round(x0 + ((x1 - x0) * k) / n);
    const y = Math.round(y0 + ((y1 - y0) * k) / n);
    for (let dy = -thick + 1; dy < thick; dy++) {
      for (let dx = -thick + 1; dx < thick; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= img.width || yy >= img.height) continue;
        const i = 3 * (yy * img.width + xx);
        img.data[i] = color[0];
        img.data[i + 1] = color[1];
        img.data[i + 2] = color[2];
      }
    }
  }
}

function drawWorld(img: RgbImage, cam: Camera, a: Vec3, b: Vec3, color: Rgb, thick: number): void {
  const steps = 24;
  let prev: { u: number; v: number } | null = null;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const p = cam.project([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]);
    const cur = p.depth > 0.2 ? { u: p.u, v: p.v } : null;
    if (prev && cur) drawLine(img, prev.u, prev.v, cur.u, cur.v, color, thick);
    prev = cur;
  }
}

/** The estimated geometry drawn over a copy of the photo (for --debug and contact sheets). */
export function drawDebug(photo: RgbImage, room: RoomModel, footprints: Footprint[]): RgbImage {
  const img: RgbImage = { width: photo.width, height: photo.height, data: photo.data.slice() };
  const cam = room.camera.scaled(photo.width, photo.height);
  const s = photo.width / room.camera.p.width;
  const thick = Math.max(1, Math.round(photo.width / 500));
  for (const seg of room.segments) {
    drawLine(img, seg.x1 * s, seg.y1 * s, seg.x2 * s, seg.y2 * s, [90, 90, 255], 1);
  }
  // Yellow horizon when measured from vanishing lines, orange when the default was assumed.
  drawLine(img, 0, cam.horizonAt(0), img.width, cam.horizonAt(img.width), room.defaultCamera ? [255, 120, 0] : [255, 230, 0], thick);
  const { left, right, back, ceiling } = room.box;
  const floorColor: Rgb = room.box.fallback ? [255, 120, 0] : [0, 255, 0];
  drawWorld(img, cam, [left, 0, 0.3], [left, 0, back], floorColor, thick);
  drawWorld(img, cam, [right, 0, 0.3], [right, 0, back], floorColor, thick);
  drawWorld(img, cam, [left, 0, back], [right, 0, back], floorColor, thick);
  drawWorld(img, cam, [left, ceiling, 0.3], [left, ceiling, back], [0, 200, 200], thick);
  drawWorld(img, cam, [right, ceiling, 0.3], [right, ceiling, back], [0, 200, 200], thick);
  drawWorld(img, cam, [left, ceiling, back], [right, ceiling, back], [0, 200, 200], thick);
  const at = (wall: WallId, along: number, y: number): Vec3 => wallPoint(room.box, wall, along, y);
  for (const o of room.openings) {
    const c: Rgb = o.kind === 'window' ? [0, 180, 255] : [255, 0, 200];
    drawWorld(img, cam, at(o.wall, o.from, o.bottom), at(o.wall, o.to, o.bottom), c, thick);
    drawWorld(img, cam, at(o.wall, o.from, o.top), at(o.wall, o.to, o.top), c, thick);
    drawWorld(img, cam, at(o.wall, o.from, o.bottom), at(o.wall, o.from, o.top), c, thick);
    drawWorld(img, cam, at(o.wall, o.to, o.bottom), at(o.wall, o.to, o.top), c, thick);
  }
  // Counters in orange: the worktop's front edge and the cabinets' foot.
  for (const k of room.counters) {
    for (const y of [0, k.height]) drawWorld(img, cam, wallPoint(room.box, k.wall, k.from, y, k.front), wallPoint(room.box, k.wall, k.to, y, k.front), [255, 150, 0], thick + 1);
    for (const a of [k.from, k.to]) drawWorld(img, cam, wallPoint(room.box, k.wall, a, 0, k.front), wallPoint(room.box, k.wall, a, k.height, k.front), [255, 150, 0], thick);
  }
  // Obstacles in violet: the footprint, and an island's worktop edge over its near side.
  for (const o of room.obstacles) {
    const c: Rgb = [170, 80, 255];
    const fp = obstacleZone(o);
    fp.forEach(([x, z], k) => {
      const [x2, z2] = fp[(k + 1) % 4]!;
      drawWorld(img, cam, [x, 0, z], [x2, 0, z2], c, thick + 1);
    });
    if (o.worktop !== null) {
      drawWorld(img, cam, [o.left, o.worktop, o.near], [o.right, o.worktop, o.near], c, thick + 1);
      for (const x of [o.left, o.right]) drawWorld(img, cam, [x, 0, o.near], [x, o.worktop, o.near], c, thick);
    }
  }
  for (const wall of room.walls) {
    for (const [a, b] of wall.blocked) drawWorld(img, cam, at(wall.id, a, 0.05), at(wall.id, b, 0.05), [255, 0, 0], thick + 1);
  }
  for (const f of footprints) {
    for (let k = 0; k < f.corners.length; k++) {
      const p = f.corners[k]!;
      const q = f.corners[(k + 1) % f.corners.length]!;
      drawWorld(img, cam, [p[0], 0, p[1]], [q[0], 0, q[1]], [255, 255, 255], thick);
    }
  }
  drawSun(img, cam, room, thick);
  drawLight(img, room);
  return img;
}

/**
 * A sun that comes through a window out of frame, in yellow: from the middle of its patches on
 * the floor, the way back to it up to 1.5 m high, which shows its bearing and its guessed elevation.
 */
function drawSun(img: RgbImage, cam: Camera, room: RoomModel, thick: number): void {
  const patches = room.sun?.patches;
  if (!room.sun || !patches) return;
  let x = 0;
  let z = 0;
  let n = 0;
  for (let iv = 0; iv < patches.nv; iv++) {
    for (let iu = 0; iu < patches.nu; iu++) {
      if (patches.factor[iv * patches.nu + iu]! === 1) continue;
      x += patches.u0 + (iu + 0.5) * patches.cell;
      z += patches.v0 + (iv + 0.5) * patches.cell;
      n++;
    }
  }
  if (!n) return;
  const d = room.sun.dir;
  const t = 1.5 / d[1];
  drawWorld(img, cam, [x / n, 0, z / n], [x / n + d[0] * t, 1.5, z / n + d[2] * t], [255, 230, 0], thick + 1);
}

/**
 * The light estimate in the top-left corner: the room's radiance as a latitude-longitude map
 * (straight up at the top, into the room in the middle, behind the camera at both ends),
 * tone-mapped so the boosted openings stay readable; daylight texels outlined in cyan, the key
 * direction as a red cross and the sun's as a yellow one.
 */
function drawLight(img: RgbImage, room: RoomModel): void {
  const { env, daylight, key } = room.radiance;
  const cell = Math.max(2, Math.round(img.width / 4 / ENV_W));
  let peak = 0;
  for (const v of env) peak = Math.max(peak, v);
  const tone = (v: number) => Math.round(255 * Math.sqrt((v * 1.25) / (v + 0.25 * peak)));
  for (let j = 0; j < ENV_H; j++) {
    for (let i = 0; i < ENV_W; i++) {
      const t = j * ENV_W + i;
      for (let y = 0; y < cell; y++) {
        for (let x = 0; x < cell; x++) {
          const edge = daylight[t] && (x === 0 || y === 0);
          const o = 3 * ((j * cell + y) * img.width + i * cell + x);
          for (let c = 0; c < 3; c++) img.data[o + c] = edge ? (c === 0 ? 0 : 255) : Math.min(255, tone(env[t * 3 + c]!));
        }
      }
    }
  }
  // The sun as a yellow cross, the key direction as a red one.
  const cross = (dir: Vec3, color: Rgb) => {
    const t = directionTexel(dir);
    const u = ((t % ENV_W) + 0.5) * cell;
    const v = (Math.floor(t / ENV_W) + 0.5) * cell;
    drawLine(img, u - 2 * cell, v, u + 2 * cell, v, color, Math.max(1, cell >> 1));
    drawLine(img, u, v - 2 * cell, u, v + 2 * cell, color, Math.max(1, cell >> 1));
  };
  if (room.sun) cross(room.sun.dir, [255, 230, 0]);
  if (key) cross(key, [255, 0, 0]);
}
