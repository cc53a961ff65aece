import { describe, expect, it } from 'vitest';
import { analyseRoom } from '../../src/staging/local/analyze.ts';
import { pieceSize } from '../../src/staging/local/furniture.ts';
import type { Placement } from '../../src/staging/local/layout.ts';
import { buildScene } from '../../src/staging/local/render.ts';
import { computeRoomShadows, ShadeGrid } from '../../src/staging/local/shadows.ts';
import { leavesThrough, sunThrough } from '../../src/staging/local/sun.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';
import { DEFAULT_SYNTHETIC, renderSyntheticRoom, syntheticCamera } from '../../src/staging/local/synthetic.ts';
import type { Vec3 } from '../../src/staging/local/vec.ts';

const ROOM = { ...DEFAULT_SYNTHETIC, window: { from: -1.2, to: 0.6, bottom: 0.5, top: 2.3 } };
const SUN: Vec3 = [Math.cos(0.5) * Math.sin(-0.5), Math.sin(0.5), Math.cos(0.5) * Math.cos(-0.5)];

/** Whether the sun reaches floor point (x, z) through the back wall's window. */
function inSun(x: number, z: number): boolean {
  const t = (ROOM.back - z) / SUN[2];
  const along = x + SUN[0] * t;
  const h = SUN[1] * t;
  return along >= ROOM.window.from && along <= ROOM.window.to && h >= ROOM.window.bottom && h <= ROOM.window.top;
}

/** The synthetic room with the window's sun patch on its floor: that floor 1.6 times brighter (sRGB). */
function sunnyRoom() {
  const img = renderSyntheticRoom(ROOM);
  const cam = syntheticCamera(ROOM);
  for (let v = 0; v < img.height; v++) {
    for (let u = 0; u < img.width; u++) {
      const p = cam.floorPoint(u + 0.5, v + 0.5);
      if (!p || p[0] < ROOM.left || p[0] > ROOM.right || p[2] > ROOM.back || !inSun(p[0], p[2])) continue;
      for (let c = 0; c < 3; c++) img.data[3 * (v * img.width + u) + c] = Math.min(255, img.data[3 * (v * img.width + u) + c]! * 1.6);
    }
  }
  return img;
}

const angle = (a: Vec3, b: Vec3) => Math.acos(Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]));

