import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STYLES } from '@roomstager/contracts';
import { describe, expect, it } from 'vitest';
import { analyseRoom, ANALYSIS_LONG_SIDE } from '../../src/staging/local/analyze.ts';
import { CLIPPED_GAIN } from '../../src/staging/local/floor-light.ts';
import { compositeOnto, estimateEdgeBlur, type ClippedFloor } from '../../src/staging/local/composite.ts';
import { decodeImage, fitSize, resizeRgb, SRGB_TO_LINEAR } from '../../src/staging/local/image.ts';
import { layoutRoom } from '../../src/staging/local/layout.ts';
import { ENV_H, ENV_W, reflectedLight, texelDirection, type RoomRadiance } from '../../src/staging/local/light.ts';
import { blurPlane, type Segment } from '../../src/staging/local/lines.ts';
import { albedo, leafId, leatherCrease, leatherSheen, pileLean, prepare, relief, texturePixel, toLinear, type Material } from '../../src/staging/local/materials.ts';
import { renderFurniture, type RenderResult } from '../../src/staging/local/render.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';
import { BUILDERS, leaf, pieceSize } from '../../src/staging/local/furniture.ts';
import { MeshBuilder } from '../../src/staging/local/mesh.ts';
import { mulberry32 } from '../../src/staging/local/prng.ts';
import { cross, luminance, normalize, sub, type Vec3 } from '../../src/staging/local/vec.ts';

describe('surface relief', () => {
  it('tilts the normal of cloth and rugs, the same way every time, and leaves smooth finishes alone', () => {
    const a: Vec3 = [0, 0, 0];
    const b: Vec3 = [0, 0, 0];
    for (const kind of ['fabric', 'velvet', 'linen', 'leather', 'rug'] as const) {
      let largest = 0;
      for (let i = 0; i < 200; i++) {
        const p: Vec3 = [i * 0.013, 0.3 + i * 0.007, -i * 0.011];
        // Linen is bedding here: a lamp shade's is stretched taut (below).
        expect(relief(kind, p[0], p[1], p[2], 42, a, kind === 'linen')).toBe(true);
        relief(kind, p[0], p[1], p[2], 42, b, kind === 'linen');
        expect(b).toEqual(a);
        largest = Math.max(largest, Math.hypot(...a));
      }
      // Visible, yet never folding the surface over.
      expect(largest).toBeGreaterThan(0.05);
      expect(largest).toBeLessThan(1.2);
    }
    for (const kind of ['wood', 'metal', 'marble', 'ceramic', 'plain'] as const) expect(relief(kind, 0.1, 0.2, 0.3, 42, a)).toBe(false);
    expect(relief('linen', 0.1, 0.2, 0.3, 42, a)).toBe(false);
  });

  it('of bedding runs in folds along the bed, not in bumps every way (a quilted mattress)', () => {
    // How much the tilt changes over 2 cm across the bed (X) and along it (Z), on a duvet's top.
    const a: Vec3 = [0, 0, 0];
    const b: Vec3 = [0, 0, 0];
    let across = 0;
    let along = 0;
    for (let i = 0; i < 60; i++) {
      for (let k = 0; k < 60; k++) {
        const x = -0.8 + i * 0.027;
        const z = -1 + k * 0.033;
        relief('linen', x, 0.58, z, 7, a, true);
        relief('linen', x + 0.02, 0.58, z, 7, b, true);
        across += Math.hypot(b[0] - a[0], b[2] - a[2]);
        relief('linen', x, 0.58, z + 0.02, 7, b, true);
        along += Math.hypot(b[0] - a[0], b[2] - a[2]);
      }
    }
    expect(across / along).toBeGreaterThan(2);
  });

  it('of bedding hangs in folds down the side of the bed and its foot, deeper towards the hem', () => {
    // The tilt's change over 2 cm along the edge and down the fall, on the side (a face towards
    // X, the bed's length along Z) and on the foot (towards Z, its width along X).
    const a: Vec3 = [0, 0, 0];
    const b: Vec3 = [0, 0, 0];
    for (const face of [0, 2]) {
      let along = 0;
      let down = 0;
      const depth = [0, 0];
      for (let i = 0; i < 80; i++) {
        for (let k = 0; k < 14; k++) {
          const e = -1 + i * 0.025;
          const y = 0.3 + k * 0.02;
          const at = (edge: number, h: number, out: Vec3) => relief('linen', face === 0 ? 0.85 : edge, h, face === 0 ? edge : 1.05, 7, out, true, face);
          at(e, y, a);
          at(e + 0.02, y, b);
          along += Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
          at(e, y + 0.02, b);
          down += Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
          depth[y < 0.42 ? 0 : 1]! += Math.hypot(...a);
        }
      }
      expect(along / down, `face ${face}`).toBeGreaterThan(2);
      // The lower half of the fall tilts more than the upper, near the top's edge.
      expect(depth[0]! / depth[1]!, `face ${face}`).toBeGreaterThan(1.1);
    }
  });
});

describe('wood', () => {
  const lum = (c: Vec3) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const oak = prepare(STYLE_DEFS.traditional.materials.top!);
  /** Luminance of the top's albedo along a line, 2 mm a step. */
  function line(at: (s: number) => Vec3, n: number): number[] {
    const c: Vec3 = [0, 0, 0];
    return Array.from({ length: n }, (_, i) => {
      const [x, y, z] = at(i * 0.002);
      albedo(oak, x, y, z, 7919, c);
      return lum(c);
    });
  }
  /** Normalised autocorrelation of a signal at a lag, in samples. */
  function autocorrelation(v: number[], lag: number): number {
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < v.length; i++) {
      den += (v[i]! - mean) ** 2;
      if (i + lag < v.length) num += (v[i]! - mean) * (v[i + lag]! - mean);
    }
    return num / den;
  }

  it('has grain that does not repeat across or along a top: once the correlation has died away it does not come back', () => {
    for (const across of [true, false]) {
      const lines = Array.from({ length: 8 }, (_, k) => line((s) => (across ? [-0.6 + k * 0.17, 0.45, -0.5 + s] : [-1 + s, 0.45, -0.3 + k * 0.083]), 1000));
      const mean = (lag: number) => lines.reduce((a, v) => a + autocorrelation(v, lag), 0) / lines.length;
      let lag = 1;
      while (mean(lag) > 0.1) lag++;
      let comeback = -1;
      for (; lag < 450; lag++) comeback = Math.max(comeback, mean(lag));
      // Rings at a fixed spacing came back to 0.2 across the grain at 8 cm.
      expect(comeback).toBeLessThan(0.15);
    }
  });

  it("runs along a cabinet's front and end as on its top, not across them in even stripes", () => {
    const c: Vec3 = [0, 0, 0];
    // Upright lines 80 cm long on a front (facing texture Z, at z = 0.2) and on an end (facing X, at x = 0.6).
    for (const face of [2, 0]) {
      const lines = Array.from({ length: 8 }, (_, k) =>
        Array.from({ length: 400 }, (_, i) => {
          if (face === 0) albedo(oak, 0.6, i * 0.002, -0.3 + k * 0.08, 7919, c, face);
          else albedo(oak, -0.6 + k * 0.17, i * 0.002, 0.2, 7919, c, face);
          return lum(c);
        }),
      );
      const mean = (lag: number) => lines.reduce((a, v) => a + autocorrelation(v, lag), 0) / lines.length;
      let lag = 1;
      while (mean(lag) > 0.1) lag++;
      let comeback = -1;
      for (; lag < 200; lag++) comeback = Math.max(comeback, mean(lag));
      // Cut like a top's face, the same logs gave rings 2-4 cm apart across the whole front: 0.75.
      expect(comeback, `face ${face}`).toBeLessThan(0.15);
    }
  });

  it('draws its rings along the fibres as long arches, not lines meandering across a top, a front or an end like a contour map', () => {
    const c: Vec3 = [0, 0, 0];
    for (const face of [1, 2, 0]) {
      let across = 0;
      let total = 0;
      for (const seed of [7919, 101, 2024, 555, 31337, 4242]) {
        // 60 x 40 cm of the face at 2 mm a pixel: `a` along the fibres, `b` across them.
        const w = 300;
        const h = 200;
        const v = new Float64Array(w * h);
        for (let j = 0; j < h; j++) {
          for (let i = 0; i < w; i++) {
            const a = -0.3 + i * 0.002;
            const b = -0.2 + j * 0.002;
            if (face === 1) albedo(oak, a, 0.45, b, seed, c, 1, 0.002);
            else if (face === 2) albedo(oak, a, b + 0.2, 0.25, seed, c, 2, 0.002);
            else albedo(oak, 0.55, a + 0.3, b, seed, c, 0, 0.002);
            v[j * w + i] = lum(c);
          }
        }
        for (let j = 1; j < h - 1; j++) {
          for (let i = 1; i < w - 1; i++) {
            const ga = v[j * w + i + 1]! - v[j * w + i - 1]!;
            const gb = v[(j + 1) * w + i]! - v[(j - 1) * w + i]!;
            total += ga * ga + gb * gb;
            // A tone edge that changes more along the fibres than across them: a line crossing them at over 45 degrees.
            if (ga * ga > gb * gb) across += ga * ga + gb * gb;
          }
        }
      }
      // Rings warped by noise in the face's own axes, and pith axes leaning up to 1 in 12, put 6 to 7 % there.
      expect(across / total, `face ${face}`).toBeLessThan(0.03);
    }
  });

  it('is the same every time, with visible grain, and boards of one top differ', () => {
    expect(line((s) => [s, 0.45, 0.3], 50)).toEqual(line((s) => [s, 0.45, 0.3], 50));
    const board = (z: number) => {
      const v = line((s) => [-0.6 + s, 0.45, z], 600);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    const means = [0.02, 0.16, 0.3, 0.44, 0.58].map(board);
    expect(Math.max(...means) / Math.min(...means)).toBeGreaterThan(1.03);
    const v = line((s) => [0.4, 0.45, s], 500);
    expect(Math.max(...v) / Math.min(...v)).toBeGreaterThan(1.5);
  });

  /** Luminance along a line across the boards (local Z) at `pixel` metres a pixel, 0.5 mm a step. */
  function across(pixel: number): number[] {
    const c: Vec3 = [0, 0, 0];
    return Array.from({ length: 1400 }, (_, i) => {
      albedo(oak, 0.13, 0.45, -0.35 + i * 0.0005, 7919, c, 1, pixel);
      return lum(c);
    });
  }

  it('draws each ring as a narrow dark line, not a broad soft band that reads as a smudge', () => {
    const v = across(0.0005);
    const lo = Math.min(...v);
    const hi = Math.max(...v);
    const dark = v.filter((x) => x < (lo + hi) / 2).length / v.length;
    // Bands 45 % of each ring wide left 37 % of the line darker than halfway.
    expect(dark).toBeLessThan(0.2);
    expect(dark).toBeGreaterThan(0.02);
  });

  it('shows streaks along the grain between the rings where a camera a few metres off resolves only millimetres, not one flat colour', () => {
    for (const style of ['modern', 'traditional'] as const) {
      const wood = prepare(STYLE_DEFS[style].materials.wood!);
      const c: Vec3 = [0, 0, 0];
      let sum = 0;
      for (let k = 0; k < 8; k++) {
        // Up a cabinet's front, across its grain, a millimetre a step, seen at 2.5 mm a pixel
        // and softened over 5 mm as a photo is.
        const v = Array.from({ length: 400 }, (_, i) => {
          albedo(wood, -0.3 + k * 0.09, i * 0.001, 0.2, 7919, c, 2, 0.0025);
          return lum(c);
        });
        const soft = v.map((_, i) => {
          const near = v.slice(Math.max(0, i - 2), i + 3);
          return near.reduce((a, b) => a + b, 0) / near.length;
        });
        // The median change in tone over 7 mm, as a share of the tone.
        const steps = soft.slice(0, -7).map((t, i) => (2 * Math.abs(soft[i + 7]! - t)) / (t + soft[i + 7]!));
        sum += steps.sort((a, b) => a - b)[Math.floor(steps.length / 2)]!;
      }
      // With the rings and the fine fibres alone it was 3.8 % (modern) and 4.2 % (traditional).
      expect(sum / 8, style).toBeGreaterThan(0.05);
    }
  });

  it('averages rings a pixel cannot resolve to their mean tone, neither flickering nor turning lighter', () => {
    const sharp = across(0.0005);
    const far = across(0.03);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const sd = (v: number[]) => Math.sqrt(mean(v.map((x) => (x - mean(v)) ** 2)));
    expect(Math.abs(mean(far) / mean(sharp) - 1)).toBeLessThan(0.03);
    expect(sd(far)).toBeLessThan(0.5 * sd(sharp));
  });
});

