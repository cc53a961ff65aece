import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { analyseRoom, ANALYSIS_LONG_SIDE, reviveRoom } from '../../src/staging/local/analyze.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { pieceSize } from '../../src/staging/local/furniture.ts';
import type { Placement } from '../../src/staging/local/layout.ts';
import { buildScene, estimateLighting, sunCut, sunShadow } from '../../src/staging/local/render.ts';
import { ShadeGrid } from '../../src/staging/local/shadows.ts';
import { leavesThrough, litThreshold, sunByPatches, SUNLIT, sunThrough } from '../../src/staging/local/sun.ts';
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

/** The synthetic room's box, and a floor light map on 5 cm cells of it taking `factor` at each cell's middle (x, z). */
function floorLight(factor: (x: number, z: number) => number) {
  const box = { left: ROOM.left, right: ROOM.right, back: ROOM.back, ceiling: ROOM.ceiling };
  const cell = 0.05;
  const nx = Math.ceil((box.right - box.left) / cell);
  const nz = Math.ceil(box.back / cell);
  const values = new Float32Array(nx * nz);
  for (let iz = 0; iz < nz; iz++) for (let ix = 0; ix < nx; ix++) values[iz * nx + ix] = factor(box.left + (ix + 0.5) * cell, (iz + 0.5) * cell);
  return { box, light: new ShadeGrid(box.left, 0, cell, nx, nz, values) };
}

/** A synthetic room with its floor (sRGB) multiplied by `gain` at each floor point (x, z). */
function brightenFloor(room: typeof ROOM, gain: (x: number, z: number) => number) {
  const img = renderSyntheticRoom(room);
  const cam = syntheticCamera(room);
  for (let v = 0; v < img.height; v++) {
    for (let u = 0; u < img.width; u++) {
      const p = cam.floorPoint(u + 0.5, v + 0.5);
      if (!p || p[0] < room.left || p[0] > room.right || p[2] > room.back) continue;
      const k = gain(p[0], p[2]);
      for (let c = 0; c < 3; c++) img.data[3 * (v * img.width + u) + c] = Math.min(255, img.data[3 * (v * img.width + u) + c]! * k);
    }
  }
  return img;
}

/** The synthetic room with the window's sun patch on its floor: that floor 1.6 times brighter (sRGB). */
const sunnyRoom = () => brightenFloor(ROOM, (x, z) => (inSun(x, z) ? 1.6 : 1));

/**
 * A sun behind the camera and to its right, low, through a window in the wall a metre behind
 * it that the photo cannot show: two panes either side of a bar, so two bands on the floor.
 */
const BEHIND: Vec3 = [Math.cos(0.35) * Math.sin(2.8), Math.sin(0.35), Math.cos(0.35) * Math.cos(2.8)];
const PANES: Array<[number, number]> = [
  [-0.2, 0.5],
  [0.62, 1.3],
];

/** Whether the sun behind the camera reaches floor point (x, z) through one of the panes. */
function inSunBehind(x: number, z: number): boolean {
  const t = (-1 - z) / BEHIND[2];
  const along = x + BEHIND[0] * t;
  const h = BEHIND[1] * t;
  return h >= 0.6 && h <= 2.1 && PANES.some(([a, b]) => along >= a && along <= b);
}

/**
 * The synthetic room with the bands of that sun on its floor, 1.6 times brighter (sRGB), and a
 * pale square of floor that is no sun. Its own window is at the back wall's right end, where no
 * sun through it could fall on the bands.
 */
function bandedRoom() {
  const room = { ...ROOM, window: { from: 1.5, to: 2.4, bottom: 0.9, top: 2.2 } };
  const pale = (x: number, z: number) => x > 1.15 && x < 1.65 && z > 4.75 && z < 5.25;
  return brightenFloor(room, (x, z) => (inSunBehind(x, z) || pale(x, z) ? 1.6 : 1));
}

const angle = (a: Vec3, b: Vec3) => Math.acos(Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]));