describe('the sun, from the patches it leaves on the floor', () => {
  it('is found through the window that explains the patch, within a few degrees', () => {
    const room = analyseRoom(sunnyRoom());
    expect(room.sun).not.toBeNull();
    expect(angle(room.sun!, SUN)).toBeLessThan((6 * Math.PI) / 180);
  });

  it('is not claimed for an evenly lit floor', () => {
    expect(analyseRoom(renderSyntheticRoom(ROOM)).sun).toBeNull();
  });

  it('is not claimed for daylight pooled before the window with no edge, though a sun there would explain it', () => {
    const img = renderSyntheticRoom(ROOM);
    const cam = syntheticCamera(ROOM);
    for (let v = 0; v < img.height; v++) {
      for (let u = 0; u < img.width; u++) {
        const p = cam.floorPoint(u + 0.5, v + 0.5);
        if (!p || p[0] < ROOM.left || p[0] > ROOM.right || p[2] > ROOM.back) continue;
        // Where the sun patch would be, as bright, but fading over more than a metre at its sides.
        let share = 0;
        for (let i = -4; i <= 4; i++) for (let j = -4; j <= 4; j++) share += inSun(p[0] + i * 0.15, p[2] + j * 0.15) ? 1 / 81 : 0;
        const k = 1 + 0.6 * share;
        for (let c = 0; c < 3; c++) img.data[3 * (v * img.width + u) + c] = Math.min(255, img.data[3 * (v * img.width + u) + c]! * k);
      }
    }
    expect(analyseRoom(img).sun).toBeNull();
  });

  it('leaves the sun patch dark behind a piece standing in it, and lit beside it', () => {
    // A floor light map of the sun patch alone: 2.5 times the light inside it.
    const box = { left: ROOM.left, right: ROOM.right, back: ROOM.back, ceiling: ROOM.ceiling, score: 1, fallback: false, evidence: { left: 1, right: 1, back: 1 }, nearEvidence: { left: 1, right: 1 } };
    const cell = 0.05;
    const nx = Math.ceil((box.right - box.left) / cell);
    const nz = Math.ceil(box.back / cell);
    const factor = new Float32Array(nx * nz);
    for (let iz = 0; iz < nz; iz++) for (let ix = 0; ix < nx; ix++) factor[iz * nx + ix] = inSun(box.left + (ix + 0.5) * cell, (iz + 0.5) * cell) ? 2.5 : 1;
    const light = new ShadeGrid(box.left, 0, cell, nx, nz, factor);
    // An armchair in the middle of the patch.
    const chair: Placement = { kind: 'armchair', x: 1.6, z: 4, yaw: 0, size: pieceSize('armchair', STYLE_DEFS.modern), lift: 0 };
    const scene = buildScene([chair], 'modern', STYLE_DEFS.modern, 'living_room', box.ceiling);
    const shadows = computeRoomShadows(scene.mesh, scene.casts, box, [], { x0: box.left, z0: 0.3, x1: box.right, z1: box.back }, { light, dir: SUN });
    // Its shadow falls away from the sun, 0.6 m on from its middle.
    const hor = Math.hypot(SUN[0], SUN[2]);
    const behind: [number, number] = [chair.x - (SUN[0] / hor) * 0.6, chair.z - (SUN[2] / hor) * 0.6];
    expect(inSun(...behind)).toBe(true);
    expect(shadows.floor.at(...behind)).toBeLessThan(0.55);
    // A point of the patch the chair does not shade.
    const beside: [number, number] = [chair.x - 0.7, chair.z + 0.6];
    expect(inSun(...beside)).toBe(true);
    expect(shadows.floor.at(...beside)).toBeGreaterThan(0.9);
  });

  it('fades in over the penumbra a window frame casts, not in one step', () => {
    const box = { left: ROOM.left, right: ROOM.right, back: ROOM.back, ceiling: ROOM.ceiling, score: 1, fallback: false, evidence: { left: 1, right: 1, back: 1 }, nearEvidence: { left: 1, right: 1 } };
    const window = { wall: 'back' as const, kind: 'window' as const, ...ROOM.window, daylight: true };
    // Points 0.3 m up, 2.5 m from the back wall, along the sun, whose ray meets the wall `off` metres inside the window's left edge.
    const t = 2.5 / SUN[2];
    const at = (off: number) => sunThrough(box, [window], ROOM.window.from + off - SUN[0] * t, 0.3, ROOM.back - 2.5, SUN);
    expect(at(0)).toBeCloseTo(0.5, 5);
    expect(at(0.1)).toBe(1);
    expect(at(-0.1)).toBe(0);
    // The sun's disc, half a degree, spreads the edge over about 0.0093 of the distance (3.2 m here) either way.
    expect(at(0.008)).toBeGreaterThan(0.6);
    expect(at(0.008)).toBeLessThan(0.95);
    expect(at(-0.008)).toBeGreaterThan(0.05);
    // Rising steadily through it.
    const steps = Array.from({ length: 21 }, (_, k) => at(-0.02 + k * 0.002));
    for (let k = 1; k < steps.length; k++) expect(steps[k]!).toBeGreaterThanOrEqual(steps[k - 1]!);
    expect(Math.max(...steps.slice(1).map((s, k) => s - steps[k]!))).toBeLessThan(0.2);
    // Where the ray leaves by the window, the yes-or-no test used for the floor agrees.
    expect(leavesThrough(box, [window], ROOM.window.from + 0.01 - SUN[0] * t, ROOM.back - 2.5, SUN, 0, 0.3)).toBe(true);
    expect(leavesThrough(box, [window], ROOM.window.from - 0.01 - SUN[0] * t, ROOM.back - 2.5, SUN, 0, 0.3)).toBe(false);
  });
});