describe('texture coordinates', () => {
  it('run along a leg, so its grain runs up it, and across a round top', () => {
    const spread = (m: { locals: Float32Array }, axis: number) => {
      const v = Array.from(m.locals).filter((_, i) => i % 3 === axis);
      return Math.max(...v) - Math.min(...v);
    };
    const leg = new MeshBuilder();
    leg.cylinder(0.3, 0.2, 0.02, 0, 0.7, 0);
    expect(spread(leg.build(), 0)).toBeCloseTo(0.7, 5);
    const top = new MeshBuilder();
    top.cylinder(0, 0, 0.5, 0.7, 0.74, 0);
    expect(spread(top.build(), 0)).toBeCloseTo(1, 5);
  });

  it("of wooden boxes and rods run along each part's length, so a rail from front to back is not striped across; other materials keep the piece's axes", () => {
    const spread = (m: { locals: Float32Array }, axis: number) => {
      const v = Array.from(m.locals).filter((_, i) => i % 3 === axis);
      return Math.max(...v) - Math.min(...v);
    };
    const part = (build: (b: MeshBuilder, material: number) => void, grained: boolean) => {
      const b = new MeshBuilder();
      if (grained) b.grained.add(0);
      build(b, 0);
      return b.build();
    };
    const rail = (b: MeshBuilder, m: number) => b.roundedBox([0.3, 0.55, 0], [0.035, 0.02, 0.37], 0.01, m);
    const post = (b: MeshBuilder, m: number) => b.box([0, 0.3, 0], [0.02, 0.3, 0.02], m);
    const slanted = (b: MeshBuilder, m: number) => b.rod([0, 0.26, 0.3], [0.02, 0.54, 0.28], 0.012, m);
    expect(spread(part(rail, true), 0)).toBeCloseTo(0.74, 5);
    expect(spread(part(post, true), 0)).toBeCloseTo(0.6, 5);
    expect(spread(part(slanted, true), 0)).toBeGreaterThan(0.28);
    // A cushion's or a rug's texture (its pattern's border) keeps the piece's own axes.
    expect(spread(part(rail, false), 0)).toBeCloseTo(0.07, 5);
    expect(spread(part(post, false), 0)).toBeCloseTo(0.04, 5);
  });
});

describe('leaves', () => {
  const lum = (c: Vec3) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const green = prepare(STYLE_DEFS.modern.materials.leaf);
  const at = (t: number, across: number, id: number): number => {
    const c: Vec3 = [0, 0, 0];
    albedo(green, t, across, id, 7919, c);
    return lum(c);
  };

  it('vary in tone from leaf to leaf, the same way every time, and are darker deep in the crown', () => {
    const tones = Array.from({ length: 40 }, (_, i) => at(0.5, 0.5, leafId(i, 1)));
    expect(Array.from({ length: 40 }, (_, i) => at(0.5, 0.5, leafId(i, 1)))).toEqual(tones);
    expect(Math.max(...tones) / Math.min(...tones)).toBeGreaterThan(1.5);
    for (let i = 0; i < 40; i++) expect(at(0.5, 0.5, leafId(i, 0))).toBeLessThan(0.7 * at(0.5, 0.5, leafId(i, 1)));
  });

  it('have a paler midrib than the blade and a darker margin', () => {
    for (let i = 0; i < 20; i++) {
      const id = leafId(i, 1);
      expect(at(0.3, 0, id)).toBeGreaterThan(at(0.3, 0.45, id));
      expect(at(0.3, 0.98, id)).toBeLessThan(at(0.3, 0.45, id));
    }
  });
});

describe('rugs', () => {
  const lum = (c: Vec3) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const sat = (c: Vec3) => (Math.max(...c) - Math.min(...c)) / Math.max(1e-6, Math.max(...c));
  /** The rug's albedo over a 30 cm square of its field, on a 5 mm grid. */
  function field(m: Material, seed: number): Vec3[] {
    const pm = prepare({ ...m, half: [1.2, 0.85] });
    const out: Vec3[] = [];
    for (let i = 0; i < 60; i++) for (let j = 0; j < 60; j++) {
      const c: Vec3 = [0, 0, 0];
      albedo(pm, 0.3 + i * 0.005, 0.01, 0.2 + j * 0.005, seed, c);
      out.push(c);
    }
    return out;
  }

  it('have a pile: a flat-coloured rug varies by a few per cent at the scale of tufts, the same way every time', () => {
    const plain: Material = { kind: 'rug', color: [0.6, 0.6, 0.6], spec: 0, shininess: 1, pattern: 2 };
    const a = field({ ...plain, color2: plain.color, color3: plain.color }, 7).map(lum);
    expect(field({ ...plain, color2: plain.color, color3: plain.color }, 7).map(lum)).toEqual(a);
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    const sd = Math.sqrt(a.reduce((s, v) => s + (v - mean) ** 2, 0) / a.length);
    expect(sd / mean).toBeGreaterThan(0.03);
    expect(sd / mean).toBeLessThan(0.15);
    // Neighbours 5 mm apart differ: grain, not only a slow cloud.
    let step = 0;
    for (let i = 1; i < a.length; i++) step += Math.abs(a[i]! - a[i - 1]!);
    expect(step / a.length / mean).toBeGreaterThan(0.02);
  });

  it('show their tufting rows: averaged along a row the tone holds, averaged across the rows it evens out', () => {
    const plain: Material = { kind: 'rug', color: [0.6, 0.6, 0.6], color2: [0.6, 0.6, 0.6], color3: [0.6, 0.6, 0.6], spec: 0, shininess: 1, pattern: 2 };
    const a = field(plain, 7).map(lum);
    // Means over 4 cm (8 samples): along X, which the rows run, and along Z, across them.
    const sd = (v: number[]) => {
      const m = v.reduce((s, x) => s + x, 0) / v.length;
      return Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / v.length);
    };
    const alongRows: number[] = [];
    const acrossRows: number[] = [];
    for (let i = 0; i + 8 <= 60; i += 2) {
      for (let j = 0; j < 60; j++) {
        let x = 0;
        let z = 0;
        for (let k = 0; k < 8; k++) {
          x += a[(i + k) * 60 + j]!;
          z += a[j * 60 + i + k]!;
        }
        alongRows.push(x / 8);
        acrossRows.push(z / 8);
      }
    }
    expect(sd(alongRows)).toBeGreaterThan(1.4 * sd(acrossRows));
  });

  it('are less saturated than their dyes', () => {
    const m = STYLE_DEFS.traditional.materials.rug;
    const red = prepare({ ...m, color2: m.color, color3: m.color, half: [1.2, 0.85] });
    const c: Vec3 = [0, 0, 0];
    albedo(red, 0.3, 0.01, 0.2, 7, c);
    expect(sat(c)).toBeLessThan(sat(red.c1) - 0.05);
  });

  it('of the traditional kind change shade in bands along their length, as wool dyed in batches does (abrash)', () => {
    const m = STYLE_DEFS.traditional.materials.rug;
    const plain = prepare({ ...m, color2: m.color, color3: m.color, half: [1.2, 0.85] });
    const c: Vec3 = [0, 0, 0];
    // Strips across the rug, 5 cm wide, every 10 cm along its length (X, the longer side).
    const strips = Array.from({ length: 19 }, (_, i) => {
      let sum = 0;
      for (let j = 0; j < 100; j++) {
        albedo(plain, -0.9 + i * 0.1 + (j % 5) * 0.01, 0.01, -0.5 + Math.floor(j / 5) * 0.05, 7, c);
        sum += lum(c);
      }
      return sum / 100;
    });
    expect(Math.max(...strips) / Math.min(...strips)).toBeGreaterThan(1.06);
    const again = prepare({ ...m, color2: m.color, color3: m.color, half: [1.2, 0.85] });
    albedo(again, 0.31, 0.01, 0.2, 7, c);
    const first = [...c];
    albedo(again, 0.31, 0.01, 0.2, 7, c);
    expect(c).toEqual(first);
  });

  it('of the modern kind repeat a trellis in two tones, so the steps read as a design, not as a stain or a shadow', () => {
    const pm = prepare({ ...STYLE_DEFS.modern.materials.rug, half: [1.2, 0.85] });
    const c: Vec3 = [0, 0, 0];
    // Luminance along a line across the rug's field, 1 cm a step, each the mean of 1 cm square.
    const line = Array.from({ length: 150 }, (_, i) => {
      let sum = 0;
      for (let k = 0; k < 4; k++) {
        albedo(pm, -0.75 + i * 0.01 + (k % 2) * 0.005, 0.01, 0.13 + Math.floor(k / 2) * 0.005, 7, c);
        sum += lum(c);
      }
      return sum / 4;
    });
    expect(Math.max(...line) / Math.min(...line)).toBeGreaterThan(1.12);
    // It comes back every 28 cm: the tone one period on follows the tone here.
    const mean = line.reduce((a, b) => a + b) / line.length;
    const d = line.map((v) => v - mean);
    const corr = (lag: number) => {
      let ab = 0;
      let aa = 0;
      let bb = 0;
      for (let i = 0; i + lag < d.length; i++) {
        ab += d[i]! * d[i + lag]!;
        aa += d[i]! ** 2;
        bb += d[i + lag]! ** 2;
      }
      return ab / Math.sqrt(aa * bb);
    };
    // Its thin lines wander as tufted, which blurs the match a little; half a period on, the tones are opposed.
    expect(corr(28)).toBeGreaterThan(0.4);
    expect(corr(28) - corr(14)).toBeGreaterThan(0.5);
  });

  it('of the traditional kind are knotted on warps whose ends lie past its short ends as a fringe, paler than its cream; the other kinds have none', () => {
    const size = pieceSize('rug', STYLE_DEFS.traditional);
    const build = (style: keyof typeof STYLE_DEFS) => {
      const b = new MeshBuilder();
      BUILDERS.rug({ b, style: STYLE_DEFS[style], mat: () => 0, rng: mulberry32(1), ceiling: 2.5, lift: 0 }, size);
      return b.build();
    };
    const reach = (m: ReturnType<typeof build>) => {
      let [x, z, y] = [0, 0, 0];
      for (let i = 0; i < m.positions.length; i += 3) {
        x = Math.max(x, Math.abs(m.positions[i]!));
        z = Math.max(z, Math.abs(m.positions[i + 2]!));
        if (Math.abs(m.positions[i]!) > size.w / 2 + 0.001) y = Math.max(y, m.positions[i + 1]!);
      }
      return { x, z, y };
    };
    const fringed = reach(build('traditional'));
    expect(build('traditional').positions).toEqual(build('traditional').positions);
    // A hand's length past each end, flat on the floor, and not past the sides.
    expect(fringed.x).toBeGreaterThan(size.w / 2 + 0.05);
    expect(fringed.x).toBeLessThan(size.w / 2 + 0.1);
    expect(fringed.z).toBeLessThan(size.d / 2 + 0.03);
    expect(fringed.y).toBeLessThan(0.005);
    for (const style of ['modern', 'minimalist', 'luxury'] as const) expect(reach(build(style)).x).toBeCloseTo(size.w / 2, 6);
    const pm = prepare({ ...STYLE_DEFS.traditional.materials.rug, half: [size.w / 2, size.d / 2] });
    const c: Vec3 = [0, 0, 0];
    for (let k = 0; k < 20; k++) {
      albedo(pm, size.w / 2 + 0.01 + k * 0.003, 0.002, -0.5 + k * 0.05, 7, c);
      expect(lum(c)).toBeGreaterThan(1.1 * lum(pm.c3));
    }
  });

  it('of the traditional kind are woven in four colours, each a good share of the rug: its red, navy, cream and gold', () => {
    const size = pieceSize('rug', STYLE_DEFS.traditional);
    const m = STYLE_DEFS.traditional.materials.rug;
    const pm = prepare({ ...m, half: [size.w / 2, size.d / 2] });
    const hue = (c: Vec3) => {
      const s = c[0] + c[1] + c[2];
      return [c[0] / s, c[1] / s, c[2] / s] as Vec3;
    };
    // The dyes' chromaticities after the pile's desaturation, which keeps a colour's hue.
    const dyes = [pm.c1, pm.c2, pm.c3, pm.c4].map((d) => {
      const l = lum(d);
      return hue([l + (d[0] - l) * 0.75, l + (d[1] - l) * 0.75, l + (d[2] - l) * 0.75]);
    });
    const counts = [0, 0, 0, 0];
    const c: Vec3 = [0, 0, 0];
    let n = 0;
    for (let x = -size.w / 2 + 0.005; x < size.w / 2; x += 0.01) {
      for (let z = -size.d / 2 + 0.005; z < size.d / 2; z += 0.01) {
        albedo(pm, x, 0.01, z, 7, c);
        const h = hue(c);
        const d = dyes.map((e) => Math.hypot(h[0] - e[0], h[1] - e[1], h[2] - e[2]));
        counts[d.indexOf(Math.min(...d))]!++;
        n++;
      }
    }
    for (const k of counts) expect(k / n).toBeGreaterThan(0.03);
  });

  it('are darker at their edge than in their field', () => {
    const pm = prepare({ kind: 'rug', color: [0.6, 0.6, 0.6], spec: 0, shininess: 1, pattern: 2, half: [1.2, 0.85] });
    const mean = (x: number) => {
      let s = 0;
      const c: Vec3 = [0, 0, 0];
      for (let k = 0; k < 100; k++) {
        albedo(pm, x, 0.01, -0.5 + k * 0.01, 7, c);
        s += lum(c);
      }
      return s / 100;
    };
    expect(mean(1.195)).toBeLessThan(0.85 * mean(1.1));
  });
});

