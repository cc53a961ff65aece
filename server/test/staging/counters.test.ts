import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STYLES } from '@roomstager/contracts';
import { analyseRoom, ANALYSIS_LONG_SIDE } from '../../src/staging/local/analyze.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { counterZone, footprint, layoutRoom, polygonsOverlap, violation } from '../../src/staging/local/layout.ts';
import { wallPoint, wallRange } from '../../src/staging/local/roombox.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';
import { DEFAULT_SYNTHETIC, renderSyntheticRoom, SAMPLE_BEDROOM, SAMPLE_KITCHEN, type SyntheticRoom } from '../../src/staging/local/synthetic.ts';

const kitchen: SyntheticRoom = { ...SAMPLE_KITCHEN, width: 960, height: 640 };
const counter = kitchen.counter!;
const kitchens: Array<[string, SyntheticRoom]> = [
  ['back wall, wall cabinets beside the window', kitchen],
  ['part of the back wall, window over the sink', { ...kitchen, counter: { from: -0.6, to: 2.4, height: 0.91, depth: 0.6, upper: false } }],
  ['camera turned right', { ...kitchen, yaw: 0.2 }],
  ['high worktop', { ...kitchen, counter: { ...counter, height: 0.96 } }],
  ['low worktop, camera turned left', { ...kitchen, yaw: -0.15, counter: { ...counter, height: 0.86 } }],
  ['right wall', { ...DEFAULT_SYNTHETIC, yaw: 0.15, counter: { wall: 'right', from: 2.5, to: 5.8, height: 0.91, depth: 0.62, upper: true } }],
  ['left wall, no wall cabinets', { ...DEFAULT_SYNTHETIC, yaw: -0.15, counter: { wall: 'left', from: 2.2, to: 5.5, height: 0.91, depth: 0.62, upper: false } }],
];

/** Analysis as the engine does it: at its fixed working size. */
async function analyse(truth: SyntheticRoom) {
  const img = renderSyntheticRoom(truth);
  const size = fitSize(img.width, img.height, ANALYSIS_LONG_SIDE);
  return analyseRoom(await resizeRgb(img, size.width, size.height));
}

/** The cabinets' front in world metres along the wall's normal axis (X for side walls, Z for the back wall). */
function frontOf(room: SyntheticRoom): number {
  const k = room.counter!;
  const wall = k.wall ?? 'back';
  return wall === 'back' ? room.back - k.depth : wall === 'left' ? room.left + k.depth : room.right - k.depth;
}

describe('kitchen counter detection', () => {
  it.each(kitchens)('finds the counter on a synthetic kitchen (%s)', async (_name, truth) => {
    const room = await analyse(truth);
    const k = truth.counter!;
    expect(room.counters).toHaveLength(1);
    const c = room.counters[0]!;
    expect(c.wall).toBe(k.wall ?? 'back');
    // Worktop height within 5 cm.
    expect(Math.abs(c.height - k.height)).toBeLessThan(0.05);
    // It covers at least three quarters of the counter (as far as the fitted room reaches)
    // and never reaches more than 25 cm past it.
    const [lo, hi] = wallRange(room.box, c.wall);
    const from = Math.max(k.from, lo);
    const to = Math.min(k.to, hi);
    expect(c.from).toBeGreaterThan(from - 0.25);
    expect(c.to).toBeLessThan(to + 0.25);
    expect(Math.min(c.to, to) - Math.max(c.from, from)).toBeGreaterThan(0.75 * (to - from));
    // The cabinets' front within 20 cm, whichever plane the room box took for the wall.
    const front = wallPoint(room.box, c.wall, c.from, 0, c.front);
    expect(Math.abs((c.wall === 'back' ? front[2] : front[0]) - frontOf(truth))).toBeLessThan(0.2);
  });

  it.each([
    ['an empty room with a window sill at 0.9 m', DEFAULT_SYNTHETIC],
    ['the sample bedroom', SAMPLE_BEDROOM],
    ['a low window', { ...DEFAULT_SYNTHETIC, window: { from: -1.2, to: 0.9, bottom: 0.5, top: 2.1 } }],
    ['white on white', { ...DEFAULT_SYNTHETIC, floorColor: [0.86, 0.85, 0.83] as [number, number, number], wallColor: [0.9, 0.89, 0.87] as [number, number, number] }],
  ])('finds no counter in %s', async (_name, truth) => {
    expect((await analyse(truth)).counters).toEqual([]);
  });

  it.each(['empty-open-plan-living-dining.jpg', 'empty-living-portrait.jpg', 'empty-hall-arched-windows.jpg'])('finds no counter in %s', async (name) => {
    const photo = await decodeImage(readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url))));
    const size = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    expect(analyseRoom(await resizeRgb(photo, size.width, size.height)).counters).toEqual([]);
  });
});

describe('kitchen layout at a counter', async () => {
  for (const [name, truth] of kitchens) {
    const room = await analyse(truth);
    for (const style of STYLES) {
      it(`${name}, ${style}: a table for two clear of the counter, no bar stools against its doors`, () => {
        const placed = layoutRoom(room, 'kitchen', STYLE_DEFS[style]);
        const c = room.counters[0]!;
        // Base cabinets along a wall leave no room for knees: stools there would face cupboard doors.
        expect(placed.some((p) => p.kind === 'barStool')).toBe(false);
        const table = placed.find((p) => p.kind === 'roundTable');
        expect(table).toBeDefined();
        expect(placed.filter((p) => p.kind === 'chair').length).toBeGreaterThanOrEqual(1);
        for (const [k, p] of placed.entries()) expect(violation(room, p, placed.slice(0, k))).toBeNull();
        for (const p of placed) if (p.lift === 0) expect(polygonsOverlap(footprint(p), counterZone(room, c)), p.kind).toBe(false);
      });
    }
  }

  it('keeps the small table and chairs when no counter is found', async () => {
    const room = await analyse(DEFAULT_SYNTHETIC);
    const kinds = layoutRoom(room, 'kitchen', STYLE_DEFS.modern).map((p) => p.kind);
    expect(kinds).toContain('roundTable');
    expect(kinds).not.toContain('barStool');
  });
});
