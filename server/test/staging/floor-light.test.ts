import { describe, expect, it } from 'vitest';
import { analyseRoom, toPlanes } from '../../src/staging/local/analyze.ts';
import { estimateFloorLight } from '../../src/staging/local/floor-light.ts';
import { SRGB_TO_LINEAR } from '../../src/staging/local/image.ts';
import { DEFAULT_SYNTHETIC, renderSyntheticRoom, syntheticCamera } from '../../src/staging/local/synthetic.ts';
import type { Vec3 } from '../../src/staging/local/vec.ts';

/** The default synthetic room (640 px wide, as analysed) with a patch of sunlight painted on its floor around (x, z). */
function sunlitRoom(x: number, z: number) {
  const img = renderSyntheticRoom(DEFAULT_SYNTHETIC);
  const cam = syntheticCamera(DEFAULT_SYNTHETIC);
  // A 40 cm square of floor twice as bright, as sun through a window leaves it.
  const corners = [cam.project([x - 0.2, 0, z - 0.2]), cam.project([x + 0.2, 0, z + 0.2])];
  const u0 = Math.round(Math.min(corners[0]!.u, corners[1]!.u));
  const u1 = Math.round(Math.max(corners[0]!.u, corners[1]!.u));
  const v0 = Math.round(Math.min(corners[0]!.v, corners[1]!.v));
  const v1 = Math.round(Math.max(corners[0]!.v, corners[1]!.v));
  for (let v = v0; v <= v1; v++) {
    for (let u = u0; u <= u1; u++) {
      for (let c = 0; c < 3; c++) img.data[3 * (v * img.width + u) + c] = Math.min(255, img.data[3 * (v * img.width + u) + c]! * 1.45);
    }
  }
  return img;
}

/**
 * The floor light of the default synthetic room with each floor pixel's channels set by `paint`
 * (the floor point, the channel's value), read with the room's own camera and box: a painted
 * floor would also feed the camera estimate, which these tests are not about.
 */
function floorLightOf(paint: (p: Vec3, value: number) => number) {
  const img = renderSyntheticRoom(DEFAULT_SYNTHETIC);
  const cam = syntheticCamera(DEFAULT_SYNTHETIC);
  for (let v = 0; v < img.height; v++) {
    for (let u = 0; u < img.width; u++) {
      const p = cam.floorPoint(u, v);
      if (!p || p[2] > DEFAULT_SYNTHETIC.back) continue;
      for (let c = 0; c < 3; c++) img.data[3 * (v * img.width + u) + c] = paint(p, img.data[3 * (v * img.width + u) + c]!);
    }
  }
  const { left, right, back, ceiling } = DEFAULT_SYNTHETIC;
  const box = { left, right, back, ceiling, score: 1, fallback: false, evidence: { left: 1, right: 1, back: 1 }, nearEvidence: { left: 1, right: 1 } };
  return estimateFloorLight(cam, box, toPlanes(img, 1.2).color, [], 0)!;
}

describe('the light on the floor, read off the photo', () => {
  it('finds a sun patch where the photo shows one and the even floor elsewhere', () => {
    const room = analyseRoom(sunlitRoom(0.3, 3.5));
    const light = room.floorLight!;
    expect(light).not.toBeNull();
    // 1.45 times brighter in sRGB is about twice the light.
    expect(light.at(0.3, 3.5)).toBeGreaterThan(1.6);
    expect(light.at(-0.8, 3.5)).toBeGreaterThan(0.85);
    expect(light.at(-0.8, 3.5)).toBeLessThan(1.15);
    expect(light.at(0.3, 2.2)).toBeLessThan(1.15);
  });

  it('takes a clipped sun patch as brighter than its pixels: the camera cut it off at white', () => {
    // A light floor (sRGB 190, half of white's light) with a 40 cm square at white around (0.3, 3.5).
    const light = floorLightOf(([x, , z]) => (Math.abs(x - 0.3) < 0.2 && Math.abs(z - 3.5) < 0.2 ? 255 : 190));
    // What the pixels alone say: white over the floor's level.
    const shown = 1 / SRGB_TO_LINEAR[190]!;
    expect(light.at(0.3, 3.5)).toBeGreaterThan(1.6 * shown);
    expect(light.at(-0.8, 3.5)).toBeCloseTo(1, 1);
  });

  it('leaves out the floor\'s own pattern: tile grout lines do not print onto a rug as light', () => {
    // Dark grout 1 cm wide between 40 cm tiles, laid diagonally as on the portrait fixture's floor.
    const light = floorLightOf(([x, , z], v) => {
      const a = (x + z) / Math.SQRT2 / 0.4;
      const b = (x - z) / Math.SQRT2 / 0.4;
      const grout = Math.min(Math.abs(a - Math.round(a)), Math.abs(b - Math.round(b))) * 0.4 < 0.005;
      return grout ? Math.round(v * 0.35) : v;
    });
    const samples: number[] = [];
    for (let x = -1; x <= 1; x += 0.05) for (let z = 2; z <= 4; z += 0.05) samples.push(light.at(x, z));
    expect(Math.max(...samples) - Math.min(...samples)).toBeLessThan(0.12);
  });

  it('is even on an evenly lit floor', () => {
    const room = analyseRoom(renderSyntheticRoom(DEFAULT_SYNTHETIC));
    const f = room.floorLight!.factor;
    const seen = Array.from(f).filter((v) => v !== 1);
    expect(seen.length).toBeGreaterThan(100);
    for (const v of seen) expect(Math.abs(v - 1)).toBeLessThan(0.2);
  });

  it('does not take the windows mirrored in a glossy floor for light on it', () => {
    const img = renderSyntheticRoom(DEFAULT_SYNTHETIC);
    const cam = syntheticCamera(DEFAULT_SYNTHETIC);
    const win = DEFAULT_SYNTHETIC.window!;
    // The window's mirror image: each of its points reflected in the floor plane.
    for (let x = win.from; x <= win.to; x += 0.005) {
      for (let h = win.bottom; h <= win.top; h += 0.005) {
        const q = cam.project([x, -h, DEFAULT_SYNTHETIC.back]);
        const i = 3 * (Math.round(q.v) * img.width + Math.round(q.u));
        for (let c = 0; c < 3; c++) img.data[i + c] = Math.round(img.data[i + c]! * 0.4 + 250 * 0.6);
      }
    }
    const room = analyseRoom(img);
    expect(room.floorGloss).toBeGreaterThan(0.05);
    // The floor point whose reflection shows the window's middle: on the camera's line to its mirror image.
    const mid = cam.project([(win.from + win.to) / 2, -(win.bottom + win.top) / 2, DEFAULT_SYNTHETIC.back]);
    const p = cam.floorPoint(mid.u, mid.v)!;
    expect(room.floorLight!.at(p[0], p[2])).toBeLessThan(1.15);
  });
});
