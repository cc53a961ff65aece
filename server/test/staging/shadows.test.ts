import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Opening } from '../../src/staging/local/analyze.ts';
import { analyseRoom, ANALYSIS_LONG_SIDE } from '../../src/staging/local/analyze.ts';
import { pieceSize } from '../../src/staging/local/furniture.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { footprint, layoutRoom, type Placement } from '../../src/staging/local/layout.ts';
import { buildScene, lampGlows, lampLight, renderFurniture, rugOutlines, type LampGlow } from '../../src/staging/local/render.ts';
import type { RoomBox } from '../../src/staging/local/roombox.ts';
import { computeRoomShadows, openingLights } from '../../src/staging/local/shadows.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';

const box: RoomBox = { left: -2.5, right: 2.5, back: 6, ceiling: 2.6, score: 1, fallback: false, evidence: { left: 1, right: 1, back: 1 }, nearEvidence: { left: 1, right: 1 } };
const window: Opening = { wall: 'left', kind: 'window', from: 2.4, to: 3.6, bottom: 0.8, top: 2.1, daylight: true };
const style = STYLE_DEFS.modern;
const piece = (kind: Placement['kind'], x: number, z: number, yaw = 0): Placement => ({ kind, x, z, yaw, size: pieceSize(kind, style), lift: 0 });
/** A sofa against the back wall; a coffee table, an armchair and a side table standing free. */
const pieces = [piece('sofa', 0, 5.45, Math.PI), piece('coffeeTable', 0, 4.2), piece('armchair', 1.4, 3.8, -Math.PI / 2), piece('sideTable', -1.9, 3.0)];
const bounds = { x0: box.left, z0: 0.3, x1: box.right, z1: box.back };

function shadowsFor(placements: Placement[], openings: Opening[]) {
  const scene = buildScene(placements, 'modern', style, 'living_room', box.ceiling);
  return computeRoomShadows(scene.mesh, scene.solid, box, openingLights(box, openings), bounds);
}

/** Floor points just outside a footprint: the middle of each side, `gap` metres out. */
function around(p: Placement, gap: number): Array<[number, number]> {
  const fp = footprint(p);
  const cx = fp.reduce((a, c) => a + c[0], 0) / fp.length;
  const cz = fp.reduce((a, c) => a + c[1], 0) / fp.length;
  return fp.map((c, i) => {
    const d = fp[(i + 1) % fp.length]!;
    const mx = (c[0] + d[0]) / 2;
    const mz = (c[1] + d[1]) / 2;
    const l = Math.hypot(mx - cx, mz - cz);
    return [mx + ((mx - cx) / l) * gap, mz + ((mz - cz) / l) * gap];
  });
}

