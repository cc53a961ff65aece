import type { Camera } from './camera.ts';
import type { Segment } from './lines.ts';
import { counterEdge, MAX_HEIGHT, MIN_HEIGHT, WORKTOP, type Counter } from './counters.ts';
import { colorDist, LineScorer, type ColorPlanes, type RoomBox } from './roombox.ts';
import type { Vec3 } from './vec.ts';

/** Something standing on the floor inside the room box: a kitchen island, a column, a leftover object. */
export interface Obstacle {
  /** Floor rectangle in metres, square to the room (islands and fixtures nearly always are). */
  left: number;
  right: number;
  near: number;
  far: number;
  /** Worktop height for a kitchen island, null for anything else. */
  worktop: number | null;
  /** Found by its outline rather than its cells: a post (detectPosts) or a pillar (detectPillars). */
  kind?: 'post' | 'pillar';
  /**
   * How tall a post or pillar is, measured in the photo; absent for anything else. A post's is
   * its lowest unbroken run of rows, what the layout keeps pieces from standing behind; its
   * matte reaches its top.
   */
  height?: number;
  /**
   * A post's pixels in the photo at the analysis size, a row at a time: [v, u0, u1, ...], the
   * columns u0 to u1 (exclusive) of row v. The renderer keeps them over anything standing
   * behind the post (render.ts uncoverPosts).
   */
  matte?: number[];
}

/** Cell size in pixels at the analysis resolution: grout and plank gaps vanish in the cells' median. */
const CELL = 4;
/**
 * Growing the floor: a neighbour joins when it differs little from the cell it is reached from
 * (STEP, twice that two cells ahead) and from the colour carried along the path (DRIFT, which
 * follows slowly at RATE), so light falloff passes while an object's outline, even softened by
 * blur, stops the floor.
 */
const STEP = 0.035;
const DRIFT = 0.07;
const RATE = 0.05;
/** Cells this close to the box's walls are left out: the box's walls are found to a few centimetres. */
const WALL_MARGIN = 0.12;
/** Smallest region (cells) and footprint width worth keeping off. */
const MIN_CELLS = 60;
const MIN_WIDTH = 0.3;
/** Depth bounds behind the near face: at most MAX_DEPTH, less when floor is seen behind the object. */
const MAX_DEPTH = 1;
const MIN_DEPTH = 0.3;
/** A free-standing object's near face is at least this far from the back wall (its depth and a passage). */
const FREE_DEPTH = 1.2;
/** Contrast density (as for the box's wall evidence) of a foot line or a vertical side. */
const MIN_LINE = 0.5;
/** An island's doors stand this far in front of its toe kick, the worktop's edge a little further. */
const FACE_INSET = 0.075;
/** Above this floor gloss, reflections of windows look like upright objects: only islands are kept. */
const GLOSSY = 0.15;

interface FloorCells {
  cols: number;
  rows: number;
  /** Per cell: 0 outside the floor, 1 floor reached from the camera, 2 inside the floor but unlike it. */
  state: Uint8Array;
}

/** Median of nine values (insertion sort: far cheaper than TypedArray.sort at this size). */
function median9(v: Float32Array): number {
  for (let i = 1; i < 9; i++) {
    const x = v[i]!;
    let j = i - 1;
    while (j >= 0 && v[j]! > x) {
      v[j + 1] = v[j]!;
      j--;
    }
    v[j + 1] = x;
  }
  return v[4]!;
}

/**
 * Grows the floor from the photo's bottom centre over 4-px cells: each cell is the mean of the
 * blurred planes, then a 3x3 median removes lines one cell wide (grout, plank gaps).
 */
