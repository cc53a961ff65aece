import type { Mesh } from './mesh.ts';
import { cross, normalize, type Vec3 } from './vec.ts';

/**
 * An orthographic depth map seen from the main light, so pieces shade themselves and each
 * other (a table top over its shelf, arms and backs over seats), filtered for soft edges.
 */
export class ShadowMap {
  private readonly u: Vec3;
  private readonly v: Vec3;
  private readonly depth: Float32Array;
  private readonly u0: number;
  private readonly v0: number;
  private readonly texel: number;
  private readonly size: number;

  constructor(
    mesh: Mesh,
    casts: Uint8Array,
    private readonly dir: Vec3,
    private readonly penumbra: number,
    /**
     * Penumbra radius per metre between a receiver and what shadows it (the light's apparent
     * size: a window seen from the room is wide, the sun is not); 0 keeps `penumbra` everywhere.
     */
    private readonly spread = 0,
    size = 768,
  ) {
    this.u = normalize(cross([0, 1, 0], dir).map((c, i) => (Math.abs(dir[1]) > 0.99 ? [1, 0, 0][i]! : c)) as Vec3);
    this.v = cross(dir, this.u);
    this.size = size;
    const P = mesh.positions;
    let u0 = Infinity;
    let v0 = Infinity;
    let u1 = -Infinity;
    let v1 = -Infinity;
    for (let i = 0; i < P.length; i += 3) {
      const p: Vec3 = [P[i]!, P[i + 1]!, P[i + 2]!];
      const pu = this.dotU(p);
      const pv = this.dotV(p);
      u0 = Math.min(u0, pu);
      v0 = Math.min(v0, pv);
      u1 = Math.max(u1, pu);
      v1 = Math.max(v1, pv);
    }
    this.texel = Math.max(1e-3, Math.max(u1 - u0, v1 - v0) / (size - 4));
    this.u0 = u0 - 2 * this.texel;
    this.v0 = v0 - 2 * this.texel;
    this.depth = new Float32Array(size * size).fill(-Infinity);
    for (let t = 0; t < mesh.materials.length; t++) {
      if (!casts[t]) continue;
      const o = t * 9;
      const xs: number[] = [];
      const ys: number[] = [];
      const ds: number[] = [];
      for (let k = 0; k < 3; k++) {
        const p: Vec3 = [P[o + k * 3]!, P[o + k * 3 + 1]!, P[o + k * 3 + 2]!];
        xs.push((this.dotU(p) - this.u0) / this.texel);
        ys.push((this.dotV(p) - this.v0) / this.texel);
        ds.push(this.dotD(p));
      }
      this.fill(xs, ys, ds);
    }
  }

  private dotU(p: Vec3): number {
    return p[0] * this.u[0] + p[1] * this.u[1] + p[2] * this.u[2];
  }
  private dotV(p: Vec3): number {
    return p[0] * this.v[0] + p[1] * this.v[1] + p[2] * this.v[2];
  }
  private dotD(p: Vec3): number {
    return p[0] * this.dir[0] + p[1] * this.dir[1] + p[2] * this.dir[2];
  }

