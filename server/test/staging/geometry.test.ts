import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { analyseRoom, ANALYSIS_LONG_SIDE, type Opening, type RoomModel } from '../../src/staging/local/analyze.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { Camera } from '../../src/staging/local/camera.ts';
import { detectSegments, gradient, blurPlane, lightBandEdge, type Plane, type Segment } from '../../src/staging/local/lines.ts';
import { footprint, layoutRoom, openingZone, polygonsOverlap, violation } from '../../src/staging/local/layout.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';
import { DEFAULT_SYNTHETIC, renderSyntheticRoom, syntheticCamera, type SyntheticRoom } from '../../src/staging/local/synthetic.ts';
import { depthVanishingPoints } from '../../src/staging/local/vanishing.ts';
import { ROOM_TYPES, STYLES } from '@roomstager/contracts';

/** A part of a photo, as fractions of its width and height. */
type Part = { left: number; top: number; width: number; height: number };

/** Dark lines on white converging at (vx, vy), drawn anti-aliased. */
function convergingLines(w: number, h: number, vx: number, vy: number): Plane {
  const data = new Float32Array(w * h).fill(1);
  const starts: Array<[number, number]> = [
    [0, h - 1],
    [w * 0.25, h - 1],
    [w * 0.75, h - 1],
    [w - 1, h - 1],
    [0, 0],
    [w - 1, 0],
    [0, h * 0.8],
    [w - 1, h * 0.75],
  ];
  for (const [sx, sy] of starts) {
    const n = Math.ceil(Math.hypot(vx - sx, vy - sy));
    for (let k = 0; k < n * 0.85; k++) {
      const x = sx + ((vx - sx) * k) / n;
      const y = sy + ((vy - sy) * k) / n;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const px = Math.round(x) + dx;
          const py = Math.round(y) + dy;
          if (px < 0 || py < 0 || px >= w || py >= h) continue;
          const d = Math.hypot(px - x, py - y);
          data[py * w + px] = Math.min(data[py * w + px] ?? 1, Math.min(1, d / 1.5));
        }
      }
    }
  }
  return { width: w, height: h, data };
}

