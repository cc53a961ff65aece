import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseRoom, ANALYSIS_LONG_SIDE, type RoomModel } from '../../src/staging/local/analyze.ts';
import { Camera } from '../../src/staging/local/camera.ts';
import { pieceSize } from '../../src/staging/local/furniture.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { layoutRoom, type Placement } from '../../src/staging/local/layout.ts';
import { MeshBuilder } from '../../src/staging/local/mesh.ts';
import { emptyLayer, everyTileRow, GLASS_OPACITY, rasterize, rasterizeInto, type Fragment } from '../../src/staging/local/raster.ts';
import { buildScene, renderFurniture } from '../../src/staging/local/render.ts';
import { variationSet } from '../../src/staging/local/set.ts';
import { STYLE_DEFS, type StyleDef } from '../../src/staging/local/styles.ts';

const W = 160;
const H = 120;
const cam = new Camera({ width: W, height: H, focal: 120, cx: 80, cy: 60, yaw: 0, pitch: 0, roll: 0, eyeHeight: 1.5 });
const RED = 0;
const PANE = 1;

/**
 * A red board 3 m away on the left half of the view, a pane of glass 2 m away from the middle to
 * the right (alone in the rightmost tiles), and a red post 1.5 m away in front of the pane: the
 * glass triangles flagged.
 */
function scene() {
  const b = new MeshBuilder();
  b.box([-0.6, 1.5, 3], [0.6, 0.6, 0.01], RED);
  b.box([0.2, 1.5, 2], [0.7, 0.4, 0.005], PANE);
  b.box([0.3, 1.5, 1.5], [0.05, 0.6, 0.05], RED);
  const mesh = b.build();
  return { mesh, glass: Uint8Array.from(mesh.materials, (m) => (m === PANE ? 1 : 0)) };
}
/** Red for the boards; the pane gives a faint grey it reflects. */
const shade = (f: Fragment, out: Float32Array) => out.set(f.material === PANE ? [0.05, 0.05, 0.05] : [1, 0, 0]);

describe('glass in the rasteriser', () => {
  const { mesh, glass } = scene();
  const layer = rasterizeInto(mesh, cam, emptyLayer(W, H), shade, everyTileRow(), glass);
  const at = (u: number, v: number) => {
    const i = v * W + u;
    return { rgb: [layer.color[i * 3]!, layer.color[i * 3 + 1]!, layer.color[i * 3 + 2]!], alpha: layer.alpha[i]!, depth: layer.depth[i]! };
  };

  it('shows what is behind a pane, dimmed by its opacity, with what the pane reflects added', () => {
    // Column 70: the board behind the pane.
    const behind = at(70, 60);
    expect(behind.rgb[0]).toBeCloseTo(1 - GLASS_OPACITY + 0.05, 5);
    expect(behind.rgb[1]).toBeCloseTo(0.05, 5);
    expect(behind.alpha).toBeCloseTo(1, 5);
    // The depth stays the board's: the pane is not a surface for the creases (cavity.ts).
    expect(behind.depth).toBeCloseTo(3 - 0.01, 2);
  });

  it('lets the photo show through a pane with nothing behind it: coverage only its opacity', () => {
    // Column 95 shares its tile with the board; column 130 is in a tile of glass alone.
    for (const u of [95, 130]) {
      const clear = at(u, 60);
      expect(clear.alpha).toBeCloseTo(GLASS_OPACITY, 5);
      expect(clear.rgb[0]).toBeCloseTo(0.05, 5);
      expect(clear.depth).toBe(Infinity);
    }
  });

  it('takes away as much of what is behind a pane as its shader says the pane takes at that view', () => {
    // A slanted pane reflects more and passes less: its shader gives its opacity in out[3].
    const slanted = (f: Fragment, out: Float32Array) => {
      shade(f, out);
      if (f.material === PANE) out[3] = 0.3;
    };
    const dimmer = rasterizeInto(mesh, cam, emptyLayer(W, H), slanted, everyTileRow(), glass);
    const i = 60 * W + 70;
    expect(dimmer.color[i * 3]).toBeCloseTo(1 - 0.3 + 0.05, 5);
    expect(dimmer.alpha[60 * W + 130]).toBeCloseTo(0.3, 5);
  });

  it('hides a pane behind something opaque; without the flags draws it as an opaque board, and the rest the same', () => {
    // The post at x = 0.3 m, 1.5 m away: column 80 + 120 * 0.3 / 1.5 = 104.
    expect(at(104, 60).rgb).toEqual([1, 0, 0]);
    const plain = rasterize(mesh, cam, W, H, shade);
    // Without the flags the pane is drawn as an opaque grey board; elsewhere the two agree.
    expect(plain.color[(60 * W + 95) * 3]).toBeCloseTo(0.05, 5);
    expect(plain.alpha[60 * W + 95]).toBeCloseTo(1, 5);
    for (const u of [40, 104, 150]) expect(at(u, 60).rgb).toEqual([0, 1, 2].map((c) => plain.color[(60 * W + u) * 3 + c]!));
  });
});