function floorCells(cam: Camera, box: RoomBox, c: ColorPlanes, counters: Counter[], floorRef: Vec3): FloorCells {
  const cols = Math.floor(c.width / CELL);
  const rows = Math.floor(c.height / CELL);
  const n = cols * rows;
  const mean = new Float32Array(3 * n);
  for (let y = 0; y < rows * CELL; y++) {
    const row = ((y / CELL) | 0) * cols;
    for (let x = 0; x < cols * CELL; x++) {
      const i = y * c.width + x;
      const k = 3 * (row + ((x / CELL) | 0));
      mean[k] = (mean[k] ?? 0) + (c.r[i] ?? 0);
      mean[k + 1] = (mean[k + 1] ?? 0) + (c.g[i] ?? 0);
      mean[k + 2] = (mean[k + 2] ?? 0) + (c.b[i] ?? 0);
    }
  }
  const med = new Float32Array(3 * n);
  const win = new Float32Array(9);
  for (let r = 0; r < rows; r++) {
    for (let q = 0; q < cols; q++) {
      for (let ch = 0; ch < 3; ch++) {
        let m = 0;
        for (let dr = -1; dr <= 1; dr++) {
          const rr = r + dr < 0 ? 0 : r + dr >= rows ? rows - 1 : r + dr;
          for (let dq = -1; dq <= 1; dq++) {
            const qq = q + dq < 0 ? 0 : q + dq >= cols ? cols - 1 : q + dq;
            win[m++] = mean[3 * (rr * cols + qq) + ch] ?? 0;
          }
        }
        med[3 * (r * cols + q) + ch] = median9(win) / (CELL * CELL);
      }
    }
  }
  const state = new Uint8Array(n);
  const { left, right, back } = box;
  for (let r = 0; r < rows; r++) {
    for (let q = 0; q < cols; q++) {
      const p = cam.floorPoint((q + 0.5) * CELL, (r + 0.5) * CELL);
      if (!p || p[2] < 0.3 || p[0] < left + WALL_MARGIN || p[0] > right - WALL_MARGIN || p[2] > back - WALL_MARGIN) continue;
      if (counters.some((k) => inCounter(box, k, p[0], p[2]))) continue;
      state[r * cols + q] = 2;
    }
  }
  const ref = new Float32Array(3 * n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const dist = (i: number, a: Float32Array, j: number) =>
    (Math.abs((med[3 * i] ?? 0) - (a[3 * j] ?? 0)) + Math.abs((med[3 * i + 1] ?? 0) - (a[3 * j + 1] ?? 0)) + Math.abs((med[3 * i + 2] ?? 0) - (a[3 * j + 2] ?? 0))) / 3;
  for (let r = Math.floor(rows * 0.86); r < rows; r++) {
    for (let q = Math.floor(cols * 0.3); q < cols * 0.7; q++) {
      const i = r * cols + q;
      const cell: Vec3 = [med[3 * i] ?? 0, med[3 * i + 1] ?? 0, med[3 * i + 2] ?? 0];
      if (state[i] !== 2 || colorDist(cell, floorRef) >= DRIFT) continue;
      state[i] = 1;
      for (let k = 0; k < 3; k++) ref[3 * i + k] = floorRef[k]!;
      queue[tail++] = i;
    }
  }
  while (head < tail) {
    const i = queue[head++]!;
    const r = (i / cols) | 0;
    const q = i - r * cols;
    // Each direction with the cell two steps ahead: an outline blurred over two cells is two
    // small steps, but one large one across both.
    for (const [j, k] of [
      [q > 0 ? i - 1 : -1, q > 1 ? i - 2 : -1],
      [q < cols - 1 ? i + 1 : -1, q < cols - 2 ? i + 2 : -1],
      [r > 0 ? i - cols : -1, r > 1 ? i - 2 * cols : -1],
      [r < rows - 1 ? i + cols : -1, r < rows - 2 ? i + 2 * cols : -1],
    ] as const) {
      if (j < 0 || state[j] !== 2 || dist(j, med, i) >= STEP || dist(j, ref, i) >= DRIFT) continue;
      if (k >= 0 && state[k] !== 0 && dist(k, med, i) >= 2 * STEP) continue;
      state[j] = 1;
      for (let ch = 0; ch < 3; ch++) ref[3 * j + ch] = (ref[3 * i + ch] ?? 0) + RATE * ((med[3 * j + ch] ?? 0) - (ref[3 * i + ch] ?? 0));
      queue[tail++] = j;
    }
  }
  return { cols, rows, state };
}

function inCounter(box: RoomBox, k: Counter, x: number, z: number): boolean {
  const along = k.wall === 'back' ? x : z;
  const dist = k.wall === 'left' ? x - box.left : k.wall === 'right' ? box.right - x : box.back - z;
  return along > k.from - 0.1 && along < k.to + 0.1 && dist < k.front + 0.1;
}

const quantile = (a: number[], t: number) => a.slice().sort((p, q) => p - q)[Math.min(a.length - 1, Math.floor(t * a.length))] ?? 0;

/**
 * Finds obstacles on the floor: every region of the box's floor that the floor grown from the
 * camera does not reach is a candidate. Its lowest outline, where it meets the floor, gives its
 * near face; its depth is at most 1 m, and less when floor is seen just behind it. A worktop
 * edge 0.82-1 m up its near face makes it an island. Other candidates must stand up clearly (a
 * sharp foot line and a vertical side, 0.4 m or taller), and none count on glossy floors, where
 * mirrored windows look the same. Posts too thin for the cells are found on `sharp`, the
 * photo's unblurred colour (detectPosts), and pillars by their edges among `segments` (detectPillars).
 */
export function detectObstacles(
  cam: Camera,
  box: RoomBox,
  c: ColorPlanes,
  sharp: ColorPlanes,
  segments: Segment[],
  counters: Counter[],
  floorRef: Vec3,
  gloss: number,
): Obstacle[] {
  const cells = floorCells(cam, box, c, counters, floorRef);
  const { cols, rows, state } = cells;
  // Only the regions' cores count: cells with no floor among their eight neighbours. That
  // drops strips up to two cells wide (grout the median kept, seams along the walls).
  const core = new Uint8Array(cols * rows);
  for (let r = 1; r < rows - 1; r++) {
    for (let q = 1; q < cols - 1; q++) {
      const i = r * cols + q;
      if (state[i] !== 2) continue;
      let ok = true;
      for (let dr = -1; dr <= 1 && ok; dr++) for (let dq = -1; dq <= 1 && ok; dq++) ok = state[i + dr * cols + dq] !== 1;
      core[i] = ok ? 1 : 0;
    }
  }
  const seen = new Uint8Array(cols * rows);
  const stack: number[] = [];
  const out: Obstacle[] = [];
  const scorer = new LineScorer(cam, c, floorRef);
  const density = (p0: Vec3, p1: Vec3) => {
    const s = scorer.score(p0, p1);
    return scorer.lastLength > 0 ? s / (0.15 * scorer.lastLength) : 0;
  };
  const isFloor = (r: number, q: number) => r >= 0 && r < rows && state[r * cols + q] === 1;
  for (let start = 0; start < cols * rows; start++) {
    if (core[start] !== 1 || seen[start]) continue;
    // One region: per column its lowest and highest core cell.
    const low = new Map<number, number>();
    const high = new Map<number, number>();
    let count = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      count++;
      const r = (i / cols) | 0;
      const q = i - r * cols;
      low.set(q, Math.max(low.get(q) ?? -1, r));
      high.set(q, Math.min(high.get(q) ?? rows, r));
      for (const j of [i - 1, i + 1, i - cols, i + cols]) {
        if (core[j] !== 1 || seen[j]) continue;
        seen[j] = 1;
        stack.push(j);
      }
    }
    if (count < MIN_CELLS) continue;
    const foot: Vec3[] = [];
    const behind: number[] = [];
    for (const [q, r] of low) {
      // Only where floor is seen right under the region (past its one-cell rim) is its outline the object's foot.
      if (!isFloor(r + 2, q)) continue;
      const p = cam.floorPoint((q + 0.5) * CELL, (r + 2) * CELL);
      if (p) foot.push(p);
      const top = high.get(q) ?? 0;
      if (isFloor(top - 2, q)) {
        const b = cam.floorPoint((q + 0.5) * CELL, (top - 1) * CELL);
        if (b) behind.push(b[2]);
      }
    }
    if (foot.length < 4) continue;
    const near = quantile(foot.map((p) => p[2]), 0.1);
    // Feet much deeper belong to something else the region runs into (a seam along a wall).
    const own = foot.filter((p) => p[2] <= near + MAX_DEPTH);
    const left = Math.min(...own.map((p) => p[0]));
    const right = Math.max(...own.map((p) => p[0]));
    // Something standing free leaves a passage to the back wall; nearer it, it is the wall's (a radiator, a counter).
    if (right - left < MIN_WIDTH || box.back - near < FREE_DEPTH || density([left, 0, near], [right, 0, near]) < MIN_LINE) continue;
    const far = Math.max(near + MIN_DEPTH, Math.min(box.back, near + MAX_DEPTH, behind.length >= 3 ? quantile(behind, 0.5) : Infinity));
    const worktop = islandHeight(cam, c, left, right, near);
    if (worktop !== null) {
      out.push({ left, right, near, far, worktop });
      continue;
    }
    if (gloss >= GLOSSY) continue;
    const heights: number[] = [];
    for (const [q, r] of high) {
      const p = cam.planeZPoint((q + 0.5) * CELL, (r - 1) * CELL, near);
      if (p) heights.push(p[1]);
    }
    const h = Math.min(1, quantile(heights, 0.5));
    if (h < 0.4 || Math.max(density([left, 0.05, near], [left, h, near]), density([right, 0.05, near], [right, h, near])) < MIN_LINE) continue;
    out.push({ left, right, near, far, worktop: null });
  }
  out.push(...detectPillars(cam, box, c, segments, cells));
  // Strips by a larger obstacle are its own edges and grooves.
  const posts = detectPosts(cam, box, sharp, cells, gloss).filter(
    (p) => !out.some((o) => p.right > o.left - POST_BESIDE && p.left < o.right + POST_BESIDE && p.far > o.near - POST_BESIDE && p.near < o.far + POST_BESIDE),
  );
  return [...out, ...posts];
}

