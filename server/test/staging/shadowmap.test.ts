import { describe, expect, it } from 'vitest';
import { MeshBuilder } from '../../src/staging/local/mesh.ts';
import { ShadowMap } from '../../src/staging/local/shadowmap.ts';
import { normalize } from '../../src/staging/local/vec.ts';

/** A 2 m floor slab, and a board `height` up covering the floor's half with x < 0. */
function scene(height = 0.6) {
  const b = new MeshBuilder();
  b.roundedBox([0, -0.01, 0], [1, 0.01, 1], 0.001, 0);
  b.roundedBox([-0.5, height, 0], [0.5, 0.01, 1], 0.001, 0);
  const mesh = b.build();
  return { mesh, casts: new Uint8Array(mesh.materials.length).fill(1) };
}

describe("the furniture's shadow map", () => {
  const { mesh, casts } = scene();

  it('softens a shadow edge over the penumbra, smoothly and the same way every time', () => {
    const map = new ShadowMap(mesh, casts, [0, 1, 0], 0.05);
    const at = (x: number) => map.visibility(x, 0, 0.2, 0, 1, 0);
    expect(at(-0.2)).toBe(0);
    expect(at(0.2)).toBe(1);
    const profile = [-0.04, -0.02, 0, 0.02, 0.04].map(at);
    for (let i = 1; i < profile.length; i++) expect(profile[i]!).toBeGreaterThanOrEqual(profile[i - 1]!);
    expect(profile.filter((v) => v > 0.05 && v < 0.95).length).toBeGreaterThanOrEqual(3);
    expect([-0.04, -0.02, 0, 0.02, 0.04].map(at)).toEqual(profile);
  });

  it('does not shadow a surface the light meets at a slant', () => {
    // Light from 17 degrees above the floor, from +x: the floor beyond the board is open to it.
    const map = new ShadowMap(mesh, casts, normalize([1, 0.3, 0]), 0.05);
    for (const z of [-0.5, 0, 0.5]) expect(map.visibility(0.5, 0, z, 0, 1, 0)).toBe(1);
  });

  it('widens the penumbra with the distance to what casts it, as a window (an area light) does', () => {
    /** Width (metres) over which the floor goes from 10 % to 90 % lit across the board's edge. */
    const penumbra = (height: number) => {
      const board = scene(height);
      const map = new ShadowMap(board.mesh, board.casts, [0, 1, 0], 0.02, 0.35);
      const xs = Array.from({ length: 121 }, (_, i) => -0.3 + i * 0.005);
      const at = xs.map((x) => map.visibility(x, 0, 0.2, 0, 1, 0));
      return xs[at.findIndex((v) => v >= 0.9)]! - xs[at.findIndex((v) => v > 0.1)]!;
    };
    const low = penumbra(0.08);
    const high = penumbra(0.6);
    expect(low).toBeLessThan(0.05);
    expect(high).toBeGreaterThan(0.2);
    // Far from any edge: fully shadowed under the board, fully lit beyond it.
    const { mesh: m, casts: c } = scene(0.6);
    const map = new ShadowMap(m, c, [0, 1, 0], 0.02, 0.35);
    expect(map.visibility(-0.6, 0, 0.2, 0, 1, 0)).toBe(0);
    expect(map.visibility(0.6, 0, 0.2, 0, 1, 0)).toBe(1);
  });
});