describe('the sun, from the patches it leaves on the floor', () => {
  it('is found through the window that explains the patch, within a few degrees', () => {
    const room = analyseRoom(sunnyRoom());
    expect(room.sun).not.toBeNull();
    expect(room.sun!.patches).toBeNull();
    expect(angle(room.sun!.dir, SUN)).toBeLessThan((6 * Math.PI) / 180);
  });

  it('is found behind the camera from the bands its window leaves, with only those bands as its patches', () => {
    const room = analyseRoom(bandedRoom());
    expect(room.sun).not.toBeNull();
    const { dir, patches } = room.sun!;
    expect(patches).not.toBeNull();
    // The bearing from the bands' edges; the elevation is a guess the photo cannot check, above 25 degrees.
    const bearing = (d: Vec3) => Math.atan2(d[0], d[2]);
    const off = Math.abs(((bearing(dir) - bearing(BEHIND) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
    expect(off).toBeLessThan((4 * Math.PI) / 180);
    expect(dir[1]).toBeGreaterThanOrEqual(Math.sin((25 * Math.PI) / 180) - 1e-9);
    // Lit in its patches (floor at a band's middle), and not on the pale floor that is no band.
    const band = [3.2, 4].map((z) => [...Array(80).keys()].map((k) => -2 + k * 0.05).find((x) => inSunBehind(x, z) && inSunBehind(x + 0.15, z) && inSunBehind(x - 0.15, z))!);
    expect(patches!.at(band[0]!, 3.2)).toBeGreaterThan(SUNLIT);
    expect(patches!.at(band[1]!, 4)).toBeGreaterThan(SUNLIT);
    expect(room.floorLight!.at(1.4, 5)).toBeGreaterThan(SUNLIT);
    expect(patches!.at(1.4, 5)).toBe(1);
    // A seat 0.45 m above the floor is in the sun where its ray, on away from the sun, lands in a band.
    const t = 0.45 / dir[1];
    const seat = (x: number, z: number) => sunByPatches(patches!, x + dir[0] * t, 0.45, z + dir[2] * t, dir);
    expect(seat(band[1]!, 4)).toBe(1);
    expect(seat(1.4, 5)).toBe(0);
  });

  it('is not claimed for an evenly lit floor', () => {
    expect(analyseRoom(renderSyntheticRoom(ROOM)).sun).toBeNull();
  });

  it('is not claimed for daylight pooled before the window with no edge, though a sun there would explain it', () => {
    // Where the sun patch would be, as bright, but fading over more than a metre at its sides.
    const img = brightenFloor(ROOM, (x, z) => {
      let share = 0;
      for (let i = -4; i <= 4; i++) for (let j = -4; j <= 4; j++) share += inSun(x + i * 0.15, z + j * 0.15) ? 1 / 81 : 0;
      return 1 + 0.6 * share;
    });
    expect(analyseRoom(img).sun).toBeNull();
  });

  it('leaves the sun patch dark behind a piece standing in it, lit beside it, with a sharp edge between', () => {
    // A floor light map of the sun patch alone: 2.5 times the light inside it.
    const { box, light } = floorLight((x, z) => (inSun(x, z) ? 2.5 : 1));
    // An armchair in the middle of the patch.
    const chair: Placement = { kind: 'armchair', x: 1.6, z: 4, yaw: 0, size: pieceSize('armchair', STYLE_DEFS.modern), lift: 0 };
    const scene = buildScene([chair], 'modern', STYLE_DEFS.modern, 'living_room', box.ceiling);
    const sun = sunShadow({ dir: SUN, white: [1, 1, 1], windows: null, floor: light, sunlit: SUNLIT }, scene);
    const cut = (x: number, z: number) => sunCut(sun, x, 0, z);
    // Its shadow falls away from the sun, 0.6 m on from its middle: the patch keeps the floor's light round it.
    const hor = Math.hypot(SUN[0], SUN[2]);
    const [ax, az] = [SUN[0] / hor, SUN[2] / hor];
    const behind: [number, number] = [chair.x - ax * 0.6, chair.z - az * 0.6];
    expect(inSun(...behind)).toBe(true);
    expect(cut(...behind)).toBeCloseTo(1 / 2.5, 2);
    // A point of the patch the chair does not shade.
    const beside: [number, number] = [chair.x - 0.7, chair.z + 0.6];
    expect(inSun(...beside)).toBe(true);
    expect(cut(...beside)).toBe(1);
    // Across the shadow's side, square to the sun's bearing, the light falls from nearly all to the
    // shade within 4 cm, as the sun's small disc draws it: read off the floor's grid it spread over half a metre.
    const across = (s: number) => cut(behind[0] + az * s, behind[1] - ax * s);
    const steps = Array.from({ length: 300 }, (_, k) => k * 0.005);
    const lit = steps.find((s) => across(s) > 0.95)!;
    const shade = steps.filter((s) => s < lit && across(s) < 0.45).at(-1)!;
    expect(lit - shade).toBeLessThan(0.04);
    // The other way the same.
    const lit2 = steps.find((s) => across(-s) > 0.95)!;
    const shade2 = steps.filter((s) => s < lit2 && across(-s) < 0.45).at(-1)!;
    expect(lit2 - shade2).toBeLessThan(0.04);
    // Nothing is cut outside the patch.
    expect(cut(chair.x - ax * 0.6, 1)).toBe(1);
  });

  it("casts no sun shadow on floor bright beside the window without sun: the patch is the photo's brightest floor, not all floor brighter than most", () => {
    // The window's glow, 1.8 times the room's light over the floor's near half, and the sun's
    // patch within it 3.5 times.
    const { box, light } = floorLight((x, z) => (inSun(x, z) ? 3.5 : z > 2 ? 1.8 : 1));
    const sunlit = litThreshold(light.factor);
    expect(sunlit).toBeGreaterThan(1.8);
    expect(sunlit).toBeLessThan(3.5);
    const hor = Math.hypot(SUN[0], SUN[2]);
    const [ax, az] = [SUN[0] / hor, SUN[2] / hor];
    const shadowOf = (x: number, z: number, threshold: number) => {
      const chair: Placement = { kind: 'armchair', x, z, yaw: 0, size: pieceSize('armchair', STYLE_DEFS.modern), lift: 0 };
      const scene = buildScene([chair], 'modern', STYLE_DEFS.modern, 'living_room', box.ceiling);
      const sun = sunShadow({ dir: SUN, white: [1, 1, 1], windows: null, floor: light, sunlit: threshold }, scene);
      const behind: [number, number] = [x - ax * 0.6, z - az * 0.6];
      return { inSun: inSun(...behind), cut: sunCut(sun, behind[0], 0, behind[1]) };
    };
    // A chair on the glow beside the patch: its shadow's line lies on glowing floor.
    const beside = shadowOf(2.3, 4, sunlit);
    expect(beside.inSun).toBe(false);
    expect(beside.cut).toBe(1);
    // Counting every floor brighter than SUNLIT as sun, it was cut to the light round the patch.
    expect(shadowOf(2.3, 4, SUNLIT).cut).toBeLessThan(0.6);
    // A chair in the patch still leaves its shadow in it.
    const within = shadowOf(1.6, 4, sunlit);
    expect(within.inSun).toBe(true);
    expect(within.cut).toBeCloseTo(1 / 3.5, 2);
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

  it("is not claimed for a glossy floor's sheen of a bright curtain by the window, and still is for a sun patch on a glossy floor", async () => {
    const analysed = async (path: string) => {
      const photo = await decodeImage(readFileSync(fileURLToPath(new URL(path, import.meta.url))));
      const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
      return analyseRoom(await resizeRgb(photo, size.width, size.height));
    };
    // An overcast day: the tiles before the balcony door mirror its lit curtain, blurred, beside the glass found as its opening.
    const overcast = await analysed('../fixtures/rooms/empty-living-portrait.jpg');
    expect(overcast.floorGloss).toBeGreaterThan(0.05);
    expect(overcast.sun).toBeNull();
    expect(Math.max(...overcast.floorLight!.factor)).toBeLessThan(SUNLIT);
    // The sun through the window of a room with a satin oak floor is still found.
    const sunny = await analysed('../fixtures/generative/empty-room-pruna-before.jpg');
    expect(sunny.floorGloss).toBeGreaterThan(0.05);
    expect(sunny.sun).not.toBeNull();
  });

  it.each([false, true])('comes from behind the camera in the hall (mirrored: %s), through its stripes only', async (mirror) => {
    // The hall's stripes of sun fall from a window behind the camera: none of its own explains them.
    const bytes = readFileSync(fileURLToPath(new URL('../fixtures/rooms/empty-hall-arched-windows.jpg', import.meta.url)));
    const photo = await decodeImage(mirror ? await sharp(bytes).flop().jpeg({ quality: 92 }).toBuffer() : bytes);
    // At the size the pipeline analyses.
    const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    const room = analyseRoom(await resizeRgb(photo, size.width, size.height));
    expect(room.sun?.patches).toBeTruthy();
    const { dir, patches } = room.sun!;
    // The stripes run about 17 degrees off the camera's axis, towards its right (left, mirrored).
    const bearing = (Math.atan2(dir[0], dir[2]) * 180) / Math.PI;
    expect(Math.abs(bearing)).toBeGreaterThan(155);
    expect(Math.abs(bearing)).toBeLessThan(172);
    expect(Math.sign(bearing)).toBe(mirror ? -1 : 1);
    // Mirrored, the room is mirrored about the camera.
    const x = (at: number) => (mirror ? -at : at);
    // A stripe, and the pillar's pale foot beside the frame's edge, taken for bright floor, which is no stripe.
    expect(patches!.at(x(1.9), 4)).toBeGreaterThan(SUNLIT);
    expect(room.floorLight!.at(x(1), 6)).toBeGreaterThan(SUNLIT);
    expect(patches!.at(x(1), 6)).toBe(1);
    // The furniture is lit through the stripes, not through the windows the photo shows.
    const { sun } = estimateLighting(room);
    expect(sun?.windows).toBeNull();
    expect(sun?.floor).toBe(patches);
    // And on the helper thread, which gets the room as a structured clone.
    const revived = reviveRoom(structuredClone(room)).sun!;
    expect(revived.patches!.at(x(1.9), 4)).toBe(patches!.at(x(1.9), 4));
    expect(revived.dir).toEqual(dir);
  });
});
