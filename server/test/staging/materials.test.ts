import { describe, expect, it } from 'vitest';
import { relief } from '../../src/staging/local/materials.ts';
import { MeshBuilder } from '../../src/staging/local/mesh.ts';
import type { Vec3 } from '../../src/staging/local/vec.ts';

describe('surface relief', () => {
  it('tilts the normal of cloth and rugs, the same way every time, and leaves smooth finishes alone', () => {
    const a: Vec3 = [0, 0, 0];
    const b: Vec3 = [0, 0, 0];
    for (const kind of ['fabric', 'velvet', 'linen', 'leather', 'rug'] as const) {
      let largest = 0;
      for (let i = 0; i < 200; i++) {
        const p: Vec3 = [i * 0.013, 0.3 + i * 0.007, -i * 0.011];
        expect(relief(kind, p[0], p[1], p[2], 42, a)).toBe(true);
        relief(kind, p[0], p[1], p[2], 42, b);
        expect(b).toEqual(a);
        largest = Math.max(largest, Math.hypot(...a));
      }
      // Visible, yet never folding the surface over.
      expect(largest).toBeGreaterThan(0.05);
      expect(largest).toBeLessThan(1.2);
    }
    for (const kind of ['wood', 'metal', 'marble', 'ceramic', 'plain'] as const) expect(relief(kind, 0.1, 0.2, 0.3, 42, a)).toBe(false);
  });
});

describe('a throw pillow', () => {
  it('has the size asked for, leans back, and every face looks away from its middle', () => {
    const b = new MeshBuilder();
    const centre: Vec3 = [0, 0.6, 0];
    b.pillow(centre, 0.22, 0.2, 0.16, 0.25, 0);
    const m = b.build();
    let x0 = Infinity;
    let x1 = -Infinity;
    let zTop = 0;
    let yTop = -Infinity;
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      if (y > yTop) {
        yTop = y;
        zTop = z;
      }
      const out = (x - centre[0]) * m.normals[i]! + (y - centre[1]) * m.normals[i + 1]! + (z - centre[2]) * m.normals[i + 2]!;
      expect(out).toBeGreaterThanOrEqual(-1e-6);
    }
    expect(x1 - x0).toBeCloseTo(0.44, 2);
    expect(zTop).toBeLessThan(-0.03);
  });
});
