import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, encodeJpeg, type RgbImage } from '../../src/staging/local/image.ts';
import { stageDetailed } from '../../src/staging/local/index.ts';
import { lockAnswer, type LockResult } from '../../src/staging/lock/index.ts';
import { apply3, mat3, rgbPlanes, sample, warpPlane, type Mat3 } from '../../src/staging/lock/planes.ts';

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url)));

/** The fixture room's window on the left wall, in its 1344x768 pixels. */
const WINDOW = { left: 182, top: 125, width: 263, height: 278 };

let room: RgbImage;
/** The local engine's staging of the room: furniture only, pixel-aligned. */
let staged: RgbImage;

async function fromSharp(s: Sharp): Promise<RgbImage> {
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}
const pipe = (img: RgbImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
function invert3(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, k] = Array.from(m) as [number, number, number, number, number, number, number, number, number];
  const det = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g);
  return mat3([e * k - f * h, c * h - b * k, b * f - c * e, f * g - d * k, a * k - c * g, c * d - a * f, d * h - e * g, b * g - a * h, a * e - b * d].map((v) => v / det));
}

/** A copy of `img` with `box` filled with the colour at `from` (an answer that painted something over with wall). */
function paintBox(img: RgbImage, box: { left: number; top: number; width: number; height: number }, from: [number, number]): RgbImage {
  const data = new Uint8Array(img.data);
  const at = 3 * (from[1] * img.width + from[0]);
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) for (let c = 0; c < 3; c++) data[3 * (y * img.width + x) + c] = img.data[at + c]!;
  }
  return { ...img, data };
}
/** A white sofa in front of the right-hand wall, as bright as the window's glass, to overlay on the room. */
const whiteSofa = () =>
  Buffer.from(
    `<svg width="${room.width}" height="${room.height}" xmlns="http://www.w3.org/2000/svg"><rect x="560" y="400" width="80" height="150" rx="12" fill="#fbfbf8"/><rect x="560" y="470" width="380" height="80" rx="12" fill="#fbfbf8"/></svg>`,
  );
/** A provider's answer is a JPEG. */
const asAnswer = async (img: RgbImage) => decodeImage(await encodeJpeg(img));

beforeAll(async () => {
  // The minimalist staging: its group stands against the doorway's wall and, with its shadows,
  // changes under the floor-change limit even once zoomed. The modern and traditional styles float
  // a larger group before the window, closed by a chair in the foreground: nearer the floor
  // measure's limit, the more so once an answer is zoomed and resampled.
  const bytes = fixture('generative/empty-room-pruna-before.jpg');
  room = await decodeImage(bytes);
  staged = await asAnswer((await stageDetailed(bytes, 'minimalist', 'living_room', new AbortController().signal)).image);
}, 30_000);

/** Largest distance (answer pixels) between where the registration and the truth put five points of the original. */
function registrationError(result: LockResult, original: RgbImage, answer: RgbImage, truth: (x: number, y: number) => [number, number]): number {
  const { registration, change } = result.analysis;
  const so = change.width / original.width;
  const sa = answer.width / registration.answerSize.width;
  let worst = 0;
  for (const [fx, fy] of [[0.1, 0.1], [0.9, 0.1], [0.5, 0.5], [0.1, 0.9], [0.9, 0.9]] as const) {
    const x = fx * original.width;
    const y = fy * original.height;
    const [u, v] = apply3(registration.h, (x + 0.5) * so - 0.5, (y + 0.5) * so - 0.5);
    const [tu, tv] = truth(x, y);
    worst = Math.max(worst, Math.hypot((u + 0.5) * sa - 0.5 - tu, (v + 0.5) * sa - 0.5 - tv));
  }
  return worst;
}

/**
 * The composite against the original where the lock keeps the original (nothing added, no shadow)
 * and against the answer where it keeps the answer; the composite goes through JPEG first.
 */