describe("a finish's reflection of the room", () => {
  it('runs smoothly between the environment map\'s texels, and is each texel\'s own at its centre', () => {
    // A checkerboard of black and white texels: the hardest map to interpolate.
    const map = new Float32Array(ENV_W * ENV_H * 3);
    for (let j = 0; j < ENV_H; j++) for (let i = 0; i < ENV_W; i++) map.fill((i + j) % 2, (j * ENV_W + i) * 3, (j * ENV_W + i) * 3 + 3);
    // Each finish its own map: polished metal the room itself, the others its blurred copies.
    const radiance = { env: map, glossy: map.map((v) => 1 - v), satin: map.map((v) => 0.5 + v / 4) } as RoomRadiance;
    const out: Vec3 = [0, 0, 0];
    for (const [i, j] of [[3, 5], [32, 16], [63, 0], [0, 31]] as const) {
      const c = (i + j) % 2;
      reflectedLight(radiance, texelDirection(i, j), 'polished', out);
      expect(out[0]).toBeCloseTo(c, 5);
      reflectedLight(radiance, texelDirection(i, j), 'glossy', out);
      expect(out[0]).toBeCloseTo(1 - c, 5);
      reflectedLight(radiance, texelDirection(i, j), 'satin', out);
      expect(out[0]).toBeCloseTo(0.5 + c / 4, 5);
    }
    // Sweeps of 20 degrees in quarter degrees (a texel is 5.6 degrees): ahead, diagonally; across
    // the map's seam straight behind; over the zenith, where every column meets.
    const sweeps: Array<(a: number) => Vec3> = [
      (a) => [Math.sin(a) * Math.cos(a / 2), Math.sin(0.3 + a / 2), Math.cos(a) * Math.cos(a / 2)],
      (a) => [Math.sin(a) * Math.cos(0.2), Math.sin(0.2), -Math.cos(a) * Math.cos(0.2)],
      (a) => [Math.sin(a) * 0.3, Math.cos(a), 0.1],
    ];
    for (const [s, sweep] of sweeps.entries()) {
      let previous: number | null = null;
      let largest = 0;
      for (let k = 0; k <= 80; k++) {
        const d = sweep(((k * 0.25 - 10) * Math.PI) / 180);
        const l = Math.hypot(...d);
        reflectedLight(radiance, [d[0] / l, d[1] / l, d[2] / l], 'polished', out);
        if (previous !== null) largest = Math.max(largest, Math.abs(out[0] - previous));
        previous = out[0];
      }
      expect(largest, `sweep ${s}`).toBeLessThan(0.15);
    }
  });
});

/** A fixture photo and the room analysed in it at the pipeline's analysis size. */
async function fixtureRoom(path: string) {
  const photo = await decodeImage(readFileSync(fileURLToPath(new URL(path, import.meta.url))));
  const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
  return { photo, room: analyseRoom(await resizeRgb(photo, a.width, a.height)) };
}

describe('a satin wood top seen at a grazing angle', () => {
  it('keeps its wood colour under the room it reflects', async () => {
    // The Pruna room's camera stands 0.94 m high: its coffee table's top is seen 8-10 degrees from edge on.
    const { photo, room } = await fixtureRoom('../fixtures/generative/empty-room-pruna-before.jpg');
    const { width, height } = fitSize(photo.width, photo.height, 800);
    const saturation = (c: number[]) => (c[0]! - c[2]!) / (c[0]! + c[1]! + c[2]!);
    for (const style of ['modern', 'traditional'] as const) {
      const def = STYLE_DEFS[style];
      const placed = layoutRoom(room, 'living_room', def);
      const table = placed.find((p) => p.kind === 'coffeeTable')!;
      const { layer } = renderFurniture(room, placed, style, def, 'living_room', width, height);
      // The middle of the top, between the books and the bowl.
      const q = room.camera.scaled(width, height).project([table.x, table.size.h, table.z]);
      const c = [0, 0, 0];
      for (let dv = -1; dv <= 1; dv++) {
        for (let du = -1; du <= 1; du++) {
          const i = (Math.floor(q.v) + dv) * width + Math.floor(q.u) + du;
          for (let k = 0; k < 3; k++) c[k]! += layer.color[i * 3 + k]! / 9;
        }
      }
      // Some of the wood's own saturation survives the white room's sheen: the traditional top
      // kept a tenth with a mirror's rise in reflection towards the grazing view.
      expect(saturation(c) / saturation(toLinear(def.materials.top!.color)), style).toBeGreaterThan(0.15);
    }
  });
});

describe('a lit lamp shade', () => {
  it('glows less towards its outline than where it faces the camera, and most on its inside: the Pruna room, modern', async () => {
    const { photo, room } = await fixtureRoom('../fixtures/generative/empty-room-pruna-before.jpg');
    const { width, height } = fitSize(photo.width, photo.height, 800);
    const def = STYLE_DEFS.modern;
    const unlit = { ...def, materials: { ...def.materials, shade: { ...def.materials.shade!, glow: 0 } } };
    const placed = layoutRoom(room, 'living_room', def);
    const lamp = placed.find((p) => p.kind === 'floorLamp')!;
    const lit = renderFurniture(room, placed, 'modern', def, 'living_room', width, height).layer;
    const dark = renderFurniture(room, placed, 'modern', unlit, 'living_room', width, height).layer;
    const cam = room.camera.scaled(width, height);
    // The shade's glow at a point of its drum (radius 22 cm, from 36 cm below the lamp's top): the
    // lit render's light less the unlit one's.
    const glowAt = (i: number) =>
      luminance(lit.color[i * 3]!, lit.color[i * 3 + 1]!, lit.color[i * 3 + 2]!) - luminance(dark.color[i * 3]!, dark.color[i * 3 + 1]!, dark.color[i * 3 + 2]!);
    const glow = (turn: number, y: number) => {
      const angle = Math.atan2(-lamp.z, -lamp.x) + turn;
      const q = cam.project([lamp.x + Math.cos(angle) * 0.22, y, lamp.z + Math.sin(angle) * 0.22]);
      return glowAt(Math.round(q.v) * width + Math.round(q.u));
    };
    const middle = lamp.size.h - 0.18;
    expect(glow(0, middle) / glow(1.3, middle)).toBeGreaterThan(1.15);
    // The camera stands below the shade: over its open bottom a sliver of the drum's far side is seen from within.
    const top = cam.project([lamp.x, lamp.size.h, lamp.z]);
    const bottom = cam.project([lamp.x, lamp.size.h - 0.36, lamp.z]);
    let most = 0;
    for (let v = Math.floor(top.v); v <= Math.ceil(bottom.v) + 2; v++) {
      for (let u = Math.floor(top.u) - 15; u <= Math.ceil(top.u) + 15; u++) most = Math.max(most, glowAt(v * width + u));
    }
    expect(most / glow(0, middle)).toBeGreaterThan(1.5);
  });

  it('glows evenly across its face, cloth stretched taut on its frame: no bumps lit from inside like stains', async () => {
    const { photo, room } = await fixtureRoom('../fixtures/rooms/empty-open-plan-living-dining.jpg');
    const { width, height } = fitSize(photo.width, photo.height, 1600);
    const def = STYLE_DEFS.modern;
    const placed = layoutRoom(room, 'living_room', def);
    const lamp = placed.find((p) => p.kind === 'floorLamp')!;
    const { color } = renderFurniture(room, placed, 'modern', def, 'living_room', width, height).layer;
    const cam = room.camera.scaled(width, height);
    // The part of the drum facing the camera, away from its rims and its outline.
    const facing = Math.atan2(-lamp.z, -lamp.x);
    const samples: number[] = [];
    for (let turn = -0.4; turn <= 0.4; turn += 0.1) {
      for (let y = lamp.size.h - 0.28; y <= lamp.size.h - 0.08; y += 0.025) {
        const q = cam.project([lamp.x + Math.cos(facing + turn) * 0.22, y, lamp.z + Math.sin(facing + turn) * 0.22]);
        const i = Math.round(q.v) * width + Math.round(q.u);
        samples.push(luminance(color[i * 3]!, color[i * 3 + 1]!, color[i * 3 + 2]!));
      }
    }
    expect(Math.min(...samples) / Math.max(...samples)).toBeGreaterThan(0.85);
  });
});