/**
 * Pillars: uprights standing in the room from the floor to above the eye, such as a loft's
 * concrete column, whose foot the floor's cells miss where sun or shade falls round it. Their
 * edges are long segments pointing at the vertical vanishing point whose lower ends stand on
 * the floor inside the box, clear of its walls (a door's jambs and a window's mullions stand on
 * a wall). A reflection in the floor lies wholly below the horizon, so reaching above the eye
 * also tells a pillar from a mirrored mullion, on glossy floors too. Without this a chair was
 * drawn across a loft's pillar, in front of what hid it.
 */
/** Least length (pixels at the analysis size) of a pillar's edge. */
const PILLAR_EDGE = 25;
/** Least height (metres) an edge reaches at its foot's depth, and the clearance from the side and back walls. */
const PILLAR_TALL = 1.2;
const PILLAR_WALL_MARGIN = 0.6;
const PILLAR_BACK_MARGIN = 1;
/** Edges whose feet lie within this width (metres, at the nearer foot) are one pillar's, at least PILLAR_NARROWEST apart. */
const PILLAR_WIDEST = 1.2;
const PILLAR_NARROWEST = 0.1;
/** Rows above an edge's lower end that give a pillar's colour, and how far (0..1 a channel) its foot departs from it. */
const PILLAR_REF = 6;
const PILLAR_FOOT = 0.06;