describe('vanishing point and horizon', () => {
  it('finds the vanishing point of synthetic converging lines within 1% of the image size', () => {
    const plane = blurPlane(convergingLines(640, 480, 350, 210), 1);
    const segments = detectSegments(plane, gradient(plane), { threshold: 0.008, minLength: 19 });
    const vp = depthVanishingPoints(segments, 640, 480)[0];
    expect(vp).toBeDefined();
    expect(Math.abs(vp!.x - 350)).toBeLessThan(6.4);
    expect(Math.abs(vp!.y - 210)).toBeLessThan(6.4);
  });

  it("tells the edges of a band of light on the floor from a wall's foot and from a seam between boards", () => {
    const [w, h] = [640, 480];
    // Floor at 0.35; the line y = 0.4 x + c along which each case has its edge.
    const plane = (value: (x: number, y: number) => number): Plane => {
      const data = new Float32Array(w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = value(x, y);
      return blurPlane({ width: w, height: h, data }, 1);
    };
    const along = (c: number): Segment => {
      const [x1, x2] = [100, 500];
      const [y1, y2] = [0.4 * x1 + c, 0.4 * x2 + c];
      return { x1, y1, x2, y2, length: Math.hypot(x2 - x1, y2 - y1), angle: Math.atan2(y2 - y1, x2 - x1) };
    };
    const above = (x: number, y: number, c: number) => y < 0.4 * x + c;
    // A sun stripe 40 px wide: bright between its two edges, the floor on both sides.
    const stripe = plane((x, y) => (above(x, y, 200) && !above(x, y, 160) ? 0.9 : 0.35));
    expect(lightBandEdge(stripe, along(200))).toBe(true);
    expect(lightBandEdge(stripe, along(160))).toBe(true);
    // A wall: bright from its foot up out of the photo.
    const wall = plane((x, y) => (above(x, y, 200) ? 0.9 : 0.35));
    expect(lightBandEdge(wall, along(200))).toBe(false);
    // A dark seam 3 px wide between boards: the same floor either side.
    const seam = plane((x, y) => (Math.abs(y - 0.4 * x - 200) < 1.5 ? 0.1 : 0.35));
    expect(lightBandEdge(seam, along(198.5))).toBe(false);
    expect(lightBandEdge(seam, along(201.5))).toBe(false);
  });

  it.each([
    ['frontal', { yaw: 0.0, horizon: 0.45 }],
    ['turned right, low horizon', { yaw: 0.12, horizon: 0.52 }],
    ['turned left', { yaw: -0.1, horizon: 0.42 }],
    ['wide room, turned 17 degrees', { left: -4, right: 4.5, back: 10, yaw: 0.3 }],
    ['narrow room, high horizon', { left: -1.2, right: 1.3, back: 3.5, yaw: -0.2, horizon: 0.55 }],
    ['white on white', { floorColor: [0.86, 0.85, 0.83] as [number, number, number], wallColor: [0.9, 0.89, 0.87] as [number, number, number] }],
    // Trees through the glass, darker than the wall: found by its frame, not by its light.
    ['a window showing a garden', { window: { ...DEFAULT_SYNTHETIC.window!, view: 'trees' as const } }],
  ])('recovers the camera and the room box of a synthetic room (%s)', (_name, over) => {
    const truth: SyntheticRoom = { ...DEFAULT_SYNTHETIC, ...over };
    const room = analyseRoom(renderSyntheticRoom(truth));
    const cam = room.camera.p;
    // Horizon within 1.5% of the height, yaw within 2 degrees, level.
    expect(Math.abs(room.camera.horizonAt(cam.cx) - truth.horizon * truth.height)).toBeLessThan(0.015 * truth.height);
    expect(Math.abs(cam.yaw - truth.yaw)).toBeLessThan((2 * Math.PI) / 180);
    expect(cam.pitch).toBe(0);
    expect(cam.roll).toBe(0);
    // Room box within 10% or 20 cm, whichever is larger (the focal length is the default one
    // here, as in the truth).
    expect(room.box.fallback).toBe(false);
    const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(Math.max(0.2, 0.1 * Math.abs(want)));
    near(room.box.left, truth.left);
    near(room.box.right, truth.right);
    near(room.box.back, truth.back);
    // The window is found on the back wall, within 20 cm.
    const win = room.openings.find((o) => o.wall === 'back');
    expect(win).toBeDefined();
    expect(Math.abs(win!.from - truth.window!.from)).toBeLessThan(0.2);
    expect(Math.abs(win!.to - truth.window!.to)).toBeLessThan(0.2);
  });
});

describe('camera height', () => {
  /** Analysed as the engine does: at its working size. */
  const analyse = async (truth: SyntheticRoom) => {
    const img = renderSyntheticRoom(truth);
    const size = fitSize(img.width, img.height, ANALYSIS_LONG_SIDE);
    return analyseRoom(await resizeRgb(img, size.width, size.height));
  };

  it.each([1.0, 1.2, 1.7])('is measured by a doorway: camera %s m above the floor', async (eye) => {
    const truth: SyntheticRoom = { ...DEFAULT_SYNTHETIC, eyeHeight: eye, door: { from: 4.3, to: 5.2 } };
    const room = await analyse(truth);
    // The door's casing rises 7 cm above its 2.03 m head, so the measure reads a little low.
    expect(Math.abs(room.camera.p.eyeHeight - eye)).toBeLessThan(0.08);
    const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(Math.max(0.2, 0.1 * Math.abs(want)));
    near(room.box.left, truth.left);
    near(room.box.right, truth.right);
    near(room.box.back, truth.back);
    near(room.box.ceiling, truth.ceiling);
    const door = room.openings.find((o) => o.wall === 'right' && o.kind === 'door');
    expect(door).toBeDefined();
    near(door!.from, 4.3);
    near(door!.to, 5.2);
  });

  it('stays at the assumed 1.5 m where no doorway measures it', async () => {
    expect((await analyse({ ...DEFAULT_SYNTHETIC, eyeHeight: 1.2 })).camera.p.eyeHeight).toBe(1.5);
  });

  it('is lowered by a ceiling seen past the search where no doorway measures it, only as far as puts the ceiling at 3.6 m', async () => {
    // 0.9 m up under 3 m: at the assumed 1.5 m the ceiling would be 5 m up.
    const room = await analyse({ ...DEFAULT_SYNTHETIC, eyeHeight: 0.9, ceiling: 3 });
    expect(room.camera.p.eyeHeight).toBeGreaterThan(1.0);
    expect(room.camera.p.eyeHeight).toBeLessThan(1.15);
    expect(Math.abs(room.box.ceiling - 3.6)).toBeLessThan(0.15);
  });
});

const DEG = Math.PI / 180;

describe('camera pitch and roll', () => {
  it.each([
    ['looking down 8 degrees', { horizon: 0.5, pitch: -8 * DEG }],
    ['looking up 6 degrees, turned left', { horizon: 0.5, pitch: 6 * DEG, yaw: -0.1 }],
    ['rolled 3 degrees, looking down 4', { horizon: 0.5, pitch: -4 * DEG, roll: 3 * DEG }],
    ['rolled 3 degrees, level', { horizon: 0.5, roll: 3 * DEG }],
    ['looking up 6, rolled -2, short focal', { horizon: 0.5, pitch: 6 * DEG, roll: -2 * DEG, yaw: -0.05, focal: 0.45 }],
  ])('recovers a tilted camera and the room box (%s)', (_name, over) => {
    const truth: SyntheticRoom = { ...DEFAULT_SYNTHETIC, ...over };
    const room = analyseRoom(renderSyntheticRoom(truth));
    const cam = room.camera;
    const want = syntheticCamera(truth);
    expect(Math.abs(cam.p.pitch - (truth.pitch ?? 0))).toBeLessThan(1.5 * DEG);
    expect(Math.abs(cam.p.roll - (truth.roll ?? 0))).toBeLessThan(1 * DEG);
    expect(Math.abs(cam.horizonAt(cam.p.cx) - want.horizonAt(want.p.cx))).toBeLessThan(0.015 * truth.height);
    expect(Math.abs(cam.p.yaw - truth.yaw)).toBeLessThan(2 * DEG);
    expect(Math.abs(cam.p.focal - want.p.focal) / want.p.focal).toBeLessThan(0.1);
    expect(room.box.fallback).toBe(false);
    const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(Math.max(0.2, 0.1 * Math.abs(want)));
    near(room.box.left, truth.left);
    near(room.box.right, truth.right);
    near(room.box.back, truth.back);
  });

  it('measures the focal from the vertical and depth vanishing points when no lateral one is usable', () => {
    // Nearly frontal, so the back wall's lines meet far off the image: the default focal (0.62 of
    // the long side) would be 38% off.
    const truth: SyntheticRoom = { ...DEFAULT_SYNTHETIC, horizon: 0.5, pitch: -8 * DEG, roll: 1 * DEG, yaw: 0.05, focal: 0.45 };
    const room = analyseRoom(renderSyntheticRoom(truth));
    const want = syntheticCamera(truth);
    expect(Math.abs(room.camera.p.focal - want.p.focal) / want.p.focal).toBeLessThan(0.1);
    expect(Math.abs(room.camera.p.pitch - truth.pitch!)).toBeLessThan(1.5 * DEG);
    expect(Math.abs(room.box.back - truth.back)).toBeLessThan(0.1 * truth.back);
  });
});

describe('room analysis on real photos', () => {
  // Hand-checked against the photos (debug overlays): regressions in the fit show up here. Boxes
  // as seen from the assumed eye height of 1.5 m; the open-plan room's bathroom door measures
  // its camera lower (its head 2.05 m up puts the eye near 1.2 m; the front door on the back
  // wall agrees), and the box scales with it.
  it.each([
    ['empty-open-plan-living-dining.jpg', { left: -2.1, right: 2.1, back: 9.2, horizon: 0.43, eye: 1.2 }],
    ['empty-living-portrait.jpg', { left: -2.3, right: 0.5, back: 4.5, horizon: 0.43, eye: 1.5 }],
  ])('%s: horizon, camera height and room box', async (name, truth) => {
    const bytes = readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url)));
    const photo = await decodeImage(bytes);
    const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    const room = analyseRoom(await resizeRgb(photo, size.width, size.height));
    const cam = room.camera;
    expect(Math.abs(cam.horizonAt(cam.p.cx) / cam.p.height - truth.horizon)).toBeLessThan(0.03);
    expect(Math.abs(cam.p.eyeHeight - truth.eye)).toBeLessThan(0.1);
    const k = cam.p.eyeHeight / 1.5;
    expect(Math.abs(room.box.left - k * truth.left)).toBeLessThan(0.4 * k);
    expect(Math.abs(room.box.right - k * truth.right)).toBeLessThan(0.4 * k);
    expect(Math.abs(room.box.back - k * truth.back) / (k * truth.back)).toBeLessThan(0.2);
    expect(room.box.fallback).toBe(false);
  });

  it('measures the camera of the Pruna room low by its doorway and finds its window showing trees', async () => {
    const bytes = readFileSync(fileURLToPath(new URL('../fixtures/generative/empty-room-pruna-before.jpg', import.meta.url)));
    const photo = await decodeImage(bytes);
    const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    const room = analyseRoom(await resizeRgb(photo, size.width, size.height));
    // Hand-measured on the photo: the doorway's head 2.05 m up and the horizon put the camera
    // at 0.9-1.0 m; the window's sill is just below the horizon.
    expect(room.camera.p.eyeHeight).toBeGreaterThan(0.85);
    expect(room.camera.p.eyeHeight).toBeLessThan(1.05);
    const window = room.openings.find((o) => o.kind === 'window');
    expect(window).toMatchObject({ wall: 'back', daylight: true });
    expect(window!.bottom).toBeGreaterThan(0.6);
    expect(window!.bottom).toBeLessThan(room.camera.p.eyeHeight);
    expect(window!.to - window!.from).toBeGreaterThan(1.2);
    expect(room.openings.filter((o) => o.kind === 'door')).toHaveLength(1);
  });

  it('measures the camera of the Pruna room lower than assumed by its ceiling when cropped to its left 65 %, which loses the doorway', async () => {
    const room = await analysed('generative/empty-room-pruna-before.jpg', { crop: { left: 0, top: 0.1, width: 0.65, height: 0.8 } });
    // At the assumed 1.5 m its ceiling is 4.75 m up, and its sash window's meeting rail stood in
    // for it within the search. Lowered to put that ceiling at 3.6 m, the camera is 1.13 m up
    // (0.92 m measured by the doorway in the whole photo): nearer, not there.
    expect(room.camera.p.eyeHeight).toBeGreaterThan(1.0);
    expect(room.camera.p.eyeHeight).toBeLessThan(1.25);
    expect(room.openings.some((o) => o.kind === 'window' && o.wall === 'back')).toBe(true);
  });

  it.each([
    ['its middle 80 %', { left: 0.1, top: 0.1, width: 0.8, height: 0.8 }],
    ['its right 75 %', { left: 0.25, top: 0, width: 0.75, height: 1 }],
  ])('measures the camera of the Pruna room by its doorway when cropped to %s, whose ceiling the assumed height puts out of reach', async (_, crop) => {
    const room = await analysed('generative/empty-room-pruna-before.jpg', { crop });
    // At the assumed 1.5 m its ceiling (3.1 m at the measured 0.9) would be 5 m up, past the
    // ceiling search, which took a weaker line lower down instead. Scaled by the doorway, that
    // stand-in came to 1.5 m and the doorway's measure was thrown out: the furniture was drawn
    // at two thirds of its size.
    expect(room.camera.p.eyeHeight).toBeGreaterThan(0.85);
    expect(room.camera.p.eyeHeight).toBeLessThan(1.05);
    expect(room.box.ceiling).toBeGreaterThan(2.2);
    expect(room.box.ceiling).toBeLessThan(3.6);
  });

  /**
   * A fixture photo as an upload would bring it: re-saved as a JPEG, optionally cropped to a part
   * (fractions of its size), mirrored, scaled to `width` or with its contrast scaled about the
   * mean or its exposure scaled, and analysed as the engine does.
   */
  async function analysed(path: string, edit: { mirror?: boolean; width?: number; contrast?: number; exposure?: number; crop?: Part } = {}) {
    const bytes = readFileSync(fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url)));
    let image = sharp(bytes);
    if (edit.crop) {
      const { width, height } = await sharp(bytes).metadata();
      const c = edit.crop;
      image = image.extract({ left: Math.round(width! * c.left), top: Math.round(height! * c.top), width: Math.round(width! * c.width), height: Math.round(height! * c.height) });
    }
    if (edit.mirror) image = image.flop();
    if (edit.width) image = image.resize(edit.width);
    const photo = await decodeImage(await image.jpeg({ quality: 92 }).toBuffer());
    const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    const img = await resizeRgb(photo, size.width, size.height);
    const k = edit.contrast;
    if (k !== undefined) {
      const mean = img.data.reduce((a, v) => a + v, 0) / img.data.length;
      img.data.forEach((v, i) => (img.data[i] = Math.round(mean + k * (v - mean))));
    }
    const e = edit.exposure;
    if (e !== undefined) img.data.forEach((v, i) => (img.data[i] = Math.round(e * v)));
    return analyseRoom(img);
  }

  it.each([
    ['rooms/empty-open-plan-living-dining.jpg', true],
    ['rooms/empty-hall-arched-windows.jpg', true],
    ['generative/empty-room-pruna-before.jpg', true],
    // Its balcony door is half curtained: where the glass ends is a matter of bins.
    ['rooms/empty-living-portrait.jpg', false],
  ])('%s re-saved, mirrored, and mirrored at 1200 px: one room, one camera height, the same openings', async (path, openings) => {
    const room = await analysed(path);
    // The open-plan room's open bathroom door read as a window in the re-saved photo, and hid
    // the doorway that measures its camera 30 cm lower.
    expect(room.camera.p.eyeHeight).toBeCloseTo((await analysed(path, { width: 1600 })).camera.p.eyeHeight, 1);
    for (const width of [undefined, 1200]) {
      const mirrored = await analysed(path, { mirror: true, width });
      expect(Math.abs(mirrored.camera.p.yaw + room.camera.p.yaw)).toBeLessThan(1 * DEG);
      expect(Math.abs(mirrored.camera.p.eyeHeight - room.camera.p.eyeHeight)).toBeLessThan(0.05);
      const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(Math.max(0.25, 0.06 * Math.abs(want)));
      near(mirrored.box.left, -room.box.right);
      near(mirrored.box.right, -room.box.left);
      near(mirrored.box.back, room.box.back);
      if (!openings) continue;
      const other = { left: 'right', right: 'left', back: 'back' } as const;
      const flip = (o: Opening) => ({ wall: other[o.wall], kind: o.kind, from: o.wall === 'back' ? -o.to : o.from, to: o.wall === 'back' ? -o.from : o.to });
      const order = (a: { wall: string; from: number }, b: { wall: string; from: number }) => a.wall.localeCompare(b.wall) || a.from - b.from;
      const want = room.openings.map(flip).sort(order);
      const got = mirrored.openings.map((o) => ({ wall: o.wall, kind: o.kind, from: o.from, to: o.to })).sort(order);
      // The hall's arched window, split by its mullion, was one opening in the mirror and two here.
      expect(got.map((o) => [o.wall, o.kind])).toEqual(want.map((o) => [o.wall, o.kind]));
      // Within three of the 10 cm bins the walls are read in.
      got.forEach((o, i) => {
        expect(Math.abs(o.from - want[i]!.from)).toBeLessThan(0.3);
        expect(Math.abs(o.to - want[i]!.to)).toBeLessThan(0.3);
      });
    }
  });

  it.each([
    ['rooms/empty-hall-arched-windows.jpg', 2],
    ['generative/empty-room-pruna-before.jpg', 1],
  ])('finds the windows of %s underexposed to 0.6, where its windows are grey: the brightest of the photo', async (path, count) => {
    const room = await analysed(path);
    const dark = await analysed(path, { exposure: 0.6 });
    const windows = (r: RoomModel) => r.openings.filter((o) => o.kind === 'window').sort((a, b) => a.wall.localeCompare(b.wall));
    // Found by their brightness alone were windows at 0.85 of white and more: at 0.6 the hall's
    // arched windows were missed, and its sofa stood before one under a picture hung across it.
    expect(windows(room)).toHaveLength(count);
    expect(windows(dark).map((o) => o.wall)).toEqual(windows(room).map((o) => o.wall));
    windows(dark).forEach((o, i) => {
      const want = windows(room)[i]!;
      expect(Math.abs(o.to - o.from - (want.to - want.from)), `${o.wall}`).toBeLessThan(0.3);
      expect(Math.abs(o.bottom - want.bottom), `${o.wall}`).toBeLessThan(0.25);
    });
  });

  it('keeps the camera of a washed-out photo whose diagonal tiles rival the walls for the depth lines', async () => {
    const room = await analysed('rooms/empty-living-portrait.jpg');
    const washed = await analysed('rooms/empty-living-portrait.jpg', { contrast: 0.5 });
    // The tiles' grout alone turned the camera 44 degrees the wrong way, and no room box fitted.
    expect(Math.abs(washed.camera.p.yaw - room.camera.p.yaw)).toBeLessThan(1 * DEG);
    expect(washed.box.fallback).toBe(false);
    const shape = (b: { left: number; right: number; back: number }) => b.back / (b.right - b.left);
    expect(Math.abs(shape(washed.box) / shape(room.box) - 1)).toBeLessThan(0.1);
  });

  it('finds the camera and the room of a white room washed out to a third of its contrast', async () => {
    const room = await analysed('rooms/empty-open-plan-living-dining.jpg');
    const washed = await analysed('rooms/empty-open-plan-living-dining.jpg', { contrast: 0.3 });
    // Too few of its edges passed the line detector: the camera turned 8 degrees and the back
    // wall went to 13.7 m. The photo stretched gives them back.
    expect(Math.abs(washed.camera.p.yaw - room.camera.p.yaw)).toBeLessThan(1 * DEG);
    expect(washed.box.fallback).toBe(false);
    const k = washed.camera.p.eyeHeight / room.camera.p.eyeHeight;
    expect(Math.abs(washed.box.back / (k * room.box.back) - 1)).toBeLessThan(0.1);
    expect(Math.abs(washed.box.right - washed.box.left) / (k * (room.box.right - room.box.left)) - 1).toBeLessThan(0.1);
  });

  /** The photo (under fixtures/) turned by `degrees` (clockwise) and its centre 85% kept, analysed as the engine does. */
  async function turned(path: string, degrees: number) {
    const bytes = readFileSync(fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url)));
    const { width, height } = await sharp(bytes).metadata();
    const rotated = await sharp(bytes).rotate(degrees, { background: '#808080' }).toBuffer();
    const r = await sharp(rotated).metadata();
    const w = Math.round(width! * 0.85);
    const h = Math.round(height! * 0.85);
    const crop = await sharp(rotated)
      .extract({ left: Math.round((r.width! - w) / 2), top: Math.round((r.height! - h) / 2), width: w, height: h })
      .jpeg({ quality: 92 })
      .toBuffer();
    const photo = await decodeImage(crop);
    const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    return analyseRoom(await resizeRgb(photo, size.width, size.height));
  }

  it.each([
    ['empty-open-plan-living-dining.jpg', 3],
    ['empty-open-plan-living-dining.jpg', -4],
    ['empty-living-portrait.jpg', 3],
    ['empty-living-portrait.jpg', -4],
  ])('%s turned by %i degrees: the roll follows the turn, pitch and focal stay', async (name, degrees) => {
    const DEG = Math.PI / 180;
    const level = (await turned(`rooms/${name}`, 0)).camera.p;
    const tilted = (await turned(`rooms/${name}`, degrees)).camera.p;
    // A clockwise turn of the picture is a counter-clockwise roll of the camera (positive).
    expect(Math.abs(tilted.roll - level.roll - degrees * DEG)).toBeLessThan(0.5 * DEG);
    expect(Math.abs(tilted.pitch - level.pitch)).toBeLessThan(0.5 * DEG);
    expect(Math.abs(tilted.focal / level.focal - 1)).toBeLessThan(0.05);
  });

  it.each([-4, -2.5, -1, 1, 2.5])('the Pruna room, a corner shot, turned by %f degrees: the doorway still measures the camera, and the walls meet near where the photo shows them', async (degrees) => {
    const { box, camera } = await turned('generative/empty-room-pruna-before.jpg', degrees);
    // Seen across its corner, the camera turns about 42 degrees. Held to 34, the room's lines met
    // nowhere: turned by -1 or 1 degree the doorway was lost and the room fitted twice its size at
    // the assumed 1.5 m; turned by -4, -2.5 or 2.5 the box put the corner of the walls near the
    // doorway, 70-80 px right of where it is (of 640), and the furniture followed that floor.
    expect(camera.p.eyeHeight).toBeGreaterThan(0.85);
    expect(camera.p.eyeHeight).toBeLessThan(1.05);
    const corner = camera.project([box.right, 0, box.back]);
    // Hand-measured in the photo's centre 85%: the skirting boards meet 43.5% across, 64.5% down.
    // The back wall's distance still wavers by a step or two of the box's grid (4.5-5.8 m), which
    // moves the corner by up to 0.08 of the width.
    expect(Math.abs(corner.u / camera.p.width - 0.435)).toBeLessThan(0.09);
    expect(Math.abs(corner.v / camera.p.height - 0.645)).toBeLessThan(0.03);
  });

  it.each([0, -2])('the portrait room turned by %f degrees and cropped to its centre keeps its back wall, 4.5 m away, not 30', async (degrees) => {
    const { box, camera } = await turned('rooms/empty-living-portrait.jpg', degrees);
    // Past the back wall the side walls' floor lines run on over its image and cross the balcony
    // door's frames: they gathered as much contrast (42.8) as the back wall's own floor line
    // (42.7), and the box ran to the grid's far end. A deeper wall now costs a little.
    expect(camera.p.eyeHeight).toBeCloseTo(1.5, 5);
    expect(Math.abs(box.back / 4.5 - 1)).toBeLessThan(0.15);
  });

  it("takes the hall cropped to its centre by the room's lines, not by its sun patches' edges: those fit no ceiling", async () => {
    const { box, camera } = await turned('rooms/empty-hall-arched-windows.jpg', 0);
    // The edges of the sun patches on its floor outvote the room's own lines for the depth
    // vanishing point, and a box on them fitted the floor's lines as well as the room's own box:
    // the back wall went to 30 m. Only the room's own box explains its ceiling's lines too.
    // Where the whole photo's box puts the back wall's right corner (50.8% across, 62.3% down),
    // in its centre 85%. (The room is no box: its right wall turns at about 65% across, and the
    // whole photo's box too is a compromise, but the same one.)
    const corner = camera.project([box.right, 0, box.back]);
    expect(Math.abs(corner.u / camera.p.width - (0.508 - 0.075) / 0.85)).toBeLessThan(0.08);
    expect(Math.abs(corner.v / camera.p.height - (0.623 - 0.075) / 0.85)).toBeLessThan(0.03);
    expect(box.back).toBeLessThan(12);
  });

  it("takes the hall turned by 2 degrees and cropped off its centre by the room's depth lines, not by its sun stripes", async () => {
    const bytes = readFileSync(fileURLToPath(new URL('../fixtures/rooms/empty-hall-arched-windows.jpg', import.meta.url)));
    const { width, height } = await sharp(bytes).metadata();
    const analysed = async (photo: Buffer) => {
      const img = await decodeImage(photo);
      const size = fitSize(img.width, img.height, ANALYSIS_LONG_SIDE);
      return analyseRoom(await resizeRgb(img, size.width, size.height));
    };
    const whole = await analysed(bytes);
    const rotated = await sharp(bytes).rotate(2, { background: '#000000' }).toBuffer();
    const crop = { left: Math.round(width! * 0.08), top: Math.round(height! * 0.08), width: Math.round(width! * 0.84), height: Math.round(height! * 0.84) };
    const room = await analysed(await sharp(rotated).extract(crop).jpeg({ quality: 90 }).toBuffer());
    // The sun stripes' edges on its floor pointed at a vanishing point of their own, with more
    // support than the room's; a camera turned 10 degrees further to them fitted a box too
    // small for anything but a plant and a side table.
    expect(Math.abs(room.camera.p.yaw - whole.camera.p.yaw)).toBeLessThan((4 * Math.PI) / 180);
    expect(layoutRoom(room, 'living_room', STYLE_DEFS.modern).map((p) => p.kind)).toEqual(expect.arrayContaining(['sofa', 'coffeeTable']));
  });

  it('keeps a camera whose focal it could not measure within 34 degrees of the room: the hall turned by 2 degrees still takes a sofa', async () => {
    const room = await turned('rooms/empty-hall-arched-windows.jpg', 2);
    // Its glossy floor's reflections outvote the walls for the depth vanishing point, and no
    // lateral one measures the focal. Turned as far as that point says, 44 degrees, the camera
    // fitted a room too small for anything but a plant and a side table.
    expect(Math.abs(room.camera.p.yaw)).toBeLessThanOrEqual(0.6);
    expect(layoutRoom(room, 'living_room', STYLE_DEFS.modern).map((p) => p.kind)).toContain('sofa');
  });
});