describe('velvet', () => {
  it("has a pile that leans one way and another in patches a hand or two across, the same way every time", () => {
    const at = (x: number) => pileLean(x, 0.4, 0.1, 7);
    expect(at(0.3)).toBe(pileLean(0.3, 0.4, 0.1, 7));
    const xs = Array.from({ length: 400 }, (_, i) => i * 0.01);
    const values = xs.map(at);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const spread = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    expect(spread).toBeGreaterThan(0.15);
    const correlation = (lag: number) => {
      let c = 0;
      for (let i = 0; i + lag < values.length; i++) c += (values[i]! - mean) * (values[i + lag]! - mean);
      return c / (values.length - lag) / spread ** 2;
    };
    // Alike within a couple of centimetres, unrelated half a metre away.
    expect(correlation(2)).toBeGreaterThan(0.8);
    expect(Math.abs(correlation(50))).toBeLessThan(0.35);
  });

  it("catches the light towards its outline as a lustre paler than its dye, not as a brighter dye: the portrait room's pouf", async () => {
    const { photo, room } = await fixtureRoom('../fixtures/rooms/empty-living-portrait.jpg');
    const { width, height } = fitSize(photo.width, photo.height, 800);
    const def = STYLE_DEFS.luxury;
    const placed = layoutRoom(room, 'living_room', def);
    const pouf = placed.find((p) => p.kind === 'pouf')!;
    const { layer } = renderFurniture(room, placed, 'luxury', def, 'living_room', width, height);
    const cam = room.camera.scaled(width, height);
    // Half way up its side: where it faces the camera, and 80 degrees round from there, seen at a graze.
    const toCamera = Math.atan2(-pouf.z, -pouf.x);
    const saturation = (turn: number) => {
      const angle = toCamera + turn;
      const r = pouf.size.w / 2 - 0.02;
      const q = cam.project([pouf.x + Math.cos(angle) * r, pouf.size.h / 2, pouf.z + Math.sin(angle) * r]);
      const c = [0, 0, 0];
      for (let dv = -1; dv <= 1; dv++) {
        for (let du = -1; du <= 1; du++) {
          const i = (Math.round(q.v) + dv) * width + Math.round(q.u) + du;
          for (let k = 0; k < 3; k++) c[k]! += layer.color[i * 3 + k]! / layer.alpha[i]!;
        }
      }
      return (Math.max(...c) - Math.min(...c)) / Math.max(...c);
    };
    expect(saturation(1.4) / saturation(0)).toBeLessThan(0.9);
  });
});

describe('leather', () => {
  const hide = prepare(STYLE_DEFS.modern.materials.chairFabric!);
  const tone = (x: number, y: number, z: number, pixel = 0) => {
    const c: Vec3 = [0, 0, 0];
    albedo(hide, x, y, z, 7, c, 1, pixel);
    return luminance(c[0], c[1], c[2]);
  };

  it('is grained at the scale of a pixel, darker down its creases, the same every time', () => {
    expect(hide.m.kind).toBe('leather');
    expect(tone(0.1, 0.2, 0.3)).toBe(tone(0.1, 0.2, 0.3));
    // Neighbours 2 mm apart differ (the pebbled grain, seen at a millimetre a pixel) where the mottle alone would not.
    let step = 0;
    for (let i = 0; i < 400; i++) step += Math.abs(tone(0.1 + i * 0.002, 0.4, 0.2, 0.001) - tone(0.1 + (i + 1) * 0.002, 0.4, 0.2, 0.001));
    expect(step / 400 / tone(0.5, 0.4, 0.2)).toBeGreaterThan(0.04);
    // Down its creases (where `relief` folds it) it is darker than on its face.
    const creased: number[] = [];
    const face: number[] = [];
    for (let i = 0; i < 80; i++) {
      for (let k = 0; k < 80; k++) {
        const x = i * 0.025;
        const y = 0.3 + k * 0.0123;
        const depth = leatherCrease(x, y, 0.25, 7);
        if (depth > 0.5) creased.push(tone(x, y, 0.25));
        else if (depth < 0.02) face.push(tone(x, y, 0.25));
      }
    }
    const mean = (a: number[]) => a.reduce((t, v) => t + v, 0) / a.length;
    expect(creased.length).toBeGreaterThan(50);
    expect(mean(creased) / mean(face)).toBeLessThan(0.9);
    // And the relief tilts the surface there: the creases are shaded as well as darkened.
    const tilt: Vec3 = [0, 0, 0];
    const slope = (depth: (d: number) => boolean) => {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < 80; i++) {
        for (let k = 0; k < 80; k++) {
          const x = i * 0.025;
          const y = 0.3 + k * 0.0123;
          if (!depth(leatherCrease(x, y, 0.25, 7))) continue;
          relief('leather', x, y, 0.25, 7, tilt);
          sum += Math.hypot(...tilt);
          n++;
        }
      }
      return sum / n;
    };
    expect(slope((d) => d > 0.1 && d < 0.6)).toBeGreaterThan(1.3 * slope((d) => d === 0));
  });

  it('shines in patches a hand across and dully down its creases, not with the even sheen of vinyl', () => {
    expect(leatherSheen(0.1, 0.2, 0.3, 7)).toBe(leatherSheen(0.1, 0.2, 0.3, 7));
    const values = Array.from({ length: 300 }, (_, i) => leatherSheen(i * 0.01, 0.4, 0.2, 7));
    expect(Math.max(...values) / Math.min(...values)).toBeGreaterThan(2);
    // Alike a centimetre apart.
    let change = 0;
    for (let i = 1; i < values.length; i++) change += Math.abs(values[i]! - values[i - 1]!);
    expect(change / (values.length - 1)).toBeLessThan(0.08);
  });

  it("sews a pouf's side from panels: its cover is drawn in along each seam", () => {
    const size = pieceSize('pouf', STYLE_DEFS.modern);
    const b = new MeshBuilder();
    BUILDERS.pouf({ b, style: STYLE_DEFS.modern, mat: () => 0, rng: mulberry32(1), ceiling: 2.5, lift: 0 }, size);
    const { positions } = b.build();
    // The side's ring of vertices nearest half way up, each once, in order round the pouf.
    let nearest = Infinity;
    for (let i = 1; i < positions.length; i += 3) nearest = Math.min(nearest, Math.abs(positions[i]! - size.h * 0.45));
    const ring = new Map<string, [number, number]>();
    for (let i = 0; i < positions.length; i += 3) {
      if (Math.abs(Math.abs(positions[i + 1]! - size.h * 0.45) - nearest) > 1e-5) continue;
      const [x, z] = [positions[i]!, positions[i + 2]!];
      // Rounded to hundredths of a millimetre (minus zero prints as zero): the seam that closes the ring is one vertex.
      ring.set(`${Math.round(x * 1e5)},${Math.round(z * 1e5)}`, [Math.atan2(z, x), Math.hypot(x, z)]);
    }
    const radii = [...ring.values()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    expect(radii.length).toBeGreaterThan(60);
    // A seam: a vertex drawn in by more than 2 mm from both its neighbours, as the soft folds between never are.
    let seams = 0;
    for (let k = 0; k < radii.length; k++) {
      const at = (d: number) => radii[(k + d + radii.length) % radii.length]!;
      if (at(0) < at(-1) - 0.002 && at(0) < at(1) - 0.002) seams++;
    }
    expect(seams).toBe(8);
  });
});

describe('upholstery', () => {
  const lum = (c: Vec3) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const sofa = prepare(STYLE_DEFS.modern.materials.upholstery!);
  const N = 40;
  /**
   * A patch of a seat's luminance at `pixel` metres (5 mm) a pixel across and `stretch` times
   * that along it (a slanted view): each pixel the mean of 25 points in it (as a camera records),
   * or shaded once with the footprint the renderer gives it.
   */
  function patch(mode: 'camera' | 'shaded', stretch = 1, pixel = 0.005, cloth = sofa): number[] {
    const c: Vec3 = [0, 0, 0];
    const img: number[] = [];
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) {
        if (mode === 'shaded') {
          albedo(cloth, 0.3 + i * pixel, 0.45, 0.2 + j * pixel * stretch, 99, c, 1, texturePixel(pixel, 1, 1 / stretch), stretch);
          img.push(lum(c));
          continue;
        }
        let sum = 0;
        for (let a = 0; a < 5; a++) {
          for (let b = 0; b < 5; b++) {
            albedo(cloth, 0.3 + (i + a / 5) * pixel, 0.45, 0.2 + (j + b / 5) * pixel * stretch, 99, c);
            sum += lum(c);
          }
        }
        img.push(sum / 25);
      }
    }
    return img;
  }
  /** Each pixel less the mean of the 5 by 5 around it, row by row (N - 4 square). */
  function highPass(img: number[]): number[] {
    const out: number[] = [];
    for (let j = 2; j < N - 2; j++) {
      for (let i = 2; i < N - 2; i++) {
        let box = 0;
        for (let a = -2; a <= 2; a++) for (let b = -2; b <= 2; b++) box += img[(j + b) * N + i + a]!;
        out.push(img[j * N + i]! - box / 25);
      }
    }
    return out;
  }
  /** Grain: each pixel against the mean of the 5 by 5 around it, as a share of the mean tone. */
  function grain(img: number[]): number {
    const hp = highPass(img);
    const mean = img.reduce((a, b) => a + b, 0) / img.length;
    return Math.sqrt(hp.reduce((a, b) => a + b * b, 0) / hp.length) / mean;
  }

  it("shows a weave's grain at a listing photo's 5 mm a pixel, not a smooth moulding nor felt", () => {
    // At 0.07 the portrait room's sofa kept 1.2 % of grain pixel to pixel once softened as its
    // photo is, against 3.4 % on a generative staging of the same photo: it read as felt.
    expect(grain(patch('camera'))).toBeGreaterThan(0.09);
  });

  it("gives a plain-woven cover (the traditional sofa's) a finer grain than a tweed's, but a grain", () => {
    const plain = grain(patch('shaded', 1, 0.005, prepare(STYLE_DEFS.traditional.materials.upholstery!)));
    expect(plain).toBeLessThan(0.7 * grain(patch('shaded')));
    expect(plain).toBeGreaterThan(0.02);
  });

  it('keeps a grain a pixel or two fine at any scale: no centimetre blotches where pixels are small, no smooth moulding where they are large', () => {
    // 3 mm a pixel: a large photo's render scaled up, or a near sofa; 8 mm: a sofa across a room.
    const hp = highPass(patch('shaded', 1, 0.003));
    const m = N - 4;
    let next = 0;
    let self = 0;
    for (let j = 0; j < m; j++) {
      for (let i = 0; i + 1 < m; i++) {
        next += hp[j * m + i]! * hp[j * m + i + 1]!;
        self += hp[j * m + i]! ** 2;
      }
    }
    // Neighbouring pixels' grain alike (0.59 for the old centimetre nubs) is a blotch.
    expect(next / self).toBeLessThan(0.45);
    for (const stretch of [1, 4]) {
      const camera = grain(patch('camera', stretch, 0.008));
      const shaded = grain(patch('shaded', stretch, 0.008));
      expect(shaded, `stretch ${stretch}`).toBeGreaterThan(camera * 0.7);
      expect(shaded, `stretch ${stretch}`).toBeLessThan(camera * 1.5);
    }
  });

  it('shaded once a pixel, has the grain a camera would record there, not sparkling finer noise, face on and at a slant', () => {
    for (const stretch of [1, 4]) {
      const camera = grain(patch('camera', stretch));
      const shaded = grain(patch('shaded', stretch));
      expect(shaded, `stretch ${stretch}`).toBeGreaterThan(camera * 0.85);
      expect(shaded, `stretch ${stretch}`).toBeLessThan(camera * 1.15);
    }
  });
});

/** A render with no furniture in it: only a floor shadow keeping `shadow` of the light, and a glossy floor's `reflection`. */
function bareRender(shadow: number, reflection: RenderResult['reflection'] = null): RenderResult {
  return {
    layer: { width: 8, height: 8, color: new Float32Array(192), alpha: new Float32Array(64), depth: new Float32Array(64).fill(Infinity) },
    shadow: new Float32Array(64).fill(shadow),
    reflection,
  };
}

