import type { Opening, Wall, WallId } from './analyze.ts';
import type { Camera } from './camera.ts';
import { colorDist, LineScorer, sampleColor, wallPoint, wallRange, type ColorPlanes, type RoomBox } from './roombox.ts';
import type { Vec3 } from './vec.ts';

/** A run of kitchen base cabinets with a worktop, standing against a wall of the room box. */
export interface Counter {
  wall: WallId;
  /** Extent along the wall in metres (Z for side walls, X for the back wall). */
  from: number;
  to: number;
  /** Worktop height above the floor, metres. */
  height: number;
  /** How far the cabinets' front stands out from the box's wall plane (about 0 when the box found the cabinet front itself). */
  front: number;
}

const BIN = 0.1;
/** Heights searched for the worktop's edge on the wall plane; parallax moves it off 0.9 m. */
const EDGE_LO = 0.7;
const EDGE_HI = 1.1;
const EDGE_STEP = 0.01;
/** Plausible worktop heights once the cabinets' depth is known: lower edges are radiators and sills, higher ones bars. */
export const MIN_HEIGHT = 0.82;
export const MAX_HEIGHT = 1.0;
/** The found edge is the worktop's underside; its top is this much higher. */
export const WORKTOP = 0.02;
/** Below the worktop (doors) and above it (splashback), compared for a change of surface. */
const LOWER_BAND = [0.3, 0.42, 0.54, 0.66];
const UPPER_BAND = [1.12, 1.22, 1.32];
const MIN_EDGE = 0.05;
const MIN_BAND_CHANGE = 0.05;
const MIN_RUN = 0.9;
/** Openings' bottoms are found to 10 cm; a worktop edge this close to one is the opening's sill. */
const SILL = 0.15;

interface Bin {
  along: number;
  /** Height of the strongest edge on the wall plane, or null when the bin shows no counter. */
  edge: number | null;
}

/**
 * Finds kitchen counters: a worktop is a long horizontal edge at a consistent height between
 * 0.8 and 1 m along a wall, with a different surface below it (cabinet doors) than above it
 * (splashback or wall). The cabinets' front is then placed where the floor line in front of the
 * wall is strongest, since the room box may have taken either the real wall or the cabinet
 * front (the plinth is also a floor-wall line). The true height follows from that depth.
 * Only runs of at least 0.9 m count; doors, low windows and window sills break a run.
 */
export function detectCounters(cam: Camera, box: RoomBox, c: ColorPlanes, walls: Wall[], openings: Opening[], floorRef: Vec3): Counter[] {
  const out: Counter[] = [];
  const scorer = new LineScorer(cam, c, floorRef);
  for (const wall of walls) {
    const [lo, hi] = wallRange(box, wall.id);
    const bins: Bin[] = [];
    for (let a = lo + BIN / 2; a < hi; a += BIN) {
      const edge = counterEdge(cam, c, (y) => wallPoint(box, wall.id, a, y));
      // Doors and low windows break a run, and an edge at an opening's bottom is its sill.
      const cut = openings.some((o) => o.wall === wall.id && a > o.from && a < o.to && (o.bottom < MIN_HEIGHT || Math.abs(o.bottom - (edge ?? 0)) < SILL));
      bins.push({ along: a, edge: cut ? null : edge });
    }
    const heights = bins.flatMap((b) => (b.edge === null ? [] : [b.edge])).sort((p, q) => p - q);
    if (heights.length * BIN < MIN_RUN) continue;
    const median = heights[heights.length >> 1]!;
    const on = bins.map((b) => b.edge !== null && Math.abs(b.edge - median) <= 0.035);
    // Handles and shadows spoil a bin here and there: bridge gaps of up to 20 cm.
    for (let i = 1; i < on.length; i++) {
      if (on[i] || !on[i - 1]) continue;
      const next = on[i + 1] ? i + 1 : on[i + 2] ? i + 2 : -1;
      if (next > 0) for (let k = i; k < next; k++) on[k] = true;
    }
    let start = -1;
    for (let i = 0; i <= on.length; i++) {
      if (i < on.length && on[i]) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0 && (i - start) * BIN >= MIN_RUN - 1e-9) {
        const from = bins[start]!.along - BIN / 2;
        const to = bins[i - 1]!.along + BIN / 2;
        const counter = placeCounter(cam, box, scorer, wall.id, from, to, median);
        if (counter.height >= MIN_HEIGHT && counter.height <= MAX_HEIGHT) out.push(counter);
      }
      start = -1;
    }
  }
  return out;
}

