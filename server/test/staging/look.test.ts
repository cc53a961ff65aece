import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseRoom, ANALYSIS_LONG_SIDE } from '../../src/staging/local/analyze.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { evalSh, mirrorLight, reflectedLight, type RoomRadiance } from '../../src/staging/local/light.ts';
import { daylightFalloff, estimateLighting } from '../../src/staging/local/render.ts';
import type { RoomBox } from '../../src/staging/local/roombox.ts';
import { openingLights } from '../../src/staging/local/shadows.ts';
import { normalize, type Vec3 } from '../../src/staging/local/vec.ts';

async function room(name: string) {
  const photo = await decodeImage(readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url))));
  const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
  return analyseRoom(await resizeRgb(photo, a.width, a.height));
}

/** Radiance of a white matte surface facing `n`, daylight and the rest together. */
function lit(r: RoomRadiance, n: Vec3): Vec3 {
  const a: Vec3 = [0, 0, 0];
  const d: Vec3 = [0, 0, 0];
  evalSh(r.ambient, n[0], n[1], n[2], a);
  evalSh(r.sun, n[0], n[1], n[2], d);
  return [a[0] + d[0], a[1] + d[1], a[2] + d[2]];
}
const lum = (c: Vec3) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];

describe("the furniture's light is the photo's own", () => {
  it('takes its colour from the room: warm under the warm light of the portrait room, neutral in the white open-plan room', async () => {
    const tint = (r: Awaited<ReturnType<typeof room>>) => {
      const l = estimateLighting(r).level;
      return l[0] / l[2];
    };
    expect(tint(await room('empty-living-portrait.jpg'))).toBeGreaterThan(1.4);
    expect(Math.abs(tint(await room('empty-open-plan-living-dining.jpg')) - 1)).toBeLessThan(0.1);
  });

  it('comes from the balcony door in the portrait room: the side facing it is bright, the other falls off', async () => {
    const r = (await room('empty-living-portrait.jpg')).radiance;
    // The door is in the back wall, straight ahead of the camera.
    expect(r.key).not.toBeNull();
    expect(r.key![2]).toBeGreaterThan(0.8);
    expect(lum(lit(r, [0, 0, 1]))).toBeGreaterThan(2 * lum(lit(r, [0, 0, -1])));
    // The door is far brighter than its clipped pixels show, and the floor is not a light.
    expect(r.gain).toBeGreaterThan(2);
    const down: Vec3 = [0, 0, 0];
    evalSh(r.sun, 0, -1, 0, down);
    expect(lum(down)).toBeLessThan(0.05);
  });

  it("lights what faces the camera from walls as dim as the seen ones' trend makes them: the portrait room's walls dim towards the camera, and on behind it", async () => {
    const r = await room('empty-living-portrait.jpg');
    const behind: Vec3 = [0, 0, 0];
    reflectedLight(r.radiance, [0, 0, -1], 'polished', behind);
    // Taken as the seen walls' mean, the wall behind the camera was as bright as the walls beside the balcony door.
    expect(lum(behind)).toBeLessThan(0.6 * lum(estimateLighting(r).wall));
    expect(lum(behind)).toBeGreaterThan(0.3 * lum(estimateLighting(r).wall));
  });

  it('is balanced: a white surface facing a wall is about as bright as that wall would be in white paint', async () => {
    for (const name of ['empty-living-portrait.jpg', 'empty-open-plan-living-dining.jpg', 'empty-hall-arched-windows.jpg']) {
      const r = await room(name);
      const sides: Vec3[] = [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]];
      const mean = sides.reduce((a, n) => a + lum(lit(r.radiance, n)), 0) / sides.length;
      const walls = r.walls.reduce((a, w) => a + lum(estimateLighting({ ...r, walls: [w] }).wall), 0) / r.walls.length;
      // Walls in near-white paint reflect about three quarters of the light.
      expect(mean * 0.75).toBeGreaterThan(walls * 0.6);
      expect(mean * 0.75).toBeLessThan(walls * 1.8);
    }
  });

  it('takes the light the photo does not show as coming from above: a seat is lit more than the front facing the camera', async () => {
    // The open-plan room's small window cannot light its white walls as the photo shows them:
    // the rest comes from lamps out of frame. Spread over every side, it lit a sofa's front about
    // as much as its seat (1.3 times).
    const r = (await room('empty-open-plan-living-dining.jpg')).radiance;
    expect(r.overhead).toBeGreaterThan(1.5);
    expect(lum(lit(r, [0, 1, 0]))).toBeGreaterThan(1.7 * lum(lit(r, [0, 0, -1])));
    // Where the openings light the room, there is nothing to add.
    expect((await room('empty-living-portrait.jpg')).radiance.overhead).toBe(1);
  });
});