/** Floor points projected and back-projected land where they started. */
function expectFloorRoundTrip(cam: Camera): void {
  for (const p of [
    [0.5, 0, 3],
    [-1.7, 0, 5.5],
    [2.2, 0, 2.4],
  ] as Array<[number, number, number]>) {
    const q = cam.project(p);
    const back = cam.floorPoint(q.u, q.v);
    expect(back).not.toBeNull();
    expect(back![0]).toBeCloseTo(p[0], 6);
    expect(back![2]).toBeCloseTo(p[2], 6);
  }
}

describe('camera', () => {
  const cam = new Camera({ width: 1200, height: 800, focal: 700, cx: 600, cy: 370, yaw: 0.2, pitch: 0, roll: 0, eyeHeight: 1.5 });

  it('projects floor points and back-projects them to the same place', () => {
    expectFloorRoundTrip(cam);
  });

  it('round-trips wall points and keeps scale with distance', () => {
    const p: [number, number, number] = [-2, 1.2, 4];
    const q = cam.project(p);
    const w = cam.planeXPoint(q.u, q.v, -2);
    expect(w![1]).toBeCloseTo(1.2, 6);
    expect(w![2]).toBeCloseTo(4, 6);
    // A 1 m post looks half as tall at twice the depth.
    const h = (z: number) => cam.project([0, 0, z]).v - cam.project([0, 1, z]).v;
    expect(h(3) / h(6)).toBeCloseTo(cam.toCamera([0, 0, 6])[2] / cam.toCamera([0, 0, 3])[2], 6);
  });

  it('puts the depth vanishing point where the yaw says', () => {
    const far = cam.project([0, 0, 1e7]);
    expect(far.u).toBeCloseTo(cam.vanishingPoint([0, 0, 1])!.u, 2);
    expect(far.u).toBeCloseTo(600 - 700 * Math.tan(0.2), 2);
    expect(far.v).toBeCloseTo(370, 2);
    const scaled = cam.scaled(600, 400);
    expect(scaled.project([0.3, 0.4, 3]).u).toBeCloseTo(cam.project([0.3, 0.4, 3]).u / 2, 6);
  });
});