/**
 * The worktop's height on a vertical line of points `at(y)` (a 10 cm bin of a wall plane or of
 * an island's front), or null when the line does not look like a counter. Steps in colour are measured between 5 cm bands below and above each height, so thin
 * lines (drawer gaps, grain) do not count; the lowest clear step is the worktop's underside,
 * since its back edge against the wall and any window sill above it show higher up.
 */
export function counterEdge(cam: Camera, c: ColorPlanes, at: (y: number) => Vec3): number | null {
  const n = Math.round((EDGE_HI - EDGE_LO) / EDGE_STEP);
  // Colours at every centimetre from just under the lowest band to just over the highest.
  const offsets = [0.02, 0.045, 0.07];
  const y0 = EDGE_LO - 0.07;
  const samples: Vec3[] = [];
  for (let k = 0; k <= n + 14; k++) {
    const p = cam.project(at(y0 + k * EDGE_STEP));
    const out: Vec3 = [0, 0, 0];
    if (p.depth < 0.3 || !sampleColor(c, p.u, p.v, out)) return null;
    samples.push(out);
  }
  const sampleAt = (h: number) => samples[Math.round((h - y0) / EDGE_STEP)]!;
  const mean = (hs: number[]): Vec3 => {
    const m: Vec3 = [0, 0, 0];
    for (const h of hs) for (let k = 0; k < 3; k++) m[k]! += sampleAt(h)[k]! / hs.length;
    return m;
  };
  const profile: number[] = [];
  for (let k = 0; k <= n; k++) {
    const h = EDGE_LO + k * EDGE_STEP;
    profile.push(colorDist(mean(offsets.map((o) => h - o)), mean(offsets.map((o) => h + o))));
  }
  let edge: number | null = null;
  for (let k = 0; k <= n; k++) {
    const e = profile[k]!;
    if (e >= MIN_EDGE && e >= (profile[k - 1] ?? 0) && e >= (profile[k + 1] ?? 0)) {
      edge = EDGE_LO + k * EDGE_STEP;
      break;
    }
  }
  if (edge === null) return null;
  const lower = bandColor(cam, c, at, LOWER_BAND);
  const upper = bandColor(cam, c, at, UPPER_BAND);
  if (!lower || !upper || colorDist(lower, upper) < MIN_BAND_CHANGE) return null;
  return edge;
}

function bandColor(cam: Camera, c: ColorPlanes, at: (y: number) => Vec3, heights: number[]): Vec3 | null {
  const sum: Vec3 = [0, 0, 0];
  const tmp: Vec3 = [0, 0, 0];
  for (const h of heights) {
    const p = cam.project(at(h));
    if (p.depth < 0.3 || !sampleColor(c, p.u, p.v, tmp)) return null;
    for (let k = 0; k < 3; k++) sum[k]! += tmp[k]! / heights.length;
  }
  return sum;
}

/**
 * Depth of the cabinet front from the floor line, and the worktop's true height at that depth.
 * The box's walls come from a coarse grid, so the front may also lie a little behind its plane.
 */
function placeCounter(cam: Camera, box: RoomBox, scorer: LineScorer, wall: WallId, from: number, to: number, edge: number): Counter {
  let front = 0;
  let best = -Infinity;
  for (let d = -0.3; d <= 0.75 + 1e-9; d += 0.025) {
    const s = scorer.score(wallPoint(box, wall, from, 0, d), wallPoint(box, wall, to, 0, d));
    if (s > best + 1e-9) {
      best = s;
      front = d;
    }
  }
  // The edge was measured on the wall plane; seen from the eye, a point `front` metres nearer
  // sits on the same ray, so its height scales about the eye by the ratio of the distances.
  const eye = cam.p.eyeHeight;
  const dist = wall === 'left' ? -box.left : wall === 'right' ? box.right : box.back;
  const height = eye + ((edge - eye) * (dist - front)) / dist + WORKTOP;
  return { wall, from, to, height, front };
}