describe('differential shadows on the photo', () => {
  const lit = shadowsFor(pieces, [window]);

  it('never lighten the photo, and leave it alone where no furniture stands', () => {
    for (const g of [lit.floor, ...Object.values(lit.walls)]) {
      for (const f of g.factor) {
        expect(f).toBeLessThanOrEqual(1);
        expect(f).toBeGreaterThan(0);
      }
    }
    const empty = shadowsFor([], [window]);
    expect(Math.min(...empty.floor.factor)).toBe(1);
    // Without a light, nothing changes beyond the occlusion's reach.
    const dim = shadowsFor(pieces, []);
    expect(dim.floor.at(-2.4, 0.5)).toBe(1);
  });

  it('put a contact shadow at every piece standing on the floor, darkest beneath it', () => {
    const open = lit.floor.at(-0.5, 1.2);
    expect(open).toBeGreaterThan(0.95);
    for (const p of pieces) {
      // A pedestal table touches the floor with its base alone, well inside its top (the next test rings the base).
      if (p.kind !== 'sideTable') around(p, 0.03).forEach(([x, z], k) => expect(lit.floor.at(x, z), `${p.kind} side ${k}`).toBeLessThan(0.92));
      expect(lit.floor.at(p.x, p.z), p.kind).toBeLessThan(0.6);
    }
    // Under the sofa (its seat 10-15 cm up) the floor sees almost nothing of the room.
    expect(lit.floor.at(0, 5.45)).toBeLessThan(0.4);
  });

  it('darken a thin ring round a pedestal base, not a puddle, and light the base as the floor beside it', () => {
    const table = pieces[3]!;
    // The base is a disc of 0.6 times the top's radius (furniture.ts).
    const base = 0.6 * (table.size.w / 2);
    // The median round the base: the side away from the window is in the table's cast shadow.
    const ring = (r: number) => [0, 1, 2, 3, 4, 5, 6, 7].map((k) => lit.floor.at(table.x + r * Math.cos(k * 0.785), table.z + r * Math.sin(k * 0.785))).sort((a, b) => a - b)[4]!;
    const edge = ring(base + 0.01);
    const out = ring(base + 0.1);
    expect(edge).toBeLessThan(0.4);
    // Under the table's top, 10 cm out, the floor keeps most of its light.
    expect(out).toBeGreaterThan(0.65);
    // The base's own top takes the light around it, not the dark the base hides.
    expect(lit.pieces.at(table.x, table.z)).toBeGreaterThan(0.6);
  });

  it('darken the wall behind the sofa, most near the sofa', () => {
    const back = lit.walls.back!;
    expect(back).toBeDefined();
    expect(back.at(0, 0.3)).toBeLessThan(0.75);
    expect(back.at(0, 0.3)).toBeLessThan(back.at(0, 1.6));
    // The far end of the back wall is out of reach.
    expect(back.at(2.45, 2.3)).toBeGreaterThan(0.97);
  });

  it('cast the shadow of the window light away from the window', () => {
    // The armchair stands with the window on its left: its shadow falls to the right, where
    // the room-light occlusion alone would be the same on both sides.
    const chair = pieces[2]!;
    const windowSide = lit.floor.at(chair.x - 0.6, chair.z);
    const farSide = lit.floor.at(chair.x + 0.6, chair.z);
    expect(farSide).toBeLessThan(windowSide - 0.05);
    // Without the window the two sides differ by the occlusion alone (the table and sofa stand
    // on the window's side): the window's light darkens the far side by more than that.
    const dim = shadowsFor(pieces, []);
    const occlusionOnly = dim.floor.at(chair.x - 0.6, chair.z) - dim.floor.at(chair.x + 0.6, chair.z);
    expect(windowSide - farSide - occlusionOnly).toBeGreaterThan(0.08);
  });

  it("keep a thin leg's contact shadow a tight rim, not a blot the floor grid's cells would spread", () => {
    const chair = piece('slingChair', 0, 3);
    const scene = buildScene([chair], 'modern', style, 'living_room', box.ceiling);
    const shadows = computeRoomShadows(scene.mesh, scene.casts, box, [], bounds);
    // The chair's front left foot: its lowest points nearest the camera and the left wall.
    const P = scene.mesh.positions;
    let x = Infinity;
    let z = Infinity;
    for (let i = 0; i < P.length; i += 3) {
      if (P[i + 1]! > 0.01) continue;
      x = Math.min(x, P[i]!);
      z = Math.min(z, P[i + 2]!);
    }
    // What the contact takes of the light the floor has there (the floor's own occlusion apart), beside the foot.
    const contact = (d: number) => shadows.floor.at(x - d, z + 0.015) / shadows.pieces.at(x - d, z + 0.015);
    expect(contact(0.005)).toBeLessThan(0.4);
    // At 2.5 cm cells the rim reached 5 cm out at a third of the light; now it is a centimetre or two wide.
    expect(contact(0.05)).toBeGreaterThan(0.75);
  });

  it("leave the wall behind a plant's crown as lit as the room leaves it: leaves are mostly gaps, and only the pot and trunk occlude", () => {
    // A fig 40 cm from the back wall, its crown reaching to about 20 cm of it, by the window.
    const plant = piece('plant', 0, box.back - 0.4);
    const back = shadowsFor([plant], [window]).walls.back!;
    // The crown's middle, 0.9-1.1 m up: a quarter of the light was left with the leaves marked solid in the cells.
    for (const y of [0.9, 1, 1.1]) expect(back.at(0, y)).toBeGreaterThan(0.8);
    // Beside the pot, the occlusion stays.
    expect(Math.min(back.at(-0.2, 0.15), back.at(0.2, 0.15))).toBeLessThan(0.75);
  });

  it('let the room light through an open frame, where a solid piece shuts it out', () => {
    // Each chair with its side 5 cm from the left wall: between a sling chair's seat rail and
    // its arm the wall sees the room; behind an upholstered armchair's side it does not.
    const wallBeside = (kind: Placement['kind']) => {
      const p = piece(kind, box.left + pieceSize(kind, style).w / 2 + 0.05, 3);
      return shadowsFor([p], []).walls.left!.at(3, 0.5);
    };
    expect(wallBeside('slingChair')).toBeGreaterThan(0.45);
    expect(wallBeside('armchair')).toBeLessThan(0.42);
  });

  it("draw a thin dark line along a rug's edge, and nothing on the rug or a few centimetres out", () => {
    const rug = piece('rug', 0.3, 3, 0.4);
    const scene = buildScene([rug], 'modern', style, 'living_room', box.ceiling);
    const lights = openingLights(box, [window]);
    const edged = computeRoomShadows(scene.mesh, scene.casts, box, lights, bounds, rugOutlines([rug])).floor;
    const plain = computeRoomShadows(scene.mesh, scene.casts, box, lights, bounds).floor;
    const at = (gap: number) => around(rug, gap).map(([x, z]) => edged.at(x, z));
    for (const [x, z] of around(rug, 0.002)) expect(plain.at(x, z)).toBe(1);
    for (const f of at(0.002)) expect(f).toBeGreaterThan(0.55);
    for (const f of at(0.002)) expect(f).toBeLessThan(0.7);
    for (const f of at(0.01)) expect(f).toBeGreaterThan(0.8);
    for (const f of at(0.01)) expect(f).toBeLessThan(0.9);
    for (const f of [...at(0.07), ...at(-0.02)]) expect(f).toBe(1);
  });

  it('are deterministic', () => {
    const again = shadowsFor(pieces, [window]);
    expect(Buffer.from(again.floor.factor.buffer).equals(Buffer.from(lit.floor.factor.buffer))).toBe(true);
  });

  it('stop at a door: what the photo shows through it is left alone, the wall beside it is darkened', async () => {
    // A room with a door in its right wall and an armchair standing by that wall.
    const bytes = readFileSync(fileURLToPath(new URL('../fixtures/generative/empty-room-pruna-before.jpg', import.meta.url)));
    const photo = await decodeImage(bytes);
    const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    const room = analyseRoom(await resizeRgb(photo, a.width, a.height));
    const door = room.openings.find((o) => o.wall === 'right' && o.kind === 'door')!;
    expect(door).toBeDefined();
    const { width, height } = fitSize(photo.width, photo.height, 800);
    const result = renderFurniture(room, layoutRoom(room, 'living_room', style), 'modern', style, 'living_room', width, height);
    const cam = room.camera.scaled(width, height);
    /** The photo's shadow at a point of the right wall's plane, where no furniture hides it. */
    const onWall = (z: number, y: number) => {
      const q = cam.project([room.box.right, y, z]);
      const i = Math.floor(q.v) * width + Math.floor(q.u);
      return q.depth <= 0 || q.u < 0 || q.v < 0 || q.u >= width || q.v >= height || result.layer.alpha[i]! > 0 ? null : result.shadow[i]!;
    };
    const inDoor: number[] = [];
    const beside: number[] = [];
    for (let y = 0.2; y < 1.9; y += 0.2) {
      for (let z = door.from + 0.05; z < door.to - 0.05; z += 0.1) inDoor.push(onWall(z, y) ?? 1);
      for (let z = door.to + 0.05; z < door.to + 0.8; z += 0.1) beside.push(onWall(z, y) ?? 1);
    }
    expect(Math.min(...inDoor)).toBe(1);
    expect(Math.min(...beside)).toBeLessThan(0.97);
  });

  it('on a fixture, darken the photo only around the furniture, with a contact shadow under each piece', async () => {
    const bytes = readFileSync(fileURLToPath(new URL('../fixtures/rooms/empty-living-portrait.jpg', import.meta.url)));
    const photo = await decodeImage(bytes);
    const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
    const room = analyseRoom(await resizeRgb(photo, a.width, a.height));
    const placements = layoutRoom(room, 'living_room', style);
    const { width, height } = fitSize(photo.width, photo.height, 800);
    const result = renderFurniture(room, placements, 'modern', style, 'living_room', width, height);
    expect(result.shadow.every((f) => f <= 1)).toBe(true);
    const none = renderFurniture(room, [], 'modern', style, 'living_room', width, height);
    expect(none.shadow.every((f) => f === 1)).toBe(true);
    const cam = room.camera.scaled(width, height);
    // The photo's floor 3 cm out from the middle of each side, where neither the piece nor the
    // rug hides it (on the rug the shadow is in the rug's own shading).
    let seen = 0;
    for (const p of placements.filter((q) => q.kind !== 'rug' && q.kind !== 'art')) {
      for (const [x, z] of around(p, 0.03)) {
        const q = cam.project([x, 0, z]);
        const i = Math.floor(q.v) * width + Math.floor(q.u);
        if (q.depth <= 0 || q.u < 0 || q.v < 0 || q.u >= width || q.v >= height || (result.layer.alpha[i] ?? 1) > 0.01) continue;
        expect(result.shadow[i], p.kind).toBeLessThan(0.88);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(2);
  });
});

describe("a lit lamp's light on the photo", () => {
  it('finds each lit shade in the scene: where it stands, its size and its glow', () => {
    const scene = buildScene([piece('sofa', 0, 5.45, Math.PI), piece('floorLamp', 1.4, 5.6)], 'modern', style, 'living_room', box.ceiling);
    const lamps = lampGlows(scene);
    expect(lamps).toHaveLength(1);
    const lamp = lamps[0]!;
    expect(lamp.x).toBeCloseTo(1.4, 1);
    expect(lamp.z).toBeCloseTo(5.6, 1);
    expect(lamp.radius).toBeGreaterThan(0.15);
    expect(lamp.radius).toBeLessThan(0.3);
    expect(lamp.top - lamp.bottom).toBeGreaterThan(0.2);
    expect(lamp.glow).toBe(style.materials.shade.glow);
    expect(lampGlows(buildScene([piece('sofa', 0, 5.45, Math.PI)], 'modern', style, 'living_room', box.ceiling))).toEqual([]);
  });

  it('lights the wall behind a shade: a scallop above it and below it, the cloth beside it, nothing out of reach or facing away', () => {
    const lamp: LampGlow = { x: 0, z: 5.6, bottom: 1.2, top: 1.56, radius: 0.22, glow: 0.25 };
    const wall = (x: number, y: number) => lampLight([lamp], x, y, 6, 0, 0, -1);
    const above = wall(0, 1.9);
    expect(above).toBeGreaterThan(0.08);
    // Past the cone the rim allows, only the cloth's glow is left: the scallop has an edge.
    expect(wall(0.9, 1.9)).toBeLessThan(above / 3);
    expect(wall(0, 0.9)).toBeGreaterThan(0.08);
    expect(wall(0, 1.38)).toBeGreaterThan(0.1);
    expect(wall(3, 1.4)).toBe(0);
    expect(lampLight([lamp], 0, 1.9, 6, 0, 0, 1)).toBe(0);
  });
});