/** Ends of broken pieces of one edge (where the wall's base crosses behind a pillar) this close in pixels join. */
const PILLAR_GAP = 8;

function detectPillars(cam: Camera, box: RoomBox, c: ColorPlanes, segments: Segment[], cells: FloorCells): Obstacle[] {
  // The image direction of a world vertical through (u, v).
  const upright = (u: number, v: number): [number, number] => {
    const d = cam.rayDir(u, v);
    const a = cam.project([d[0], cam.p.eyeHeight + d[1], d[2]]);
    const b = cam.project([d[0], cam.p.eyeHeight + d[1] + 0.01, d[2]]);
    const n = Math.hypot(b.u - a.u, b.v - a.v) || 1;
    return [(b.u - a.u) / n, (b.v - a.v) / n];
  };
  // Segments along a world vertical (LSD fits lean a little where two edges run close), lower end first.
  const pieces: Array<{ u: number; v: number; tu: number; tv: number }> = [];
  for (const s of segments) {
    const [u, v, tu, tv] = s.y1 > s.y2 ? [s.x1, s.y1, s.x2, s.y2] : [s.x2, s.y2, s.x1, s.y1];
    const [du, dv] = upright(u, v);
    if (Math.abs((tu - u) * dv - (tv - v) * du) <= 1.5 + 0.03 * s.length) pieces.push({ u, v, tu, tv });
  }
  // Pieces of one edge broken where something crosses behind it join, lowest first.
  pieces.sort((a, b) => b.v - a.v);
  const chains: Array<{ u: number; v: number; tu: number; tv: number }> = [];
  for (const p of pieces) {
    const chain = chains.find((e) => p.v >= e.tv - PILLAR_GAP && p.v <= e.tv + PILLAR_GAP && Math.abs(p.u - e.tu) <= 2);
    if (!chain) chains.push({ ...p });
    else if (p.tv < chain.tv) [chain.tu, chain.tv] = [p.tu, p.tv];
  }
  const edges: Array<{ u: number; v: number; top: number; tip: number }> = [];
  for (const { u, v, tu, tv } of chains) {
    if (v - tv < PILLAR_EDGE || tv > cam.horizonAt(tu)) continue;
    const p = cam.floorPoint(u, v);
    if (!p || p[2] < 0.5 || p[0] < box.left + PILLAR_WALL_MARGIN || p[0] > box.right - PILLAR_WALL_MARGIN || p[2] > box.back - PILLAR_BACK_MARGIN) continue;
    const top = cam.planeZPoint(tu, tv, p[2]);
    if (!top || top[1] < PILLAR_TALL) continue;
    edges.push({ u, v, top: tv, tip: tu });
  }
  edges.sort((a, b) => a.u - b.u);
  // Walking down column u from row v: the foot is the first row that departs from the pillar's
  // colour just above v (two rows running) or where the floor grown from the camera is seen; a
  // sun patch or a shadow at the foot, which the grown floor does not reach, departs from it too.
  const footRow = (u: number, v: number): number => {
    const x = Math.round(u);
    const at = (y: number): Vec3 => {
      const i = y * c.width + x;
      return [c.r[i]!, c.g[i]!, c.b[i]!];
    };
    const ref: Vec3 = [0, 0, 0];
    for (let y = v - PILLAR_REF; y < v; y++) for (let k = 0; k < 3; k++) ref[k]! += at(y)[k]! / PILLAR_REF;
    const q = Math.floor(x / CELL);
    let y = v;
    while (y < c.height - 2 && cells.state[Math.floor(y / CELL) * cells.cols + q] !== 1) {
      if (colorDist(at(y), ref) > PILLAR_FOOT && colorDist(at(y + 1), ref) > PILLAR_FOOT) break;
      y++;
    }
    return y;
  };
  const depth = (e: { u: number; v: number }) => cam.floorPoint(e.u, e.v)?.[2] ?? Infinity;
  const out: Obstacle[] = [];
  let k = 0;
  while (k < edges.length) {
    const group = [edges[k]!];
    while (++k < edges.length) {
      const e = edges[k]!;
      if (((e.u - group[0]!.u) * Math.min(depth(group[0]!), depth(e))) / cam.p.focal > PILLAR_WIDEST) break;
      group.push(e);
    }
    // A pillar shows both its sides; one edge alone is as often a wall's corner the box does not
    // model. Its face is the widest gap between the edges; a narrow gap beside it (under a quarter
    // as wide) is its side face, and further edges belong to what stands behind (a window's bars).
    if (group.length < 2) continue;
    let w = 0;
    for (let g = 1; g < group.length - 1; g++) if (group[g + 1]!.u - group[g]!.u > group[w + 1]!.u - group[w]!.u) w = g;
    const face = group[w + 1]!.u - group[w]!.u;
    const lo = w > 0 && group[w]!.u - group[w - 1]!.u < face / 4 ? w - 1 : w;
    const hi = w + 2 < group.length && group[w + 2]!.u - group[w + 1]!.u < face / 4 ? w + 2 : w + 1;
    const u0 = group[lo]!.u;
    const u1 = group[hi]!.u;
    if (((u1 - u0) * Math.min(depth(group[lo]!), depth(group[hi]!))) / cam.p.focal < PILLAR_NARROWEST) continue;
    // The foot: the median over the face's columns, from the lowest end of its edges.
    const lowest = Math.round(Math.max(...group.slice(lo, hi + 1).map((e) => e.v)));
    const rows: number[] = [];
    for (let u = Math.ceil(u0) + 2; u <= u1 - 2; u++) rows.push(footRow(u, lowest));
    const v = quantile(rows, 0.5);
    const a = cam.floorPoint(u0, v);
    const b = cam.floorPoint(u1, v);
    if (!a || !b) continue;
    const near = Math.min(a[2], b[2]);
    const tops = group.slice(lo, hi + 1).map((e) => cam.planeZPoint(e.tip, e.top, near)?.[1] ?? 0);
    out.push({ left: a[0], right: b[0], near, far: near + Math.max(MIN_DEPTH, b[0] - a[0]), worktop: null, kind: 'pillar', height: Math.max(...tops) });
  }
  return out;
}