describe('what a mirror-like surface reflects', () => {
  it("is the photo's own room, as sharp as the photo: the balcony door's frames show between its panes", async () => {
    const r = await room('empty-living-portrait.jpg');
    const { box } = r;
    // From a glass top in the middle of the floor, rays across the back wall 1.2 m up.
    const o: Vec3 = [(box.left + box.right) / 2, 0.45, 2.5];
    const mirror: number[] = [];
    const curved: number[] = [];
    const blurred: number[] = [];
    const out: Vec3 = [0, 0, 0];
    for (let k = 0; k <= 40; k++) {
      const d = normalize([box.left + ((box.right - box.left) * k) / 40 - o[0], 1.2 - o[1], box.back - o[2]]);
      mirrorLight(r.radiance, r.camera, box, r.openings, o, d, out);
      mirror.push(lum(out));
      mirrorLight(r.radiance, r.camera, box, r.openings, o, d, out, true);
      curved.push(lum(out));
      reflectedLight(r.radiance, d, 'polished', out);
      blurred.push(lum(out));
    }
    // A frame between two panes: a sample far darker than both its neighbours.
    const frames = (p: number[]) => p.filter((v, k) => k > 0 && k < p.length - 1 && v < 0.2 * Math.min(p[k - 1]!, p[k + 1]!)).length;
    expect(frames(mirror)).toBeGreaterThanOrEqual(2);
    expect(frames(blurred)).toBe(0);
    // A curved mirror (a brass tube) takes the photo blurred over some 7 px: the frames blur into
    // the panes, which would otherwise glitter along it as dots, and the door still shines.
    expect(frames(curved)).toBe(0);
    expect(Math.max(...curved)).toBeGreaterThan(0.5 * r.radiance.gain);
    // The panes at the light's level (the door's gain over its pixels), the wall at the room's.
    expect(Math.max(...mirror)).toBeGreaterThan(0.8 * r.radiance.gain);
    expect(Math.min(...mirror)).toBeLessThan(0.5);
    // Towards the camera, where the photo shows nothing, the map stands in.
    const back = normalize([0.1, 0.3, -1]);
    const a: Vec3 = [0, 0, 0];
    mirrorLight(r.radiance, r.camera, box, r.openings, o, back, a);
    reflectedLight(r.radiance, back, 'polished', out);
    expect(a).toEqual(out);
  });
});

describe('daylight across a piece', () => {
  const box: RoomBox = { left: -2.5, right: 2.5, back: 6, ceiling: 2.6, score: 1, fallback: false, evidence: { left: 1, right: 1, back: 1 }, nearEvidence: { left: 1, right: 1 } };
  const window = { wall: 'left' as const, kind: 'window' as const, from: 2.4, to: 3.6, bottom: 0.8, top: 2.1, daylight: true };

  it('falls off away from the window, bounded, and is even where no window is seen', () => {
    const falloff = daylightFalloff(openingLights(box, [window]), box);
    // A sofa's two ends, 2 m apart, at seat height in front of the window.
    const near = falloff(-1.6, 0.45, 3);
    const far = falloff(0.4, 0.45, 3);
    expect(near).toBeGreaterThan(1.2);
    expect(far).toBeLessThan(near * 0.75);
    expect(falloff(-2.45, 1.4, 3)).toBeLessThanOrEqual(1.8);
    expect(falloff(2.4, 0.45, 0.5)).toBeGreaterThanOrEqual(0.55);
    expect(daylightFalloff(openingLights(box, []), box)(-1.6, 0.45, 3)).toBe(1);
  });
});