/** A photo `width` x `height` whose pixels are `pixel(x)`, the same down every column. */
function columnsPhoto(width: number, height: number, pixel: (x: number) => number[]) {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(pixel(i % width), i * 3);
  return { width, height, data };
}

describe('compositing onto the photo', () => {
  it('leaves every pixel the render does not touch exactly as the photo has it, and does it the same way every time', () => {
    const width = 512;
    const height = 64;
    const make = () => {
      const data = new Uint8Array(width * height * 3);
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([40 + Math.floor((x * 180) / width), 30 + (y % 7), 200 - Math.floor(x / 4)], (y * width + x) * 3);
      return { width, height, data };
    };
    // A render a eighth of the photo's size holding one lit patch and nothing else, no shadow:
    // a style's grade once moved every pixel.
    const [lw, lh] = [64, 8];
    const render: RenderResult = {
      layer: { width: lw, height: lh, color: new Float32Array(lw * lh * 3), alpha: new Float32Array(lw * lh), depth: new Float32Array(lw * lh).fill(Infinity) },
      shadow: new Float32Array(lw * lh).fill(1),
      reflection: null,
    };
    for (let y = 3; y < 5; y++) {
      for (let x = 20; x < 30; x++) {
        render.layer.alpha[y * lw + x] = 1;
        render.layer.color.set([0.5, 0.4, 0.3], (y * lw + x) * 3);
      }
    }
    const out = compositeOnto(make(), render, 3).data;
    expect(Buffer.from(compositeOnto(make(), render, 3).data).equals(Buffer.from(out))).toBe(true);
    const photo = make().data;
    // The patch, one render pixel round it for the bilinear footprint and one more for the dilation.
    const touched = (x: number, y: number) => {
      const [rx, ry] = [Math.floor(((x + 0.5) * lw) / width), Math.floor(((y + 0.5) * lh) / height)];
      return rx >= 17 && rx <= 31 && ry >= 0 && ry <= 6;
    };
    let changed = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        const same = out[i] === photo[i] && out[i + 1] === photo[i + 1] && out[i + 2] === photo[i + 2];
        if (!touched(x, y)) expect(same, `${x}, ${y}`).toBe(true);
        else if (!same) changed++;
      }
    }
    expect(changed).toBeGreaterThan(0);
  });
});

describe('compositing a shadow over a clipped sun patch', () => {
  it("darkens it to the floor's own colour, not to grey, as far as the sun it stands for allows, and leaves unclipped floor and walls as they were", () => {
    const [width, height] = [64, 64];
    // Wood in shade on the left, a sun patch the camera clipped on the right.
    const wood = [200, 130, 70];
    const sun = [252, 248, 235];
    const make = () => columnsPhoto(width, height, (x) => (x < 32 ? wood : sun));
    // A piece's shadow over everything, keeping 30 % of the light; nothing of the piece itself.
    const shadowed = bareRender(0.3);
    const linear = (v: number) => (v / 255) ** 2.2;
    const floor = (at: boolean): ClippedFloor => ({ color: [linear(wood[0]!), linear(wood[1]!), linear(wood[2]!)], at: () => at });
    const pixel = (out: Uint8Array, x: number) => Array.from(out.subarray((32 * width + x) * 3, (32 * width + x) * 3 + 3));
    const plain = compositeOnto(make(), shadowed, 1).data;
    const onFloor = compositeOnto(make(), shadowed, 1, floor(true)).data;
    const onWall = compositeOnto(make(), shadowed, 1, floor(false)).data;
    const ratio = (p: number[]) => p[0]! / Math.max(1, p[2]!);
    // Without the floor's colour the patch turns grey; with it, it is the wood in shade.
    expect(ratio(pixel(plain, 48))).toBeLessThan(1.2);
    expect(ratio(pixel(onFloor, 48))).toBeGreaterThan(2);
    // The patch stands for floor CLIPPED_GAIN times brighter than it shows (floor-light.ts), so
    // the shadow leaves it that much brighter than the same shadow over a white wall.
    const lum = (p: number[]) => 0.2126 * linear(p[0]!) + 0.7152 * linear(p[1]!) + 0.0722 * linear(p[2]!);
    expect(Math.abs(lum(pixel(onFloor, 48)) / lum(pixel(plain, 48)) / CLIPPED_GAIN - 1)).toBeLessThan(0.1);
    // A light shadow leaves it clipped, as the camera would still see it; on a wall it darkens.
    const light = bareRender(0.7);
    expect(pixel(compositeOnto(make(), light, 1, floor(true)).data, 48)).toEqual(sun);
    expect(lum(pixel(compositeOnto(make(), light, 1, floor(false)).data, 48))).toBeLessThan(0.8 * lum(sun));
    // Unclipped floor, and a clipped wall, darken as before.
    expect(pixel(onFloor, 16)).toEqual(pixel(plain, 16));
    expect(Buffer.from(onWall).equals(Buffer.from(plain))).toBe(true);
  });
});

describe('compositing a shadow over a clipped sun patch on grained wood', () => {
  it('gives the patch the grain of the floor beside it along the row, not one flat tone', () => {
    const [width, height] = [64, 16];
    // Planks 6 px wide in two tones on the left; a patch the camera clipped on the right.
    const tone = (x: number) => (Math.floor(x / 3) % 2 ? [206, 140, 80] : [170, 112, 60]);
    const photo = () => columnsPhoto(width, height, (x) => (x < 32 ? tone(x) : [252, 248, 235]));
    const shadowed = bareRender(0.3);
    const lin = (v: number) => SRGB_TO_LINEAR[v]!;
    const floor: ClippedFloor = { color: [lin(188), lin(126), lin(70)], at: () => true };
    const out = compositeOnto(photo(), shadowed, 1, floor).data;
    const red = (x: number) => out[(8 * width + x) * 3]!;
    // In the patch, the planks' two tones, one patch-width along from where they lie.
    for (let x = 36; x < 60; x++) {
      const lender = tone(x - 32)[0]!;
      const other = tone(x - 29)[0]!;
      expect(Math.abs(red(x) - red(x + 3)), `x ${x}`).toBeGreaterThan(5);
      expect(Math.sign(red(x) - red(x + 3)), `x ${x}`).toBe(Math.sign(lender - other));
    }
  });
});

describe("compositing a dark piece's reflection in a warm glossy floor", () => {
  it("darkens the floor in its own hue, as a shadow does, where taking the wall's white off every channel alike emptied the blue", () => {
    const [width, height] = [64, 64];
    const oak = [190, 135, 85];
    const photo = () => columnsPhoto(width, height, () => oak);
    const linear = (v: number) => SRGB_TO_LINEAR[v]!;
    const lum = (p: number[]) => 0.2126 * linear(p[0]!) + 0.7152 * linear(p[1]!) + 0.0722 * linear(p[2]!);
    // Mirrored black legs where the floor mirrored a white wall: the same change in every channel, a
    // third of the floor's light taken off and then all of it.
    const mirrored = (change: number) => bareRender(1, { width: 8, height: 8, color: new Float32Array(192).fill(change) });
    const pixel = (change: number) => Array.from(compositeOnto(photo(), mirrored(change), 1).data.subarray((32 * width + 32) * 3, (32 * width + 32) * 3 + 3));
    const floorLum = lum(oak);
    const third = pixel(-floorLum / 3);
    expect(lum(third) / floorLum).toBeGreaterThan(0.6);
    expect(lum(third) / floorLum).toBeLessThan(0.73);
    // The oak's hue: its channels keep their ratios (in linear light), within the 8-bit steps.
    for (const p of [third, pixel(-floorLum * 0.8)]) {
      expect(linear(p[2]!) / linear(p[0]!)).toBeGreaterThan(0.9 * (linear(oak[2]!) / linear(oak[0]!)));
      expect(linear(p[1]!) / linear(p[0]!)).toBeGreaterThan(0.9 * (linear(oak[1]!) / linear(oak[0]!)));
    }
    // Dark, not black past it; and a brighter piece's reflection still adds its light.
    expect(Math.max(...pixel(-floorLum * 2))).toBeLessThan(8);
    expect(lum(pixel(0.05))).toBeGreaterThan(floorLum);
  });

  it("takes the lost reflection from the floor in the piece's contact shadow in proportion, never to black", () => {
    const [width, height] = [64, 64];
    const oak = [190, 135, 85];
    const linear = (v: number) => SRGB_TO_LINEAR[v]!;
    const lum = (p: number[]) => 0.2126 * linear(p[0]!) + 0.7152 * linear(p[1]!) + 0.0722 * linear(p[2]!);
    const floorLum = lum(oak);
    // A dark leg's foot: its contact shadow keeps 0.3 of the floor's light, and its mirror image
    // takes off the wall's reflection, half the floor's light as the photo shows it. Taken off
    // the shadowed floor whole, that left it black.
    const render = bareRender(0.3, { width: 8, height: 8, color: new Float32Array(192).fill(-floorLum / 2) });
    const out = compositeOnto(columnsPhoto(width, height, () => oak), render, 1).data;
    const p = Array.from(out.subarray((32 * width + 32) * 3, (32 * width + 32) * 3 + 3));
    expect(lum(p) / floorLum).toBeGreaterThan(0.12);
    expect(lum(p) / floorLum).toBeLessThan(0.18);
  });
});

