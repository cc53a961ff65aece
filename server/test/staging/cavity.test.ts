import { describe, expect, it } from 'vitest';
import { Camera } from '../../src/staging/local/camera.ts';
import { cavityOcclusion } from '../../src/staging/local/cavity.ts';
import type { RenderLayer } from '../../src/staging/local/raster.ts';

const W = 200;
const H = 150;
const cam = new Camera({ width: W, height: H, focal: 150, cx: 100, cy: 75, yaw: 0, pitch: 0, roll: 0, eyeHeight: 1.5 });

/** A depth buffer of two planes: an upright face 2 m away, meeting a level seat 0.3 m below the eye. */
function crease(): RenderLayer {
  const depth = new Float32Array(W * H);
  for (let v = 0; v < H; v++) {
    const below = v + 0.5 - cam.p.cy;
    const seat = below > 0 ? (0.3 * cam.p.focal) / below : Infinity;
    depth.fill(Math.min(2, seat), v * W, (v + 1) * W);
  }
  return { width: W, height: H, color: new Float32Array(W * H * 3), alpha: new Float32Array(W * H).fill(1), depth };
}

/** The mean factor over the middle of a row (the samples' turn per pixel leaves a little noise). */
function rowMean(ao: Float32Array): (v: number) => number {
  return (v) => ao.slice(v * W + 60, v * W + 140).reduce((s, k) => s + k, 0) / 80;
}

describe('ambient occlusion between the furniture’s own parts', () => {
  it('darkens a crease on both of its sides and leaves open surfaces as they are', () => {
    const ao = cavityOcclusion(crease(), cam, 1);
    const at = (u: number, v: number) => ao[v * W + u]!;
    // The seat meets the upright face at row 97; row 98 is the seat 9 cm from it.
    expect(at(100, 96)).toBeLessThan(0.85);
    expect(at(100, 98)).toBeLessThan(0.99);
    expect(at(100, 30)).toBeGreaterThan(0.97);
    expect(at(100, 145)).toBeGreaterThan(0.97);
  });

  it('does not darken a surface behind a piece standing well in front of it', () => {
    const layer = crease();
    // A post 1 m in front of the upright face, columns 90-109, above the seat.
    for (let v = 0; v < 90; v++) layer.depth.fill(1, v * W + 90, v * W + 110);
    const ao = cavityOcclusion(layer, cam, 1);
    expect(ao[40 * W + 85]!).toBeGreaterThan(0.97);
    expect(ao[40 * W + 114]!).toBeGreaterThan(0.97);
  });

  it('darkens a seat within half a metre of its back, a dark cover more than a pale one', () => {
    // Row 100 is the seat 0.24 m in front of the upright face, twice the crease's reach; row 120 is 1 m in front.
    const dark = crease();
    const pale = crease();
    // A pale cover's shaded colour: albedo 0.8 under the light an upright face takes of a level of 1.
    pale.color.fill(0.4);
    const inDark = rowMean(cavityOcclusion(dark, cam, 1));
    const inPale = rowMean(cavityOcclusion(pale, cam, 1));
    expect(inDark(100)).toBeLessThan(0.93);
    expect(inPale(100)).toBeGreaterThan(inDark(100) + 0.05);
    expect(inPale(100)).toBeLessThan(0.995);
    expect(inDark(120)).toBeGreaterThan(0.97);
  });

  it('leaves empty pixels and a lone flat surface untouched', () => {
    const layer = crease();
    layer.depth.fill(Infinity, 0, W * 40);
    for (let i = W * 40; i < W * H; i++) layer.depth[i] = 2;
    const ao = cavityOcclusion(layer, cam, 1);
    expect(Math.min(...ao)).toBeGreaterThan(0.97);
  });
});