describe('a glass-topped coffee table', () => {
  it('has its top flagged as glass, which casts no shadow and lets the daylight through', () => {
    const def = variationSet('modern', 0, undefined, 0).def;
    expect(def.pieces.coffeeTable).toBe('glass');
    const table: Placement = { kind: 'coffeeTable', x: 0, z: 3, yaw: 0, size: pieceSize('coffeeTable', def), lift: 0 };
    const s = buildScene([table], 'modern', def, 'living_room', 2.6);
    const panes = [...s.glass.keys()].filter((t) => s.glass[t]);
    expect(panes.length).toBeGreaterThanOrEqual(12);
    for (const t of panes) {
      expect(s.materials[s.mesh.materials[t]!]?.m.kind).toBe('glass');
      expect(s.casts[t]).toBe(0);
    }
    // The frame, shelf, books and bowl cast as before.
    expect(s.casts.filter((c) => c === 1).length).toBe(s.casts.length - panes.length);
  });

  describe('in the arched hall, white walls and blown-out windows behind the sofa', () => {
    let room: RoomModel;
    let width: number;
    let height: number;
    beforeAll(async () => {
      const photo = await decodeImage(readFileSync(fileURLToPath(new URL('../fixtures/rooms/empty-hall-arched-windows.jpg', import.meta.url))));
      const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
      room = analyseRoom(await resizeRgb(photo, a.width, a.height));
      ({ width, height } = fitSize(photo.width, photo.height, 600));
    });
    const lum = (c: Float32Array, k: number) => 0.2126 * c[k * 3]! + 0.7152 * c[k * 3 + 1]! + 0.0722 * c[k * 3 + 2]!;
    /** The top's brightness at points over it (`at(i, j)`, metres), NaN where a book or the bowl stands in front of the pane. */
    function topBrightness(def: StyleDef, pieces: Placement[], table: Placement, points: Array<[number, number]>): number[] {
      const { layer } = renderFurniture(room, pieces, 'modern', def, 'living_room', width, height);
      const cam = room.camera.scaled(width, height);
      return points.map(([x, z]) => {
        const q = cam.project([table.x + x, table.size.h, table.z + z]);
        const k = Math.floor(q.v) * width + Math.floor(q.u);
        return layer.depth[k]! < q.depth - 0.01 || !(layer.alpha[k]! > 0.99) ? NaN : lum(layer.color, k);
      });
    }

    it('a pane mirrors the sofa standing behind it, not the bright room beyond the sofa', () => {
      const def = STYLE_DEFS.modern;
      const placed = layoutRoom(room, 'living_room', def);
      const table = placed.find((p) => p.kind === 'coffeeTable')!;
      const sofa = placed.find((p) => p.kind === 'sofa')!;
      // Points over the half of the top nearer the sofa, compared where both renders see the pane.
      const towards = Math.sign(sofa.z - table.z);
      const points: Array<[number, number]> = [];
      for (let i = -6; i <= 6; i++) for (const f of [0.1, 0.2, 0.3]) points.push([(i / 6) * (table.size.w / 2 - 0.08), towards * f * table.size.d]);
      const alone = topBrightness(def, [table], table, points);
      const withSofa = topBrightness(def, [table, sofa], table, points);
      const both = points.map((_, k) => k).filter((k) => !Number.isNaN(alone[k]!) && !Number.isNaN(withSofa[k]!));
      expect(both.length).toBeGreaterThan(10);
      const mean = (v: number[]) => both.reduce((sum, k) => sum + v[k]!, 0) / both.length;
      expect(mean(withSofa)).toBeLessThan(0.7 * mean(alone));
    });

    it("a pane's reflection of the room stays under the photo's white, so what lies under the glass shows", () => {
      // The frame and shelf made black: what the top shows is the pane's own reflection. Mirrored
      // at the openings' full strength it reached twice the photo's white; at twice the white,
      // a milky veil over the portrait room's table (0.4 and more).
      const base = STYLE_DEFS.modern;
      const black: [number, number, number] = [0, 0, 0];
      const def: StyleDef = { ...base, materials: { ...base.materials, woodLight: { ...base.materials.woodLight!, color: black, color2: black } } };
      const table = layoutRoom(room, 'living_room', def).find((p) => p.kind === 'coffeeTable')!;
      const points: Array<[number, number]> = [];
      for (let i = -6; i <= 6; i++) for (let j = -3; j <= 3; j++) points.push([(i / 6) * (table.size.w / 2 - 0.08), (j / 3) * (table.size.d / 2 - 0.08)]);
      const seen = topBrightness(def, [table], table, points).filter((v) => !Number.isNaN(v));
      expect(seen.length).toBeGreaterThan(15);
      // Somewhere it mirrors the windows: the brightest is well above the black shelf, and no
      // more than the pane's share (10-20 % at this slant) of the windows at the photo's white.
      expect(Math.max(...seen)).toBeGreaterThan(0.1);
      expect(Math.max(...seen)).toBeLessThan(0.3);
    });
  });
});