describe("the photo's edge blur", () => {
  /** A photo of vertical dark and light stripes 40 px wide, blurred by `sigma`, with a segment along each edge. */
  function stripes(sigma: number) {
    const width = 800;
    const height = 400;
    const plane = new Float32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) plane[y * width + x] = Math.floor(x / 40) % 2 ? 200 : 60;
    const soft = blurPlane({ width, height, data: plane }, sigma).data;
    const data = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) data.fill(Math.round(soft[i]!), i * 3, i * 3 + 3);
    const segments: Segment[] = [];
    for (let x = 40; x < width; x += 40) segments.push({ x1: x, y1: 20, x2: x, y2: height - 20, length: height - 40, angle: Math.PI / 2 });
    return { photo: { width, height, data }, segments };
  }

  it('is measured so that the furniture is blurred as much as the photo, not less', () => {
    for (const sigma of [1, 2]) {
      const { photo, segments } = stripes(sigma);
      const est = estimateEdgeBlur(photo, segments, photo.width, photo.width);
      expect(est, `sigma ${sigma}`).toBeGreaterThan(sigma * 0.85);
      expect(est, `sigma ${sigma}`).toBeLessThan(sigma * 1.15);
    }
    const crisp = stripes(0.01);
    expect(estimateEdgeBlur(crisp.photo, crisp.segments, 800, 800)).toBeLessThan(0.4);
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

describe('a chopped throw pillow', () => {
  it('has its top pressed down in the middle, its corners left as ears, and stays closed', () => {
    const top = (chop: number) => {
      const b = new MeshBuilder();
      b.pillow([0, 0.6, 0], 0.22, 0.2, 0.16, 0, 0, chop);
      const m = b.build();
      // The highest point near the middle and near the corners, upright (no lean).
      let middle = -Infinity;
      let ear = -Infinity;
      for (let i = 0; i < m.positions.length; i += 3) {
        const [x, y] = [m.positions[i]!, m.positions[i + 1]!];
        if (Math.abs(x) < 0.03) middle = Math.max(middle, y);
        if (Math.abs(x) > 0.15) ear = Math.max(ear, y);
      }
      return { middle, ear };
    };
    const plain = top(0);
    const chopped = top(1);
    // An unchopped cover's top is drawn in a little between its corners; a chop presses it 3 cm more.
    expect(plain.ear - plain.middle).toBeLessThan(0.02);
    expect(chopped.ear - chopped.middle).toBeGreaterThan(plain.ear - plain.middle + 0.03);
    expect(chopped.ear).toBeCloseTo(plain.ear, 2);
  });
});

describe('a stuffed cushion', () => {
  // A seat cushion 60 x 14 x 56 cm, crowned 2.5 cm, hollowed 2 cm towards its front left.
  const build = () => {
    const b = new MeshBuilder();
    b.roundedBox([0, 0.5, 0], [0.3, 0.07, 0.28], 0.045, 0, { crown: 0.025, dent: [-0.3, 0.2, 0.02, 0.4] });
    return b.build();
  };
  /** The top face's triangles: each one's geometric normal and the mean of its vertex normals. */
  const topFace = (m: ReturnType<typeof build>) => {
    const out: Array<{ centre: Vec3; geometric: Vec3; shaded: Vec3 }> = [];
    for (let t = 0; t < m.materials.length; t++) {
      const o = t * 9;
      const p = (k: number): Vec3 => [m.positions[o + 3 * k]!, m.positions[o + 3 * k + 1]!, m.positions[o + 3 * k + 2]!];
      const n = (k: number): Vec3 => [m.normals[o + 3 * k]!, m.normals[o + 3 * k + 1]!, m.normals[o + 3 * k + 2]!];
      const [a, b, c] = [p(0), p(1), p(2)];
      const g = normalize(cross(sub(b, a), sub(c, a)));
      // Winding differs from face to face: the geometric normal taken upwards.
      const geometric: Vec3 = g[1] < 0 ? [-g[0], -g[1], -g[2]] : g;
      const centre: Vec3 = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
      // Inside the flat part's outline, where only the puff tilts the surface.
      if (centre[1] < 0.55 || Math.abs(centre[0]) > 0.25 || Math.abs(centre[2]) > 0.23) continue;
      const [na, nb, nc] = [n(0), n(1), n(2)];
      out.push({ centre, geometric, shaded: normalize([na[0] + nb[0] + nc[0], na[1] + nb[1] + nc[1], na[2] + nb[2] + nc[2]]) });
    }
    return out;
  };

  it('is shaded as it is shaped: its normals follow the crown and the hollow, which tilt the face by degrees', () => {
    const face = topFace(build());
    expect(face.length).toBeGreaterThan(100);
    let worst = 0;
    let tilt = 0;
    for (const { geometric, shaded } of face) {
      worst = Math.max(worst, Math.acos(Math.min(1, geometric[0] * shaded[0] + geometric[1] * shaded[1] + geometric[2] * shaded[2])));
      tilt = Math.max(tilt, Math.acos(Math.min(1, geometric[1])));
    }
    expect((tilt * 180) / Math.PI).toBeGreaterThan(8);
    expect((worst * 180) / Math.PI).toBeLessThan(2);
  });

  it('is hollowed where it was sat on and crowned elsewhere', () => {
    const face = topFace(build());
    const height = (x: number, z: number) => face.reduce((best, f) => (Math.hypot(f.centre[0] - x, f.centre[2] - z) < Math.hypot(best.centre[0] - x, best.centre[2] - z) ? f : best)).centre[1];
    // The hollow's centre (-9 cm, 5.6 cm) sits lower than its mirror image across the cushion.
    expect(height(0.09, 0.056) - height(-0.09, 0.056)).toBeGreaterThan(0.01);
    expect(height(0.09, 0.056)).toBeGreaterThan(0.57 + 0.015);
  });

  it('may have piping along its seam: a cord centred half way round its rounded edge, round the corners too', () => {
    const plain = new MeshBuilder();
    plain.roundedBox([0, 0.5, 0], [0.3, 0.07, 0.28], 0.045, 0, { crown: 0 });
    const welted = new MeshBuilder();
    welted.roundedBox([0, 0.5, 0], [0.3, 0.07, 0.28], 0.045, 0, { crown: 0, welt: true });
    const a = plain.build();
    const b = welted.build();
    expect(b.materials.length).toBeGreaterThan(a.materials.length + 500);
    // The seam: 4.5 cm out from the inner box, 45 degrees up from the top face's plane. Every
    // point of the cord (after the box's own) lies its radius, 4 mm, from the seam point beside it.
    const inner: Vec3 = [0.3 - 0.045, 0.07 - 0.045, 0.28 - 0.045];
    const slant = 0.045 * Math.SQRT1_2;
    let corners = 0;
    for (let i = a.positions.length; i < b.positions.length; i += 3) {
      const p: Vec3 = [b.positions[i]!, b.positions[i + 1]! - 0.5, b.positions[i + 2]!];
      const ox = Math.sign(p[0]) * Math.max(0, Math.abs(p[0]) - inner[0]);
      const oz = Math.sign(p[2]) * Math.max(0, Math.abs(p[2]) - inner[2]);
      const l = Math.hypot(ox, oz);
      if (ox !== 0 && oz !== 0) corners++;
      const seam: Vec3 = [p[0] - ox + (slant * ox) / l, inner[1] + slant, p[2] - oz + (slant * oz) / l];
      expect(Math.hypot(p[0] - seam[0], p[1] - seam[1], p[2] - seam[2])).toBeCloseTo(0.004, 3);
    }
    expect(corners).toBeGreaterThan(100);
  });

  it('may hang its lower rim in waves (a duvet\'s hem), leaving its top as it was', () => {
    const build = (hem?: number) => {
      const b = new MeshBuilder();
      b.roundedBox([0, 0.43, 0], [0.8, 0.145, 0.8], 0.06, 0, { crown: 0.03, hem });
      return b.build();
    };
    const plain = build();
    const hung = build(0.03);
    expect(hung.positions.length).toBe(plain.positions.length);
    // The rim along one side, the lowest point at each step along it.
    const rim = (m: ReturnType<typeof build>) => {
      const lowest = new Map<number, number>();
      for (let i = 0; i < m.positions.length; i += 3) {
        if (m.positions[i]! < 0.7 || Math.abs(m.positions[i + 2]!) > 0.7) continue;
        const z = Math.round(m.positions[i + 2]! * 100);
        lowest.set(z, Math.min(lowest.get(z) ?? Infinity, m.positions[i + 1]!));
      }
      return [...lowest.values()];
    };
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    expect(spread(rim(plain))).toBeLessThan(1e-6);
    expect(spread(rim(hung))).toBeGreaterThan(0.015);
    expect(Math.min(...rim(hung))).toBeGreaterThan(0.43 - 0.145 - 0.031);
    // Above the lower round nothing moved.
    for (let i = 1; i < plain.positions.length; i += 3) if (plain.positions[i]! > 0.43 - 0.145 + 0.06) expect(hung.positions[i]).toBe(plain.positions[i]);
  });

  it("may be rumpled as loose cloth: wrinkles across its top, folds bellying out of its sides deeper towards the hem, and a layer laid over it rippling with it", () => {
    const build = (c: Vec3, h: Vec3, rumple?: number) => {
      const b = new MeshBuilder();
      b.roundedBox(c, h, 0.06, 0, { crown: 0.03, rumple });
      return b.build();
    };
    const duvet = { c: [0, 0.43, 0] as Vec3, h: [0.8, 0.145, 0.8] as Vec3 };
    const plain = build(duvet.c, duvet.h);
    const rumpled = build(duvet.c, duvet.h, 0.014);
    expect(rumpled.positions.length).toBe(plain.positions.length);
    // The side towards +X: how far each vertex stands out past the plain side, high and low on the fall.
    const out: Record<'high' | 'low', number[]> = { high: [], low: [] };
    let top = 0;
    for (let i = 0; i < plain.positions.length; i += 3) {
      const [x, y, z] = [plain.positions[i]!, plain.positions[i + 1]!, plain.positions[i + 2]!];
      if (Math.abs(x - 0.8) < 1e-6 && Math.abs(z) < 0.7) {
        (y < 0.43 ? out.low : out.high).push(Math.abs(rumpled.positions[i]! - x));
      }
      if (y > 0.5 && Math.abs(x) < 0.5 && Math.abs(z) < 0.5) top = Math.max(top, Math.abs(rumpled.positions[i + 1]! - y));
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    expect(mean(out.low)).toBeGreaterThan(0.004);
    expect(mean(out.low)).toBeGreaterThan(1.5 * mean(out.high));
    expect(top).toBeGreaterThan(0.004);
    expect(top).toBeLessThan(0.015);
    // A throw laid 1.5 cm over the duvet's foot, rumpled as much, keeps clear of it: their wrinkles are one.
    const throwTop = build([0, 0.445, 0.5], [0.82, 0.14, 0.3], 0.014);
    const under = (x: number, z: number) => {
      let y = -Infinity;
      for (let i = 0; i < rumpled.positions.length; i += 3) {
        if (Math.abs(rumpled.positions[i]! - x) < 0.021 && Math.abs(rumpled.positions[i + 2]! - z) < 0.021) y = Math.max(y, rumpled.positions[i + 1]!);
      }
      return y;
    };
    for (let i = 0; i < throwTop.positions.length; i += 3) {
      const [x, y, z] = [throwTop.positions[i]!, throwTop.positions[i + 1]!, throwTop.positions[i + 2]!];
      if (Math.abs(x) > 0.6 || z < 0.3 || z > 0.7 || y < 0.5) continue;
      expect(y).toBeGreaterThan(under(x, z));
    }
  });

  it('may be stuffed on its front as well as its top, each face following its own rise', () => {
    const b = new MeshBuilder();
    b.roundedBox([0, 0.5, 0], [0.3, 0.07, 0.28], 0.045, 0, { crown: 0.025 }, { crown: 0.012, face: 2 });
    const m = b.build();
    let front = -Infinity;
    let top = -Infinity;
    let tiltedSideways = 0;
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      if (Math.abs(x) < 0.025 && Math.abs(y - 0.5) < 0.01) front = Math.max(front, z);
      if (Math.abs(x) < 0.025 && Math.abs(z) < 0.01) top = Math.max(top, y);
      // Halfway out on the front face, the normal leans towards the side the face falls to.
      if (z > 0.28 && Math.abs(y - 0.5) < 0.01 && x > 0.12 && x < 0.18) tiltedSideways = Math.max(tiltedSideways, m.normals[i]!);
    }
    expect(front).toBeCloseTo(0.28 + 0.012, 3);
    expect(top).toBeCloseTo(0.57 + 0.025, 3);
    expect(tiltedSideways).toBeGreaterThan(0.04);
  });
});

describe('an upholstered panel (a wingback chair wing)', () => {
  it('is as thick as its rounded rim, keeps within its outline, and every face looks away from its middle', () => {
    const b = new MeshBuilder();
    const outline: Array<[number, number]> = [
      [0, 0.6],
      [0, 1.1],
      [0.2, 1.05],
      [0.28, 0.85],
      [0.15, 0.65],
    ];
    b.panel(0.35, outline, 0.04, 0);
    const m = b.build();
    const mid: Vec3 = [0.35, 0.85, 0.13];
    let x0 = Infinity;
    let x1 = -Infinity;
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      // The outline's corners are cut, so nothing reaches past its bounding box.
      expect(z).toBeGreaterThanOrEqual(-1e-6);
      expect(z).toBeLessThanOrEqual(0.28 + 1e-6);
      expect(y).toBeGreaterThanOrEqual(0.6 - 1e-6);
      expect(y).toBeLessThanOrEqual(1.1 + 1e-6);
      expect(Math.hypot(m.normals[i]!, m.normals[i + 1]!, m.normals[i + 2]!)).toBeCloseTo(1, 5);
      const out = (x - mid[0]) * m.normals[i]! + (y - mid[1]) * m.normals[i + 1]! + (z - mid[2]) * m.normals[i + 2]!;
      expect(out).toBeGreaterThanOrEqual(-1e-6);
    }
    expect(x1 - x0).toBeCloseTo(0.08, 5);
  });
});

describe('a leaf', () => {
  /** A leaf 30 cm long and 10 cm wide along +X, level: its vertices (along, across, up) and normals. */
  function blade(widest?: number) {
    const b = new MeshBuilder();
    leaf(b, [0, 0, 0], [1, 0, 0], 0.3, 0.1, 0, leafId(0, 1), widest);
    const m = b.build();
    const points: Vec3[] = [];
    for (let i = 0; i < m.positions.length; i += 3) points.push([m.positions[i]!, m.positions[i + 2]!, m.positions[i + 1]!]);
    return { points, normals: Array.from({ length: m.normals.length / 3 }, (_, i) => m.normals[3 * i + 1]!) };
  }

  it('has a smooth outline, fullest where asked, within its width, and faces up', () => {
    for (const widest of [0.4, 0.62]) {
      const { points, normals } = blade(widest);
      // One half's outline: its farthest point across at each station along it, base to tip.
      const stations = new Map<number, number>();
      for (const [x, z] of points) if (z > 1e-6) stations.set(Math.round(x * 1e5), Math.max(stations.get(Math.round(x * 1e5)) ?? 0, z));
      const outline: Array<[number, number]> = [[0, 0], ...[...stations.entries()].sort((a, b) => a[0] - b[0]).map(([x, z]): [number, number] => [x / 1e5, z]), [0.3, 0]];
      // Two flat halves of a kite turned 38 degrees at their one corner.
      expect(outline.length - 2).toBeGreaterThanOrEqual(3);
      for (let k = 2; k < outline.length - 2; k++) {
        const [a, b2, c] = [outline[k - 1]!, outline[k]!, outline[k + 1]!];
        const turn = Math.abs(Math.atan2(c[1] - b2[1], c[0] - b2[0]) - Math.atan2(b2[1] - a[1], b2[0] - a[0]));
        expect(turn, `widest ${widest}, station ${k}`).toBeLessThan((30 * Math.PI) / 180);
      }
      const full = outline.reduce((m, p) => (p[1] > m[1] ? p : m));
      expect(full[1]).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(full[1]).toBeGreaterThan(0.045);
      expect(Math.abs(full[0] / 0.3 - widest)).toBeLessThan(0.17);
      for (const ny of normals) expect(ny).toBeGreaterThan(0.3);
    }
  });
});

describe("a dining table's centrepiece", () => {
  it('holds every leaf on a twig rising from the vase, not floating over it', () => {
    for (const style of STYLES) {
      const b = new MeshBuilder();
      BUILDERS.diningTable({ b, style: STYLE_DEFS[style], mat: (r) => (r === 'leaf' ? 1 : r === 'trunk' ? 2 : 0), rng: mulberry32(3), ceiling: 2.5, lift: 0 }, pieceSize('diningTable', STYLE_DEFS[style]));
      const m = b.build();
      // The twigs' triangles' edges (a rod's run along it), and the leaves' middles.
      const edges: Array<[Vec3, Vec3]> = [];
      const leaves: Vec3[] = [];
      const vertex = (t: number, k: number): Vec3 => [m.positions[9 * t + 3 * k]!, m.positions[9 * t + 3 * k + 1]!, m.positions[9 * t + 3 * k + 2]!];
      for (let t = 0; t < m.materials.length; t++) {
        const [a, b2, c] = [vertex(t, 0), vertex(t, 1), vertex(t, 2)];
        if (m.materials[t] === 2) edges.push([a, b2], [b2, c], [c, a]);
        if (m.materials[t] === 1) leaves.push([0, 1, 2].map((k) => (a[k]! + b2[k]! + c[k]!) / 3) as Vec3);
      }
      const gap = (p: Vec3, [a, e]: [Vec3, Vec3]) => {
        const ab = sub(e, a);
        const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1] + (p[2] - a[2]) * ab[2]) / Math.max(1e-12, ab[0] ** 2 + ab[1] ** 2 + ab[2] ** 2)));
        return Math.hypot(p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1], p[2] - a[2] - t * ab[2]);
      };
      expect(leaves.length, style).toBeGreaterThan(20);
      // A leaf is 4.4 cm long, its middle 1.8 cm off the twig.
      for (const leaf of leaves) expect(Math.min(...edges.map((e) => gap(leaf, e))), style).toBeLessThan(0.045);
    }
  });
});