async function compositeDiffs(result: LockResult, original: RgbImage, answer: RgbImage) {
  const composite = await decodeImage(await encodeJpeg(result.composite!));
  expect([composite.width, composite.height]).toEqual([original.width, original.height]);
  const { added, change } = result.analysis;
  const s = change.width / original.width;
  let keptN = 0;
  let keptSum = 0;
  let keptLarge = 0;
  let addedN = 0;
  let addedSum = 0;
  for (let y = 0; y < original.height; y++) {
    for (let x = 0; x < original.width; x++) {
      const wx = Math.min(change.width - 1, (x + 0.5) * s - 0.5);
      const wy = Math.min(change.height - 1, (y + 0.5) * s - 0.5);
      const a = sample(added, Math.max(0, wx), Math.max(0, wy));
      const d = sample(result.shadow!, Math.max(0, wx), Math.max(0, wy));
      const i = 3 * (y * original.width + x);
      let diff = 0;
      for (let c = 0; c < 3; c++) diff += Math.abs(composite.data[i + c]! - original.data[i + c]!);
      if (a < 1 / 512 && d > 0.998) {
        keptN++;
        keptSum += diff / 3;
        if (diff / 3 > 12) keptLarge++;
      } else if (a > 0.99 && answer.width === original.width) {
        addedN++;
        let da = 0;
        for (let c = 0; c < 3; c++) da += Math.abs(composite.data[i + c]! - answer.data[i + c]!);
        addedSum += da / 3;
      }
    }
  }
  const n = original.width * original.height;
  return { keptShare: keptN / n, keptMean: keptSum / keptN, keptLarge: keptLarge / keptN, addedShare: addedN / n, addedMean: addedSum / Math.max(1, addedN) };
}

