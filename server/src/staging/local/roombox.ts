import type { WallId } from './analyze.ts';
import type { Camera } from './camera.ts';
import type { Vec3 } from './vec.ts';

/** Colour planes (0..1, blurred) at the analysis resolution. */
export interface ColorPlanes {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
}

/** The room as an axis-aligned box in metres: side walls at X = left/right, back wall at Z = back. */
export interface RoomBox {
  left: number;
  right: number;
  back: number;
  ceiling: number;
  /** Evidence score of the fit (its floor lines); low means the default box was used. */
  score: number;
  /** The same for its ceiling lines at `ceiling`, where the fit measured them. */
  ceilingScore?: number;
  fallback: boolean;
  /** Per wall, how strongly its floor line is seen (0..1): a preference for anchoring furniture. */
  evidence: { left: number; right: number; back: number };
  /**
   * Per side wall, how strongly its floor line is seen in the photo's foreground (NEAR_FLOOR), 1
   * where that stretch is outside the photo or the box is the default. Where it is faint, the
   * wall there is not where the box puts it (a pillar, a wall jutting in near the camera, a
   * camera nearer the wall than the box's grid allows).
   */
  nearEvidence: { left: number; right: number };
}

/** The photo's foreground (metres from the camera): where a chair closing the group stands, and where a rug's near end keeps off a side wall the photo barely shows there. */
export const NEAR_FLOOR: [number, number] = [0.6, 2.5];

export function sampleColor(c: ColorPlanes, x: number, y: number, out: Vec3): boolean {
  if (x < 0 || y < 0 || x > c.width - 1.001 || y > c.height - 1.001) return false;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * c.width + x0;
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  const j = i + c.width;
  out[0] = (c.r[i] ?? 0) * w00 + (c.r[i + 1] ?? 0) * w10 + (c.r[j] ?? 0) * w01 + (c.r[j + 1] ?? 0) * w11;
  out[1] = (c.g[i] ?? 0) * w00 + (c.g[i + 1] ?? 0) * w10 + (c.g[j] ?? 0) * w01 + (c.g[j + 1] ?? 0) * w11;
  out[2] = (c.b[i] ?? 0) * w00 + (c.b[i + 1] ?? 0) * w10 + (c.b[j] ?? 0) * w01 + (c.b[j + 1] ?? 0) * w11;
  return true;
}

/** The point `along` a wall (Z for side walls, X for the back wall) at height y, `inset` metres into the room. */
export function wallPoint(box: RoomBox, wall: WallId, along: number, y: number, inset = 0): Vec3 {
  if (wall === 'left') return [box.left + inset, y, along];
  if (wall === 'right') return [box.right - inset, y, along];
  return [along, y, box.back - inset];
}

/** The extent of a wall along its own axis. */
export function wallRange(box: RoomBox, wall: WallId): [number, number] {
  return wall === 'back' ? [box.left, box.right] : [0, box.back];
}

export const colorDist = (a: Vec3, b: Vec3) => (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2])) / 3;

/** Median floor colour from the bottom centre of the photo, where the floor nearly always is. */
export function floorReference(c: ColorPlanes): Vec3 {
  const rs: number[] = [];
  const gs: number[] = [];
  const bs: number[] = [];
  for (let y = Math.floor(c.height * 0.86); y < c.height * 0.98; y += 2) {
    for (let x = Math.floor(c.width * 0.3); x < c.width * 0.7; x += 2) {
      const i = y * c.width + x;
      rs.push(c.r[i] ?? 0);
      gs.push(c.g[i] ?? 0);
      bs.push(c.b[i] ?? 0);
    }
  }
  const med = (a: number[]) => a.sort((p, q) => p - q)[a.length >> 1] ?? 0.5;
  return [med(rs), med(gs), med(bs)];
}

/**
 * Scores an image line between two world points as a floor-wall (or ceiling-wall) boundary:
 * summed colour contrast across the line, above a noise floor, with more weight where the
 * floor side looks like the floor. Tile grout and wood grain average out on the blurred planes.
 */