describe('tilted camera', () => {
  const cam = new Camera({ width: 1200, height: 800, focal: 700, cx: 600, cy: 400, yaw: 0.2, pitch: -0.14, roll: 0.05, eyeHeight: 1.5 });

  it('round-trips floor, side wall and back wall points', () => {
    expectFloorRoundTrip(cam);
    const q = cam.project([-2, 1.2, 4]);
    const w = cam.planeXPoint(q.u, q.v, -2);
    expect(w![1]).toBeCloseTo(1.2, 6);
    expect(w![2]).toBeCloseTo(4, 6);
    const r = cam.project([0.7, 2.1, 5]);
    const b = cam.planeZPoint(r.u, r.v, 5);
    expect(b![0]).toBeCloseTo(0.7, 6);
    expect(b![1]).toBeCloseTo(2.1, 6);
    // Nothing on the floor above the horizon.
    expect(cam.floorPoint(300, cam.horizonAt(300) - 1)).toBeNull();
  });

  it('projects world verticals onto lines through the vertical vanishing point', () => {
    const vp = cam.vanishingPoint([0, 1, 0])!;
    // Looking down: verticals meet below the image, a little to the side of the roll.
    expect(vp.v).toBeGreaterThan(800);
    for (const [x, z] of [
      [-2, 3],
      [1.5, 6],
      [3, 4],
    ]) {
      const a = cam.project([x!, 0, z!]);
      const b = cam.project([x!, 2.5, z!]);
      const cross = (b.u - a.u) * (vp.v - a.v) - (b.v - a.v) * (vp.u - a.u);
      expect(Math.abs(cross) / Math.hypot(b.u - a.u, b.v - a.v) / Math.hypot(vp.u - a.u, vp.v - a.v)).toBeLessThan(1e-9);
    }
  });

  it('puts far horizontal points on the slanted horizon and keeps angles when scaled', () => {
    for (const a of [-0.4, 0, 0.3, 0.6]) {
      const q = cam.project([1e7 * Math.sin(a), 1.5, 1e7 * Math.cos(a)]);
      expect(q.v).toBeCloseTo(cam.horizonAt(q.u), 3);
    }
    expect(cam.horizonAt(1200)).toBeGreaterThan(cam.horizonAt(0));
    const half = cam.scaled(600, 400);
    expect(half.project([0.3, 0.4, 3]).u).toBeCloseTo(cam.project([0.3, 0.4, 3]).u / 2, 6);
    expect(half.project([0.3, 0.4, 3]).v).toBeCloseTo(cam.project([0.3, 0.4, 3]).v / 2, 6);
    const d = cam.rayDir(250, 610);
    const p = cam.project([d[0] * 4, 1.5 + d[1] * 4, d[2] * 4]);
    expect(p.u).toBeCloseTo(250, 6);
    expect(p.v).toBeCloseTo(610, 6);
  });
});