describe('a tufted face', () => {
  it('is drawn into a dimple at each button and puffed up in the diamonds between, tessellated finer than a plain face', () => {
    const b = new MeshBuilder();
    b.roundedBox([0, 0, 0], [0.35, 0.45, 0.1], 0.04, 0, { crown: 0, face: 2, tufted: true });
    const m = b.build();
    // The front face's height (z) nearest a point of it: a button stands at the middle, a diamond's middle half a row's step to the side.
    const front = (x: number, y: number) => {
      let best = { d: Infinity, z: 0 };
      for (let i = 0; i < m.positions.length; i += 3) {
        if (m.normals[i + 2]! < 0.3 || m.positions[i + 2]! < 0.05) continue;
        const d = Math.hypot(m.positions[i]! - x, m.positions[i + 1]! - y);
        if (d < best.d) best = { d, z: m.positions[i + 2]! };
      }
      return best.z;
    };
    expect(front(0.085, 0) - front(0.0, 0.0)).toBeGreaterThan(0.03);
    expect(front(0.085, 0) - front(0.0425, 0.065)).toBeGreaterThan(0.02);
    const plain = new MeshBuilder();
    plain.roundedBox([0, 0, 0], [0.35, 0.45, 0.1], 0.04, 0, { crown: 0, face: 2 });
    expect(m.positions.length).toBeGreaterThan(plain.build().positions.length);
  });
});

describe('a wingback armchair', () => {
  const size = pieceSize('armchair', STYLE_DEFS.traditional);
  const build = () => {
    const b = new MeshBuilder();
    BUILDERS.armchair({ b, style: STYLE_DEFS.traditional, mat: () => 0, rng: mulberry32(1), ceiling: 2.5, lift: 0 }, size);
    return b.build();
  };

  it('keeps within its width and depth, the same every time', () => {
    const m = build();
    expect(build().positions).toEqual(m.positions);
    let [x, z, y] = [0, 0, Infinity];
    for (let i = 0; i < m.positions.length; i += 3) {
      x = Math.max(x, Math.abs(m.positions[i]!));
      z = Math.max(z, Math.abs(m.positions[i + 2]!));
      y = Math.min(y, m.positions[i + 1]!);
    }
    expect(x).toBeLessThanOrEqual(size.w / 2 + 1e-6);
    expect(z).toBeLessThanOrEqual(size.d / 2 + 1e-6);
    expect(y).toBeGreaterThanOrEqual(-1e-6);
  });

  it.each(['armchair', 'sofa'] as const)("fronts each arm of the traditional %s with a flat panel in the scroll's outline: down to the legs, and round the roll where it stands out past the side", (kind) => {
    const b = new MeshBuilder();
    const piece = pieceSize(kind, STYLE_DEFS.traditional);
    BUILDERS[kind]({ b, style: STYLE_DEFS.traditional, mat: () => 0, rng: mulberry32(1), ceiling: 2.5, lift: 0 }, piece);
    const m = b.build();
    for (const side of [-1, 1]) {
      let wall = 0;
      const front: Array<[number, number]> = [];
      for (let i = 0; i < m.positions.length; i += 3) {
        const x = side * m.positions[i]!;
        const y = m.positions[i + 1]!;
        if (y > 0.15 && y < 0.45 && side * m.normals[i]! > 0.95) wall = Math.max(wall, x);
        if (m.normals[i + 2]! > 0.99 && m.positions[i + 2]! > piece.d / 2 - 0.03 && x > piece.w / 2 - 0.12) front.push([x, y]);
      }
      expect(Math.min(...front.map(([, y]) => y)), `side ${side}`).toBeLessThan(0.2);
      expect(front.filter(([x, y]) => y > 0.5 && x > wall + 0.01).length, `side ${side}`).toBeGreaterThan(3);
    }
  });

  it('has arm rolls standing out past the sides below them, so a shade runs under each', () => {
    const p = build().positions;
    // Half the chair's width at each height band: at the roll (the arm's top) and below it.
    const widest = (y0: number, y1: number) => {
      let x = 0;
      for (let i = 0; i < p.length; i += 3) if (p[i + 1]! >= y0 && p[i + 1]! <= y1) x = Math.max(x, Math.abs(p[i]!));
      return x;
    };
    expect(widest(0.6, 0.68) - widest(0.15, 0.5)).toBeGreaterThan(0.03);
  });
});

describe('a round rod', () => {
  it('is a tube whose normals turn round its axis, so its highlight runs along it, not across a flat face', () => {
    const b = new MeshBuilder();
    b.rod([0, 0, 0], [0, 0.5, 0], 0.012, 0, true);
    const m = b.build();
    const around = new Set<string>();
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, z] = [m.positions[i]!, m.positions[i + 2]!];
      const n: Vec3 = [m.normals[i]!, m.normals[i + 1]!, m.normals[i + 2]!];
      // On the tube's surface, its normal pointing straight out from the axis.
      expect(Math.hypot(x, z)).toBeCloseTo(0.012, 6);
      expect(n[1]).toBeCloseTo(0, 6);
      expect(n[0] * z - n[2] * x).toBeCloseTo(0, 6);
      expect(n[0] * x + n[2] * z).toBeGreaterThan(0);
      around.add(`${n[0].toFixed(3)} ${n[2].toFixed(3)}`);
    }
    expect(around.size).toBeGreaterThanOrEqual(10);
  });
});

describe('a turned surface whose section changes as it turns', () => {
  it('takes its normals from the surface: out from a drum\'s side, up where its top closes to the axis', () => {
    const b = new MeshBuilder();
    // A drum 0.2 m round and 0.3 m tall whose flat top closes to the axis.
    b.revolve(0, 0, (_, t) => (t <= 0.5 ? [0.2, 0.6 * t] : [0.2 * (2 - 2 * t), 0.3]), 20, 32, 0);
    const m = b.build();
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      const n: Vec3 = [m.normals[i]!, m.normals[i + 1]!, m.normals[i + 2]!];
      expect(Math.hypot(...n)).toBeCloseTo(1, 6);
      if (y < 0.28) expect(n[0] * x + n[2] * z, `${x} ${y} ${z}`).toBeCloseTo(0.2, 2);
      if (y > 0.3 - 1e-9 && Math.hypot(x, z) < 0.18) expect(n[1]).toBeCloseTo(1, 3);
    }
  });
});

describe('a pouf', () => {
  const size = pieceSize('pouf', STYLE_DEFS.luxury);
  const build = () => {
    const b = new MeshBuilder();
    BUILDERS.pouf({ b, style: STYLE_DEFS.luxury, mat: () => 0, rng: mulberry32(1), ceiling: 2.5, lift: 0 }, size);
    return b.build();
  };

  it('keeps within its size, the same every time', () => {
    const m = build();
    expect(build().positions).toEqual(m.positions);
    for (let i = 0; i < m.positions.length; i += 3) {
      expect(Math.hypot(m.positions[i]!, m.positions[i + 2]!)).toBeLessThanOrEqual(size.w / 2 + 1e-6);
      expect(m.positions[i + 1]!).toBeGreaterThanOrEqual(-1e-6);
      expect(m.positions[i + 1]!).toBeLessThanOrEqual(size.h + 1e-6);
    }
  });

  it('has its top drawn into its button in pleats: round a circle on the top it rises and falls, its normals leaning to either side', () => {
    const m = build();
    // The vertices of one ring of the top, about half way in from the seam.
    const top = (i: number) => m.positions[i + 1]! > size.h - 0.06;
    const radius = (i: number) => Math.hypot(m.positions[i]!, m.positions[i + 2]!);
    let half = 0;
    for (let i = 0; i < m.positions.length; i += 3) if (top(i) && Math.abs(radius(i) - size.w / 4) < Math.abs(half - size.w / 4)) half = radius(i);
    const ring: Array<{ y: number; lean: number }> = [];
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      const r = radius(i);
      if (!top(i) || Math.abs(r - half) > 1e-4) continue;
      // How far the normal leans round the axis (its tangential part).
      ring.push({ y, lean: (-z * m.normals[i]! + x * m.normals[i + 2]!) / r });
    }
    expect(ring.length).toBeGreaterThan(50);
    const ys = ring.map((q) => q.y);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(0.006);
    expect(Math.max(...ring.map((q) => q.lean))).toBeGreaterThan(0.15);
    expect(Math.min(...ring.map((q) => q.lean))).toBeLessThan(-0.15);
  });
});