export class LineScorer {
  /** Image length (px) of the part of the last scored line inside the photo. */
  lastLength = 0;
  private readonly a: Vec3 = [0, 0, 0];
  private readonly b: Vec3 = [0, 0, 0];
  constructor(
    private readonly cam: Camera,
    private readonly c: ColorPlanes,
    private readonly floorRef: Vec3 | null,
  ) {}

  score(p0: Vec3, p1: Vec3, step = 2): number {
    this.lastLength = 0;
    const near = 0.25;
    const q0 = this.cam.toCamera(p0);
    const q1 = this.cam.toCamera(p1);
    let s0 = p0;
    let s1 = p1;
    if (q0[2] < near && q1[2] < near) return 0;
    if (q0[2] < near || q1[2] < near) {
      const t = (near - q0[2]) / (q1[2] - q0[2]);
      const m: Vec3 = [p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t, p0[2] + (p1[2] - p0[2]) * t];
      if (q0[2] < near) s0 = m;
      else s1 = m;
    }
    const a = this.cam.project(s0);
    const b = this.cam.project(s1);
    const len = Math.hypot(b.u - a.u, b.v - a.v);
    if (len < 1) return 0;
    const nx = -(b.v - a.v) / len;
    const ny = (b.u - a.u) / len;
    // Normal pointing down (towards the floor side for floor lines).
    const sgn = ny >= 0 ? 1 : -1;
    // Midpoints of equal pieces, each weighted by its length: scores of consecutive pieces of
    // a line add up to the score of the whole line (the box fit relies on prefix sums).
    const n = Math.max(1, Math.ceil(len / step));
    const w = len / n;
    let total = 0;
    for (let k = 0; k < n; k++) {
      const t = (k + 0.5) / n;
      const x = a.u + (b.u - a.u) * t;
      const y = a.v + (b.v - a.v) * t;
      let best = -1;
      let floorLike = 1;
      for (const off of [3, 6]) {
        const ox = nx * sgn * off;
        const oy = ny * sgn * off;
        if (!sampleColor(this.c, x - ox, y - oy, this.a) || !sampleColor(this.c, x + ox, y + oy, this.b)) continue;
        const d = colorDist(this.a, this.b);
        if (d > best) {
          best = d;
          if (this.floorRef) floorLike = Math.exp(-colorDist(this.b, this.floorRef) / 0.1);
        }
      }
      if (best < 0) continue;
      this.lastLength += w;
      total += (Math.min(best, 0.2) - 0.025) * (0.4 + 0.6 * floorLike) * w;
    }
    return total;
  }
}

function logGrid(lo: number, hi: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(lo * Math.pow(hi / lo, i / (n - 1)));
  return out;
}

export const DEFAULT_BOX = { left: -2.2, right: 2.2, back: 6, ceiling: 2.6 };

/**
 * What a deeper back wall costs the fit, per unit of its log distance: 0.03 a step of the grid,
 * against fits scoring 30-70, so it decides only near-ties. Past the true back wall the side
 * walls' floor lines run on over its image, and where they cross a glass door's frames they
 * gather as much contrast as the back wall's own floor line brings.
 */
const DEPTH_PRIOR = 0.5;

/**
 * Fits the room box to the photo: every (left, right, back) on a grid is scored by the contrast
 * along its three projected floor-wall lines (side scores are separable, so the search is cheap),
 * then the ceiling height by the ceiling-wall lines. Weak evidence gives the default box.
 */