/**
 * The worktop height when the near face shows one edge at a consistent height across most of
 * its width (as on a counter's doors), or null. The edge is measured on the plane of the foot,
 * behind the doors and the worktop's front, so it is scaled about the eye like a counter's.
 */
function islandHeight(cam: Camera, c: ColorPlanes, left: number, right: number, near: number): number | null {
  const edges: number[] = [];
  let bins = 0;
  for (let x = left + 0.1; x <= right - 0.1 + 1e-9; x += 0.1) {
    bins++;
    const e = counterEdge(cam, c, (y) => [x, y, near]);
    if (e !== null) edges.push(e);
  }
  if (bins < 3 || edges.length < 0.6 * bins) return null;
  const median = quantile(edges, 0.5);
  if (edges.filter((e) => Math.abs(e - median) <= 0.035).length < 0.5 * bins) return null;
  const eye = cam.p.eyeHeight;
  const height = eye + ((median - eye) * (near - FACE_INSET)) / near + WORKTOP;
  return height >= MIN_HEIGHT && height <= MAX_HEIGHT ? height : null;
}

/**
 * Posts: things standing free on the floor that are too thin for its cells, whose median
 * removes them like grout (pipe stubs, a post, a stake). A post shows as a strip a few pixels
 * wide that differs from the floor on both sides of it, the two sides alike, for a run of rows
 * up from its foot. Seen at its foot's depth it must be 2.5-20 cm wide and
 * 12 cm to 1.5 m tall. Without this a rug was laid flat across a loft's pipe stubs and a sofa
 * drawn over them. Close to the walls such strips are the walls' own (a door's frame, a
 * window's mullion meeting the floor), and on glossy floors mirrored mullions look the same:
 * neither is searched.
 */