describe('layout', () => {
  const cases: SyntheticRoom[] = [
    DEFAULT_SYNTHETIC,
    { ...DEFAULT_SYNTHETIC, left: -1.6, right: 1.6, back: 4.2, yaw: -0.05 },
    { ...DEFAULT_SYNTHETIC, left: -3.5, right: 3.2, back: 9, window: { from: 1.2, to: 2.6, bottom: 0.1, top: 2.2 } },
  ];
  for (const [i, truth] of cases.entries()) {
    const room = analyseRoom(renderSyntheticRoom(truth));
    for (const roomType of ROOM_TYPES) {
      for (const style of STYLES) {
        it(`room ${i}, ${roomType}, ${style}: inside the floor, clear of openings and of each other`, () => {
          const placed = layoutRoom(room, roomType, STYLE_DEFS[style]);
          expect(placed.length).toBeGreaterThan(0);
          const floorPieces = placed.filter((p) => p.kind !== 'rug' && p.kind !== 'art' && p.kind !== 'pendant');
          expect(floorPieces.length).toBeGreaterThan(0);
          for (const [k, p] of placed.entries()) {
            // Each piece satisfies every rule against the pieces placed before it.
            expect(violation(room, p, placed.slice(0, k))).toBeNull();
            if (p.kind === 'art') continue;
            for (const [x, z] of footprint(p)) {
              expect(x).toBeGreaterThanOrEqual(room.box.left);
              expect(x).toBeLessThanOrEqual(room.box.right);
              expect(z).toBeLessThanOrEqual(room.box.back);
            }
          }
          for (const p of floorPieces) {
            for (const o of room.openings) {
              if (o.kind === 'door' || p.size.h > o.bottom) expect(polygonsOverlap(footprint(p), openingZone(room, o))).toBe(false);
            }
            for (const q of floorPieces) {
              // Chairs tuck under their table; nothing else may touch.
              const chairAtTable = /chair/i.test(p.kind + q.kind) && /table|desk/i.test(p.kind + q.kind);
              if (q !== p && !chairAtTable) expect(polygonsOverlap(footprint(p), footprint(q))).toBe(false);
            }
          }
        });
      }
    }
  }

  it('has its own furniture for each room type', () => {
    const room = analyseRoom(renderSyntheticRoom(DEFAULT_SYNTHETIC));
    const anchors = { living_room: 'sofa', bedroom: 'bed', dining_room: 'diningTable', kitchen: 'roundTable', office: 'desk' };
    for (const roomType of ROOM_TYPES) {
      const kinds = layoutRoom(room, roomType, STYLE_DEFS.modern).map((p) => p.kind);
      expect(kinds).toContain(anchors[roomType]);
    }
    // A dining room gets a sideboard, except in the minimalist style (fewer pieces).
    expect(layoutRoom(room, 'dining_room', STYLE_DEFS.modern).map((p) => p.kind)).toContain('sideboard');
    expect(layoutRoom(room, 'dining_room', STYLE_DEFS.minimalist).map((p) => p.kind)).not.toContain('sideboard');
  });

  it('is the same for the same photo at another resolution', () => {
    const a = analyseRoom(renderSyntheticRoom(DEFAULT_SYNTHETIC));
    const cam = syntheticCamera(DEFAULT_SYNTHETIC);
    expect(a.camera.horizonAt(a.camera.p.cx) / a.camera.p.height).toBeCloseTo(cam.horizonAt(cam.p.cx) / cam.p.height, 1);
  });
});