  private fill(xs: number[], ys: number[], ds: number[]): void {
    const [ax, bx, cx] = xs as [number, number, number];
    const [ay, by, cy] = ys as [number, number, number];
    const [ad, bd, cd] = ds as [number, number, number];
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(area) < 1e-9) return;
    const n = this.size;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(n - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(n - 1, Math.ceil(Math.max(ay, by, cy)));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const w0 = ((bx - px) * (cy - py) - (cx - px) * (by - py)) / area;
        const w1 = ((cx - px) * (ay - py) - (ax - px) * (cy - py)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const d = w0 * ad + w1 * bd + w2 * cd;
        const i = y * n + x;
        if (d > this.depth[i]!) this.depth[i] = d;
      }
    }
  }

  /**
   * Fraction of the light reaching a point with normal n (0 shadowed .. 1 lit), over a disc
   * sampled at 16 points on a golden-angle spiral around the point's exact position: a filter
   * snapped to whole texels left a stair-stepped, hard edge across a sofa's cushions. The disc is
   * `penumbra` metres across (radius; at least two texels), or, with a `spread`, as wide as the
   * light's size makes the penumbra at the mean distance of the blockers found around the point
   * (percentage-closer soft shadows): a cushion's shadow on its seat is crisp where they touch and
   * a window's light fades over a hand's width under an arm. Each sample is compared with the
   * depth of the point's own tangent plane there, so a wide filter does not shadow a surface the
   * light meets at a slant.
   */
  visibility(x: number, y: number, z: number, nx: number, ny: number, nz: number): number {
    const p: Vec3 = [x, y, z];
    const fx = (this.dotU(p) - this.u0) / this.texel;
    const fy = (this.dotV(p) - this.v0) / this.texel;
    // Farther outside the map than its widest filter reaches, nothing in it can shade the point
    // (a sun patch away from the furniture, traced per pixel).
    const reach = Math.max(2, (this.spread > 0 ? MAX_PENUMBRA : this.penumbra) / this.texel) + 1;
    if (fx < -reach || fy < -reach || fx > this.size + reach || fy > this.size + reach) return 1;
    const d = this.dotD(p) + 0.012;
    const { u, v, dir } = this;
    const nd = nx * dir[0] + ny * dir[1] + nz * dir[2];
    // Depth of the tangent plane per texel of offset along u and v.
    const k = -this.texel / (Math.sign(nd) || 1) / Math.max(0.25, Math.abs(nd));
    const su = (nx * u[0] + ny * u[1] + nz * u[2]) * k;
    const sv = (nx * v[0] + ny * v[1] + nz * v[2]) * k;
    let radius = this.penumbra;
    if (this.spread > 0) {
      const blockers = this.blockerDistance(fx, fy, d, su, sv, MAX_PENUMBRA / this.texel);
      if (blockers === null) return 1;
      radius = Math.min(MAX_PENUMBRA, Math.max(this.penumbra, this.spread * blockers));
    }
    const r = Math.max(2, radius / this.texel);
    let lit = 0;
    for (let i = 0; i < DISC.length; i += 2) {
      const ox = DISC[i]! * r;
      const oy = DISC[i + 1]! * r;
      if (!this.blocks(fx + ox, fy + oy, d + Math.max(0, ox * su + oy * sv))) lit++;
    }
    return lit / (DISC.length / 2);
  }

  /** Whether the map holds something nearer the light than `depth` at texel (x, y). */
  private blocks(x: number, y: number, depth: number): boolean {
    const n = this.size;
    const xx = Math.round(x);
    const yy = Math.round(y);
    return xx >= 0 && yy >= 0 && xx < n && yy < n && this.depth[yy * n + xx]! > depth;
  }

  /** Mean distance along the light from the receiver to what blocks it within r texels; null when nothing does. */
  private blockerDistance(fx: number, fy: number, d: number, su: number, sv: number, r: number): number | null {
    const n = this.size;
    let sum = 0;
    let count = 0;
    for (let i = 0; i < DISC.length; i += 2) {
      const ox = DISC[i]! * r;
      const oy = DISC[i + 1]! * r;
      const plane = d + Math.max(0, ox * su + oy * sv);
      if (!this.blocks(fx + ox, fy + oy, plane)) continue;
      sum += this.depth[Math.round(fy + oy) * n + Math.round(fx + ox)]! - plane;
      count++;
    }
    return count ? sum / count : null;
  }
}

/** The widest penumbra a shadow gets (radius, metres): the search for blockers reaches as far. */
const MAX_PENUMBRA = 0.25;

/** 16 points evenly spread over the unit disc (a golden-angle spiral), as x, y pairs. */
const DISC = Float32Array.from(
  Array.from({ length: 16 }, (_, k) => {
    const r = Math.sqrt((k + 0.5) / 16);
    const a = k * 2.39996323;
    return [r * Math.cos(a), r * Math.sin(a)];
  }).flat(),
);