describe('structure lock', () => {
  it('keeps furniture only: faithful, and the composite is the original outside what was added', async () => {
    const result = await lockAnswer(room, staged, { composite: true });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
    expect(result.check.score).toBeGreaterThan(0.5);
    expect(registrationError(result, room, staged, (x, y) => [x, y])).toBeLessThan(1);
    const d = await compositeDiffs(result, room, staged);
    // The furniture group, its shadows and the art cover about a quarter of the frame; the rest is
    // the original's pixels.
    expect(d.keptShare).toBeGreaterThan(0.7);
    expect(d.keptMean).toBeLessThan(1.5);
    expect(d.keptLarge).toBeLessThan(0.001);
    expect(d.addedShare).toBeGreaterThan(0.01);
    expect(d.addedMean).toBeLessThan(12);
  });

  it('keeps a larger staging faithful too: a group floating mid-room with its rug and shadows', async () => {
    const modern = await asAnswer((await stageDetailed(fixture('generative/empty-room-pruna-before.jpg'), 'modern', 'living_room', new AbortController().signal)).image);
    const result = await lockAnswer(room, modern, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
    // Its rug, pieces (an armchair in the foreground among them) and soft shadows cover much of
    // the visible floor; the darkening round the pieces is read as their shadow, not a new floor,
    // which leaves the floor measure at about half its limit (ADR 0017).
    expect(result.check.measures.floor_resurfaced).toBeGreaterThan(0.4);
    expect(result.check.measures.floor_resurfaced).toBeLessThan(1);
  }, 30_000);

  it('registers the same staging zoomed and shifted, and locks it onto the original framing', async () => {
    const w = Math.round(room.width * 0.9);
    const h = Math.round(room.height * 0.9);
    const answer = await asAnswer(await fromSharp(pipe(staged).extract({ left: 40, top: 20, width: w, height: h }).resize(room.width, room.height, { fit: 'fill' })));
    const result = await lockAnswer(room, answer, { composite: true });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
    const err = registrationError(result, room, answer, (x, y) => [((x + 0.5 - 40) * room.width) / w - 0.5, ((y + 0.5 - 20) * room.height) / h - 0.5]);
    expect(err).toBeLessThan(1.5);
    const d = await compositeDiffs(result, room, answer);
    expect(d.keptShare).toBeGreaterThan(0.7);
    expect(d.keptMean).toBeLessThan(1.5);
  });

  it('registers a cropped answer at a smaller size', async () => {
    const answer = await asAnswer(
      await fromSharp(pipe(staged).extract({ left: 60, top: 0, width: room.width - 100, height: room.height - 50 }).resize(874, 500, { fit: 'fill' })),
    );
    const sx = 874 / (room.width - 100);
    const sy = 500 / (room.height - 50);
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
    expect(registrationError(result, room, answer, (x, y) => [(x + 0.5 - 60) * sx - 0.5, (y + 0.5) * sy - 0.5])).toBeLessThan(1.5);
  });

  it('registers the same staging slightly reprojected (a small turn of the camera: tilt and keystone)', async () => {
    // Answer pixel -> staged pixel: a little zoom, tilt and keystone.
    const toStaged = mat3([1.015, 0.012, -6, -0.008, 1.01, 5, 1.2e-5, -0.8e-5, 1]);
    const planes = rgbPlanes(staged).map((p) => warpPlane(p, toStaged, room.width, room.height).data);
    const data = new Uint8Array(3 * room.width * room.height);
    // The few border pixels the staging does not reach keep its nearest colour, as a model fills its frame.
    for (let i = 0; i < room.width * room.height; i++) {
      for (let c = 0; c < 3; c++) data[3 * i + c] = Math.round(255 * (Number.isNaN(planes[c]![i]!) ? staged.data[3 * i + c]! / 255 : planes[c]![i]!));
    }
    const answer = await asAnswer({ width: room.width, height: room.height, data });
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
    const toAnswer = invert3(toStaged);
    expect(registrationError(result, room, answer, (x, y) => apply3(toAnswer, x, y))).toBeLessThan(1.5);
  });

  it('finds a window pasted onto a plain wall', async () => {
    const window = await pipe(staged).extract(WINDOW).resize(210, 236).png().toBuffer();
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: window, left: 672, top: 115 }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['opening_changed'] });
    expect(result.check.score).toBeLessThan(0.5);
  });

  it('finds a window painted over with the wall', async () => {
    const data = new Uint8Array(staged.data);
    const at = 3 * ((WINDOW.top + 140) * room.width + WINDOW.left + WINDOW.width + 15);
    for (let y = WINDOW.top - 4; y < WINDOW.top + WINDOW.height + 6; y++) {
      for (let x = WINDOW.left - 4; x < WINDOW.left + WINDOW.width + 4; x++) {
        for (let c = 0; c < 3; c++) data[3 * (y * room.width + x) + c] = staged.data[at + c]! - (x - WINDOW.left) * 0.02;
      }
    }
    const result = await lockAnswer(room, await asAnswer({ ...staged, data }), { composite: false });
    // With the window gone and the seating group across the middle of the floor, little of the
    // room is left to register on, so the framing may be doubted as well.
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: expect.arrayContaining(['opening_changed']) });
  });

  it('finds a window pasted low on a wall, inside the staging zone', async () => {
    const window = await pipe(staged).extract(WINDOW).resize(170, 190).png().toBuffer();
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: window, left: 640, top: 300 }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['opening_changed'] });
  });

  it('finds a window pasted low on a wall beside a white sofa, lit as brightly as the glass', async () => {
    // The sofa's daylight joins the window's in one region, whose outer sides are the sofa's.
    const window = await pipe(staged).extract(WINDOW).resize(170, 190).png().toBuffer();
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: whiteSofa() }, { input: window, left: 640, top: 280 }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['opening_changed'] });
  });

  it('keeps a white sofa as bright as glass standing in the staging zone', async () => {
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: whiteSofa() }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
  });

  it("keeps a floor lamp's lit drum shade, whose straight sides frame it as a window's would, before the wall", async () => {
    // Where the luxury staging of this room stands its lamp: a smooth warm glow on a brass pole.
    const lamp = `<svg width="${room.width}" height="${room.height}" xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#efe6d2"/><stop offset="0.5" stop-color="#fbf5e6"/><stop offset="1" stop-color="#e9dfca"/></linearGradient></defs><rect x="116" y="372" width="6" height="210" fill="#b08a4a"/><path d="M55 190 Q118 178 180 190 L180 282 Q118 292 55 282 Z" fill="url(#g)"/></svg>`;
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: Buffer.from(lamp) }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
  });

  it('finds the part of a window inside the staging zone painted over', async () => {
    const bottom = WINDOW.top + WINDOW.height + 6;
    // From picture height (2.1 m, the zone's top on this wall) down to the sill.
    const answer = paintBox(staged, { left: WINDOW.left - 4, top: 205, width: WINDOW.width + 8, height: bottom - 205 }, [WINDOW.left + WINDOW.width + 15, 265]);
    const result = await lockAnswer(room, await asAnswer(answer), { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['opening_changed'] });
  });

  it('keeps a sofa standing in front of the lower part of a window', async () => {
    const { width: W, height: H } = room;
    const svg = `<svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg"><rect x="200" y="330" width="230" height="60" rx="10" fill="#55555a"/><rect x="190" y="380" width="250" height="70" rx="8" fill="#4a4a4e"/><rect x="200" y="450" width="10" height="25" fill="#222"/><rect x="420" y="450" width="10" height="25" fill="#222"/></svg>`;
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: Buffer.from(svg) }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
  });

  it('finds walls repainted', async () => {
    // Every wall-white pixel of the upper room turns sage.
    const data = new Uint8Array(staged.data);
    for (let i = 0; i < 3 * room.width * Math.round(room.height * 0.6); i += 3) {
      const lo = Math.min(data[i]!, data[i + 1]!, data[i + 2]!);
      const hi = Math.max(data[i]!, data[i + 1]!, data[i + 2]!);
      if (lo <= 110 || hi - lo >= 28) continue;
      data[i] = data[i]! * 0.8;
      data[i + 1] = data[i + 1]! * 0.9;
      data[i + 2] = data[i + 2]! * 0.74;
    }
    const result = await lockAnswer(room, await asAnswer({ ...staged, data }), { composite: false });
    // The next room seen through the doorway is repainted too.
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: expect.arrayContaining(['walls_recoloured']) });
  });

  /** `base` (the staging) with every pixel of the photo's wooden floor (below the skirting) passed through `to`. */
  function refloored(to: (r: number, g: number, b: number, x: number, y: number) => [number, number, number], base = staged): RgbImage {
    const data = new Uint8Array(base.data);
    for (let y = Math.round(room.height * 0.62); y < room.height; y++) {
      for (let x = 0; x < room.width; x++) {
        const i = 3 * (y * room.width + x);
        const [r, g, b] = [room.data[i]!, room.data[i + 1]!, room.data[i + 2]!];
        // Only where the photo shows the oak boards and the staging left them bare.
        if (r - b < 25 || r < g || Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) > 60) continue;
        const out = to(data[i]!, data[i + 1]!, data[i + 2]!, x, y);
        for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, Math.round(out[c]!)));
      }
    }
    return { ...base, data };
  }

  it('finds the floor resurfaced: the boards laid over with grey tiles', async () => {
    const answer = refloored((r, g, b, x, y) => {
      const grey = (r + g + b) / 3 + 25;
      return x % 60 < 3 || y % 28 < 2 ? [grey * 0.55, grey * 0.55, grey * 0.56] : [grey, grey, grey * 1.02];
    });
    const result = await lockAnswer(room, await asAnswer(answer), { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['floor_resurfaced'] });
  });

  it('finds the floor re-laid in darker boards of the same hue, though their new grain is a changed shape next to every pixel', async () => {
    // Boards 20 by 6 pixels at half and three quarters of the oak's light, in the empty room: a
    // new floor's texture changes all over it, so what changed shape is not only furniture.
    const answer = refloored((r, g, b, x, y) => {
      const light = (Math.floor(x / 20) + Math.floor(y / 6)) % 2 ? 0.5 : 0.75;
      return [r * light, g * light, b * light];
    }, room);
    const result = await lockAnswer(room, await asAnswer(answer), { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['floor_resurfaced'] });
  });

  it('finds the floor stained darker all over, though round the furniture it looks like its shadow', async () => {
    for (const light of [0.7, 0.55]) {
      const result = await lockAnswer(room, await asAnswer(refloored((r, g, b) => [r * light, g * light, b * light])), { composite: false });
      expect(result.check, `stained to ${light}`).toMatchObject({ verdict: 'drift', reasons: ['floor_resurfaced'] });
    }
  });

  it('finds a ceiling light added', async () => {
    const { width: W, height: H } = room;
    const svg = `<svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg"><rect x="${0.42 * W - 3}" y="0" width="6" height="${0.07 * H - 16}" fill="#555"/><ellipse cx="${0.42 * W}" cy="${0.07 * H}" rx="47" ry="16" fill="#f4f2ea" stroke="#8a8780" stroke-width="3"/></svg>`;
    const answer = await asAnswer(await fromSharp(pipe(staged).composite([{ input: Buffer.from(svg) }])));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['ceiling_fixture_changed'] });
  });

  it('calls the Christmas answer (stickers on the walls, snow outside, another width) drift', async () => {
    const answer = await decodeImage(fixture('generative/decorated-by-pruna-after.jpg'));
    const result = await lockAnswer(room, answer, { composite: false });
    expect(result.check.verdict).toBe('drift');
    expect(result.check.reasons).toEqual(expect.arrayContaining(['walls_recoloured', 'opening_changed']));
    expect(result.check.reasons).not.toContain('framing_changed');
  });

  it('passes the generative reference staging and keeps its furniture and mirror on the original', async () => {
    const original = await decodeImage(fixture('rooms/empty-living-portrait.jpg'));
    const answer = await decodeImage(fixture('generative/staged-by-a-generative-model.jpg'));
    const result = await lockAnswer(original, answer, { composite: true });
    expect(result.check).toMatchObject({ verdict: 'faithful', reasons: [] });
    const d = await compositeDiffs(result, original, answer);
    expect(d.keptShare).toBeGreaterThan(0.5);
    expect(d.keptMean).toBeLessThan(1.5);
    expect(d.addedShare).toBeGreaterThan(0.1);
    expect(d.addedMean).toBeLessThan(15);
  });

  it('finds the balcony door of the reference staging painted over with wall', async () => {
    const original = await decodeImage(fixture('rooms/empty-living-portrait.jpg'));
    const answer = await decodeImage(fixture('generative/staged-by-a-generative-model.jpg'));
    const result = await lockAnswer(original, await asAnswer(paintBox(answer, { left: 500, top: 550, width: 190, height: 265 }, [470, 500])), { composite: false });
    expect(result.check).toMatchObject({ verdict: 'drift', reasons: ['opening_changed'] });
  });

  it('locks a 1-megapixel answer onto a 12-megapixel photo at full size', async () => {
    const big = await fromSharp(pipe(room).resize(4032, 2304, { kernel: 'lanczos3' }));
    const result = await lockAnswer(big, staged, { composite: true });
    expect(result.check.verdict).toBe('faithful');
    expect([result.composite!.width, result.composite!.height]).toEqual([4032, 2304]);
    // Away from the furniture the full-size photo's own pixels come back, not the upscaled answer's.
    let same = 0;
    for (let i = 0; i < big.data.length; i += 3 * 97) if (result.composite!.data[i] === big.data[i]) same++;
    expect(same / (big.data.length / (3 * 97))).toBeGreaterThan(0.7);
  }, 20_000);
});