export function fitRoomBox(cam: Camera, c: ColorPlanes): RoomBox {
  const floorRef = floorReference(c);
  const scorer = new LineScorer(cam, c, floorRef);
  const backs = logGrid(1.8, 30, 44);
  const lefts = logGrid(0.5, 12, 34).map((v) => -v);
  const rights = logGrid(0.5, 12, 34);
  // Side lines from the camera plane to each candidate back wall, as prefix sums along Z.
  const sideScores = (xs: number[]) => {
    const out = backs.map(() => new Array<number>(xs.length).fill(0));
    xs.forEach((x, xi) => {
      let acc = 0;
      let z0 = 0;
      backs.forEach((zb, bi) => {
        acc += scorer.score([x, 0, z0], [x, 0, zb]);
        z0 = zb;
        out[bi]![xi] = acc;
      });
    });
    return out;
  };
  const sideL = sideScores(lefts);
  const sideR = sideScores(rights);
  // Back line: cumulative contrast along X from -12 m, so any [left, right] span is two lookups.
  const xs = logGrid(0.5, 12, 34);
  const edges = [...xs.map((v) => -v).reverse(), 0, ...xs];
  // Chosen by the evidence less the depth's cost; the evidence alone is the box's score.
  let best = { left: DEFAULT_BOX.left, right: DEFAULT_BOX.right, back: DEFAULT_BOX.back, score: -Infinity };
  let bestValue = -Infinity;
  for (let bi = 0; bi < backs.length; bi++) {
    const zb = backs[bi]!;
    const depthCost = DEPTH_PRIOR * Math.log(zb / backs[0]!);
    const cum = [0];
    for (let e = 1; e < edges.length; e++) {
      cum.push((cum[e - 1] ?? 0) + scorer.score([edges[e - 1]!, 0, zb], [edges[e]!, 0, zb]));
    }
    const idx = (x: number) => edges.indexOf(x);
    for (let li = 0; li < lefts.length; li++) {
      for (let ri = 0; ri < rights.length; ri++) {
        const xl = lefts[li]!;
        const xr = rights[ri]!;
        const width = xr - xl;
        if (width < 1.8 || width > 14) continue;
        const back = (cum[idx(xr)] ?? 0) - (cum[idx(xl)] ?? 0);
        const s = (sideL[bi]?.[li] ?? 0) + (sideR[bi]?.[ri] ?? 0) + back;
        const value = s - depthCost;
        if (value > bestValue) {
          bestValue = value;
          best = { left: xl, right: xr, back: zb, score: s };
        }
      }
    }
  }
  const long = Math.max(c.width, c.height);
  const fallback = !(best.score > 0.025 * long);
  const box = fallback ? { ...DEFAULT_BOX, score: best.score } : { ...best };
  const { height: ceiling, score: ceilingScore } = fitCeiling(scorer, box);
  const density = (p0: Vec3, p1: Vec3) => {
    const s = scorer.score(p0, p1);
    return scorer.lastLength > 0 ? clamp01(s / (0.15 * scorer.lastLength)) : 0;
  };
  const evidence = {
    left: density([box.left, 0, 0], [box.left, 0, box.back]),
    right: density([box.right, 0, 0], [box.right, 0, box.back]),
    back: density([box.left, 0, box.back], [box.right, 0, box.back]),
  };
  const nearSide = (x: number) => {
    const d = density([x, 0, NEAR_FLOOR[0]], [x, 0, Math.min(box.back, NEAR_FLOOR[1])]);
    // A default box's walls are guesses, doubtful everywhere alike.
    return fallback || scorer.lastLength < 0.05 * long ? 1 : d;
  };
  const nearEvidence = { left: nearSide(box.left), right: nearSide(box.right) };
  return { left: box.left, right: box.right, back: box.back, ceiling, score: best.score, ceilingScore, fallback, evidence, nearEvidence };
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** The heights, in metres at the camera's eye height, between which a room box's ceiling is sought. */
export const CEILING_SEARCH: [number, number] = [2.2, 4.2];

/** The best-seen ceiling line over the box's walls between `range`'s heights. */
export function seekCeiling(cam: Camera, c: ColorPlanes, box: RoomBox, range: [number, number]): { height: number; score: number } {
  return fitCeiling(new LineScorer(cam, c, floorReference(c)), box, range);
}

function fitCeiling(scorer: LineScorer, box: { left: number; right: number; back: number }, [from, to] = CEILING_SEARCH): { height: number; score: number } {
  let bestH = DEFAULT_BOX.ceiling;
  let bestS = 0;
  for (let h = from; h <= to; h += 0.05) {
    const s =
      scorer.score([box.left, h, box.back], [box.right, h, box.back]) +
      scorer.score([box.left, h, 0], [box.left, h, box.back]) +
      scorer.score([box.right, h, 0], [box.right, h, box.back]);
    if (s > bestS) {
      bestS = s;
      bestH = h;
    }
  }
  return { height: bestH, score: bestS };
}