const POST_STRIPS = [2, 3, 4, 5, 6, 8];
/** Mean difference (0..1, per channel) of the strip from its sides, and the most its two sides may differ. */
const POST_CONTRAST = 0.06;
const POST_SIDES = 0.05;
const POST_ROWS = 6;
/** Rows a post's strip may fail to stand out and go on above (postTop). */
const POST_GAP = 2;
const POST_WIDTH = { least: 0.025, most: 0.2 };
const POST_HEIGHT = { least: 0.12, most: 1.5 };
const POST_WALL_MARGIN = 0.6;
/** Strips whose feet are this close (metres) are one post; a post is kept this much clear all round. */
const POST_JOIN = 0.15;
const POST_CLEAR = 0.05;
/** A post this close (metres) to an obstacle found by its cells is taken as part of it. */
const POST_BESIDE = 0.3;

/**
 * Posts standing on the floor (see POST_STRIPS), each as a small obstacle with its height. `c`
 * is the photo's unblurred colour; a post's foot must stand on the floor grown from the camera
 * (`cells`), so a groove between an island's doors is not one.
 */
function detectPosts(cam: Camera, box: RoomBox, c: ColorPlanes, cells: FloorCells, gloss: number): Obstacle[] {
  if (gloss >= GLOSSY) return [];
  const { width, height } = c;
  const { r, g, b } = c;
  // How far the strip of width w at (u, v) stands out from its two sides (mean absolute
  // difference over the channels), or -1 where the sides differ: colour, not luminance, as a
  // cabinet's green beside oak floor can match it in brightness. Inlined per channel: this runs
  // a few million times a photo.
  const standsOut = (u: number, v: number, w: number): number => {
    const at = v * width + u;
    const l = at - 3;
    const e = at + w + 1;
    const rl = r[l]! + r[l + 1]!;
    const gl = g[l]! + g[l + 1]!;
    const bl = b[l]! + b[l + 1]!;
    const rr = r[e]! + r[e + 1]!;
    const gr = g[e]! + g[e + 1]!;
    const br = b[e]! + b[e + 1]!;
    if (Math.abs(rl - rr) + Math.abs(gl - gr) + Math.abs(bl - br) > 6 * POST_SIDES) return -1;
    const sr = (rl + rr) / 4;
    const sg = (gl + gr) / 4;
    const sb = (bl + br) / 4;
    let d = 0;
    for (let k = at; k < at + w; k++) d += Math.abs(r[k]! - sr) + Math.abs(g[k]! - sg) + Math.abs(b[k]! - sb);
    return d / (3 * w);
  };
  const onFloor = (u: number, v: number) => {
    const col = Math.floor(u / CELL);
    const row = Math.floor(v / CELL);
    return col < cells.cols && row < cells.rows && cells.state[row * cells.cols + col] === 1;
  };
  // Feet are sought only as high as the floor reaches.
  let firstRow = 0;
  while (firstRow < cells.rows && !cells.state.subarray(firstRow * cells.cols, (firstRow + 1) * cells.cols).includes(1)) firstRow++;
  const lowest = firstRow * CELL;
  const feet: Array<{ x: number; z: number; half: number; top: number; rows: number[] }> = [];
  const widest = POST_STRIPS[POST_STRIPS.length - 1]!;
  // The top row of a post's strip whose first run reaches up to `head` at column u. A tilted
  // camera leans a post a pixel aside every few dozen rows, and a band of it (a pale sleeve on a
  // grey pipe) may match what stands behind it for a row or two, or be wider: the strip goes on a
  // column aside, at another width and across such a gap. The loft's tallest stub's first run is
  // 15 cm of its 50, and a sofa behind it was drawn across its top. Each row's strip
  // ([v, u0, u1]) is pushed onto `rows`; a row bridged over takes the columns of the row below it.
  const postTop = (u: number, head: number, w: number, rows: number[]): number => {
    let at = u;
    let wide = w;
    let top = head;
    for (let v = head - 1; v > 0; ) {
      let next = -1;
      for (let gap = 0; gap <= POST_GAP && next < 0 && v - gap > 0; gap++) {
        for (const du of [0, -1, 1]) {
          const c = at + du;
          if (c < 3 || c >= width - widest - 2) continue;
          const k = standsOut(c, v - gap, w) > POST_CONTRAST ? w : POST_STRIPS.find((k) => k !== w && standsOut(c, v - gap, k) > POST_CONTRAST);
          if (k === undefined) continue;
          for (let g = 0; g < gap; g++) rows.push(v - g, at, at + wide);
          at = c;
          wide = k;
          next = v - gap;
          break;
        }
      }
      if (next < 0) break;
      rows.push(next, at, at + wide);
      top = next;
      v = next - 1;
    }
    return top;
  };
  for (const w of POST_STRIPS) {
    for (let u = 3; u < width - widest - 2; u++) {
      let v = height - 3;
      while (v > lowest) {
        // Every other row, as a post is several rows tall; its foot is then found to the row.
        if (standsOut(u, v, w) <= POST_CONTRAST) {
          v -= 2;
          continue;
        }
        if (standsOut(u, v + 1, w) > POST_CONTRAST) v++;
        const foot = v;
        while (v > 0 && standsOut(u, v, w) > POST_CONTRAST) v--;
        const head = v + 1;
        if (foot - head + 1 < POST_ROWS || !onFloor(u + w / 2, foot + CELL)) continue;
        const p = cam.floorPoint(u + w / 2, foot + 1);
        if (!p || p[0] < box.left + POST_WALL_MARGIN || p[0] > box.right - POST_WALL_MARGIN || p[2] > box.back - POST_WALL_MARGIN) continue;
        const top = cam.planeZPoint(u + w / 2, head, p[2]);
        const across = (w * p[2]) / cam.p.focal;
        if (!top || across < POST_WIDTH.least || across > POST_WIDTH.most || top[1] < POST_HEIGHT.least || top[1] > POST_HEIGHT.most) continue;
        // A post found, its matte is sought on above its first run (postTop); its foot stays where
        // the run met the floor, so a shadow it casts is not taken for its lower part.
        const rows: number[] = [];
        for (let r = head; r <= foot; r++) rows.push(r, u, u + w);
        const tallest = cam.planeZPoint(u + w / 2, postTop(u, head, w, rows), p[2]);
        const whole = tallest && tallest[1] <= POST_HEIGHT.most;
        feet.push({ x: p[0], z: p[2], half: across / 2, top: top[1], rows: whole ? rows : rows.slice(0, 3 * (foot - head + 1)) });
      }
    }
  }
  // Strips of one post (found at several widths and offsets) join into one footprint. Its matte
  // takes each row's narrowest strip: a wider one stands out with some of what is behind the post.
  const posts: Obstacle[] = [];
  const strips = new Map<Obstacle, Map<number, [number, number]>>();
  for (const f of feet) {
    let post = posts.find((o) => f.x > o.left - POST_JOIN && f.x < o.right + POST_JOIN && f.z > o.near - POST_JOIN && f.z < o.far + POST_JOIN);
    const [left, right, near, far] = [f.x - f.half - POST_CLEAR, f.x + f.half + POST_CLEAR, f.z - POST_CLEAR, f.z + 2 * f.half + POST_CLEAR];
    if (!post) {
      post = { left, right, near, far, worktop: null, kind: 'post', height: f.top };
      posts.push(post);
      strips.set(post, new Map());
    } else {
      post.left = Math.min(post.left, left);
      post.right = Math.max(post.right, right);
      post.near = Math.min(post.near, near);
      post.far = Math.max(post.far, far);
      post.height = Math.max(post.height ?? 0, f.top);
    }
    const byRow = strips.get(post)!;
    for (let k = 0; k < f.rows.length; k += 3) {
      const had = byRow.get(f.rows[k]!);
      if (!had || f.rows[k + 2]! - f.rows[k + 1]! < had[1] - had[0]) byRow.set(f.rows[k]!, [f.rows[k + 1]!, f.rows[k + 2]!]);
    }
  }
  for (const [post, byRow] of strips) post.matte = [...byRow].sort((a, b) => a[0] - b[0]).flatMap(([v, [u0, u1]]) => [v, u0, u1]);
  return posts;
}