describe("the luxury style's armchair, a tub chair", () => {
  const size = pieceSize('armchair', STYLE_DEFS.luxury);
  const build = () => {
    const b = new MeshBuilder();
    BUILDERS.armchair({ b, style: STYLE_DEFS.luxury, mat: (r) => (r === 'metal' ? 1 : 0), rng: mulberry32(1), ceiling: 2.5, lift: 0 }, size);
    return b.build();
  };

  it('keeps within its size, the same every time', () => {
    const m = build();
    expect(build().positions).toEqual(m.positions);
    for (let i = 0; i < m.positions.length; i += 3) {
      expect(Math.abs(m.positions[i]!)).toBeLessThanOrEqual(size.w / 2 + 1e-6);
      expect(Math.abs(m.positions[i + 2]!)).toBeLessThanOrEqual(size.d / 2 + 1e-6);
      expect(m.positions[i + 1]!).toBeGreaterThanOrEqual(-1e-6);
      expect(m.positions[i + 1]!).toBeLessThanOrEqual(size.h + 1e-6);
    }
  });

  it('stands on four legs with the floor clear under its body', () => {
    const m = build();
    const feet = new Set<string>();
    const p = m.positions;
    for (let t = 0; t < m.materials.length; t++) {
      const i = t * 9;
      if (Math.min(p[i + 1]!, p[i + 4]!, p[i + 7]!) > 0.1) continue;
      // Below 10 cm there is nothing but brass legs, no face there wider than a leg.
      expect(m.materials[t]).toBe(1);
      const span = Math.max(Math.hypot(p[i]! - p[i + 3]!, p[i + 2]! - p[i + 5]!), Math.hypot(p[i]! - p[i + 6]!, p[i + 2]! - p[i + 8]!), Math.hypot(p[i + 3]! - p[i + 6]!, p[i + 5]! - p[i + 8]!));
      expect(span).toBeLessThan(0.05);
      for (let k = 0; k < 9; k += 3) if (p[i + k + 1]! < 1e-6) feet.add(`${Math.round(p[i + k]! * 10)} ${Math.round(p[i + k + 2]! * 10)}`);
    }
    expect(feet.size).toBe(4);
  });

  it("is sewn in channels round the inside of its back, the outside smooth but for soft folds", () => {
    const m = build();
    // The normals' lean round the axis at the height of a seated back, on the back's half.
    const lean = (inside: boolean) => {
      const out: number[] = [];
      for (let i = 0; i < m.positions.length; i += 3) {
        const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
        const r = Math.hypot(x, z);
        const facesAxis = x * m.normals[i]! + z * m.normals[i + 2]! < 0;
        if (y < 0.55 || y > 0.62 || z > -0.15 || facesAxis !== inside) continue;
        out.push((-z * m.normals[i]! + x * m.normals[i + 2]!) / r);
      }
      return out;
    };
    const inner = lean(true);
    const outer = lean(false);
    expect(inner.length).toBeGreaterThan(30);
    expect(Math.max(...inner)).toBeGreaterThan(0.3);
    expect(Math.min(...inner)).toBeLessThan(-0.3);
    expect(Math.max(...outer.map(Math.abs))).toBeLessThan(0.15);
  });

  it('has a seat cushion creased towards its middle, not a turned lid', () => {
    const m = build();
    // The cushion's top, within the wall round it: seat at 40 cm, cushion some 12 cm thick.
    const lean: number[] = [];
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      const r = Math.hypot(x, z);
      if (y < 0.48 || y > 0.6 || r > size.w / 2 - 0.2 || r < 0.03 || m.normals[i + 1]! < 0.8) continue;
      lean.push((-z * m.normals[i]! + x * m.normals[i + 2]!) / r);
    }
    expect(lean.length).toBeGreaterThan(100);
    // A turned disc's normals all lie in the plane through its axis; creases lean them round it.
    expect(Math.max(...lean.map(Math.abs))).toBeGreaterThan(0.05);
  });
});

describe('a sling chair', () => {
  it('has its cover sewn into a sleeve round each bar it hangs from, not cut off at the bar', () => {
    for (const style of STYLES) {
      const def = STYLE_DEFS[style];
      const b = new MeshBuilder();
      const size = pieceSize('slingChair', def);
      BUILDERS.slingChair({ b, style: def, mat: (r) => (r === 'chairFabric' ? 1 : 0), rng: mulberry32(1), ceiling: 2.5, lift: 0 }, size);
      const m = b.build();
      // The frame's side bars stand 3 cm inside the chair's width: cover out there is a sleeve round them.
      const bar = size.w / 2 - 0.03;
      let seat = 0;
      let back = 0;
      for (let t = 0; t < m.materials.length; t++) {
        if (m.materials[t] !== 1) continue;
        const x = Math.abs(m.positions[t * 9]!);
        const y = m.positions[t * 9 + 1]!;
        if (x < bar) continue;
        if (y < 0.45) seat++;
        else back++;
      }
      expect(seat, style).toBeGreaterThanOrEqual(10);
      expect(back, style).toBeGreaterThanOrEqual(10);
    }
  });
});

describe('a sling', () => {
  // A seat 50 cm across, hung level 45 cm deep at 0.42 m, sagging 4 cm in its middle.
  const build = () => {
    const b = new MeshBuilder();
    b.sling(-0.25, 0.25, [[0.2, 0.42], [0, 0.42], [-0.25, 0.42]], 0.006, 0.04, 0);
    return b.build();
  };

  it('hangs from its rails at the sides and sags in the middle, its sat-on face shaded as it sags', () => {
    const m = build();
    let lowest = Infinity;
    let edge = -Infinity;
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y] = [m.positions[i]!, m.positions[i + 1]!];
      const n: Vec3 = [m.normals[i]!, m.normals[i + 1]!, m.normals[i + 2]!];
      expect(Math.hypot(...n)).toBeCloseTo(1, 5);
      if (Math.abs(x) > 0.2499) edge = Math.max(edge, y);
      lowest = Math.min(lowest, y);
      // The upper face (normal up) leans towards the middle where it sags: its normal's X
      // points back to x = 0, by as much as the sag's slope (4 * 0.04 / 0.5 at the rails).
      if (n[1] > 0 && Math.abs(x) > 0.2) {
        expect(Math.sign(n[0])).toBe(-Math.sign(x));
        expect(Math.abs(n[0] / n[1])).toBeGreaterThan(0.2);
      }
    }
    expect(edge).toBeCloseTo(0.423, 3);
    // The sag and half the thickness, and at most a fold's depth more.
    expect(lowest).toBeLessThan(0.42 - 0.04 - 0.003 + 0.001);
    expect(lowest).toBeGreaterThan(0.42 - 0.04 - 0.003 - 0.006);
  });

  it('is never a flat plane: shallow folds run across its middle, dying out at the rails', () => {
    const m = build();
    // The upper face's height along the seat, down its middle and at a rail (the sag is the same all along either).
    const middle = new Map<number, number>();
    const rail = new Map<number, number>();
    for (let i = 0; i < m.positions.length; i += 3) {
      const [x, y, z] = [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
      if (m.normals[i + 1]! <= 0) continue;
      if (Math.abs(x) < 1e-9) middle.set(Math.round(z * 1e4), y);
      if (Math.abs(x - 0.25) < 1e-9) rail.set(Math.round(z * 1e4), y);
    }
    const spread = (ys: number[]) => Math.max(...ys) - Math.min(...ys);
    // 4 cm of sag, 3 mm of half the thickness below the level line: the rest is folds, some millimetres deep.
    expect(spread([...middle.values()])).toBeGreaterThan(0.005);
    expect(spread([...middle.values()])).toBeLessThan(0.012);
    expect(spread([...rail.values()])).toBeLessThan(1e-6);
  });

  it('is a sheet as thick as asked, following a smooth curve within its points', () => {
    const b = new MeshBuilder();
    // A seat running back into a back that rises: the curve bends round, without corners.
    b.sling(-0.25, 0.25, [[0.2, 0.42], [-0.2, 0.4], [-0.25, 0.6], [-0.3, 0.8]], 0.006, 0, 0);
    const m = b.build();
    // Along the middle of the upper face, from the front (the curve runs back, its Z falling), the
    // normal turns from up to forward by small steps, the shallow folds' included.
    const points = new Map<number, Vec3>();
    for (let i = 0; i < m.positions.length; i += 3) {
      const n: Vec3 = [m.normals[i]!, m.normals[i + 1]!, m.normals[i + 2]!];
      if (Math.abs(m.positions[i]!) < 1e-9 && n[1] + n[2] > 0) points.set(m.positions[i + 2]!, n);
    }
    const ring = [...points.entries()].sort((a, b) => b[0] - a[0]).map(([, n]) => n);
    expect(ring.length).toBeGreaterThan(8);
    expect(ring[0]![1]).toBeGreaterThan(0.99);
    expect(ring.at(-1)![1]).toBeLessThan(0.3);
    const steps = ring.slice(1).map((n, i) => (Math.acos(Math.min(1, n[1] * ring[i]![1] + n[2] * ring[i]![2])) * 180) / Math.PI);
    expect(Math.max(...steps)).toBeLessThan(30);
    // Both faces are there, 6 mm apart.
    const at = (i: number): Vec3 => [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!];
    const upper = at(0);
    let nearest = Infinity;
    for (let i = 0; i < m.positions.length; i += 3) {
      const p = at(i);
      if (m.normals[i + 1]! * m.normals[1]! + m.normals[i + 2]! * m.normals[2]! < -0.99 && Math.abs(p[0] - upper[0]) < 1e-9) nearest = Math.min(nearest, Math.hypot(p[1] - upper[1], p[2] - upper[2]));
    }
    expect(nearest).toBeCloseTo(0.006, 4);
  });
});

describe('wall art', () => {
  it("paints the luxury marbled abstract in pools with crisp edges and gold veins, not blurred, the same every time", () => {
    const pm = prepare(STYLE_DEFS.luxury.materials.art);
    const dark = luminance(...pm.c1);
    const light = luminance(...pm.c2);
    const out: Vec3 = [0, 0, 0];
    const again: Vec3 = [0, 0, 0];
    let between = 0;
    let veins = 0;
    let n = 0;
    for (let y = -0.3; y <= 0.3; y += 0.004) {
      for (let x = -0.45; x <= 0.45; x += 0.004) {
        albedo(pm, x, y, 0, 7, out);
        albedo(pm, x, y, 0, 7, again);
        expect(again).toEqual(out);
        n++;
        if (Math.hypot(out[0] - pm.c3[0], out[1] - pm.c3[1], out[2] - pm.c3[2]) < 0.15) {
          veins++;
          continue;
        }
        const s = (luminance(...out) - dark) / (light - dark);
        if (s > 0.2 && s < 0.8) between++;
      }
    }
    // Blended over a wide band (a fifth of the canvas between the two tones), it read as a print out of focus.
    expect(between / n).toBeLessThan(0.08);
    expect(veins / n).toBeGreaterThan(0.01);
  });
});
