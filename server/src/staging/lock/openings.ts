import { lum, type ChangeMaps } from './change.ts';
import { components, morph, type Component, type Mask } from './planes.ts';
import { Surface, type Zones } from './zones.ts';

/**
 * Openings inside the staging zone, found by their light. Furniture may stand in front of a window
 * or a glass door there, so a change alone says nothing; but daylight through an opening is
 * brighter than the wall around it, and staging neither turns an opening into plain wall nor puts
 * a new rectangle of daylight on a wall. Measured against the original's plain walls in the zone.
 */

/** Brighter than the zone's plain wall by this factor: glass, sky, a lit room beyond. */
const OPENING_LIGHT = 1.15;
/** Local grey deviation below which a pixel is plain (paint, not a frame or a view). */
const PLAIN = 0.02;
/** Daylight regions smaller than this share of the frame are reflections and lamps, not openings. */
const MIN_OPENING = 0.003;
/** Within this share of the plain wall's luminance, a plain pixel is wall (a dark sofa in front is not). */
const WALL_LIKE = 0.2;
/** Share of an opening's drawn pixels (frame, bars, view) that became plain wall, beyond which it was covered over. */
const OPENING_COVERED = 0.6;
/**
 * Share of the rows of a stretch of new daylight that a frame edge crosses at both its sides: a
 * window's jambs run its full height, a mirror's curved rim does not (a drum shade's sides do:
 * DRAWN tells it from a window).
 */
const FRAMED = 0.4;
/** How far (working pixels) from the region's side its frame edge is looked for. */
const FRAME_SEARCH = 4;
/** Luminance step across a frame edge (over two pixels). */
const FRAME_STEP = 0.06;
/**
 * Share of a stretch's new daylight that must be drawn (not PLAIN): an opening shows its bars and
 * the world beyond, a lamp's lit drum shade or a white cushion is smooth.
 */
const DRAWN = 0.4;
/** Share of an opening's rows over which the region it was found in may go on past one of its sides. */
const JOINED = 0.3;

export interface OpeningMeasures {
  /** Worst share of an original opening's drawn pixels covered over, over OPENING_COVERED. */
  covered: number;
  /** Most new daylight in a framed stretch of one region (framedOpening), over MIN_OPENING (0 when none is framed). */
  added: number;
}

export function openingMeasures(change: ChangeMaps, zones: Zones): OpeningMeasures {
  const { width, height } = change;
  const n = width * height;
  const inZone = (i: number) => zones.staging.data[i] === 1 && zones.surface[i] === Surface.Wall && change.valid.data[i] === 1;
  const wall = plainWallLight(change, zones, inZone);
  if (wall <= 0) return { covered: 0, added: 0 };
  const limit = OPENING_LIGHT * wall;
  const litO = new Uint8Array(n);
  const litA = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!inZone(i)) continue;
    litO[i] = lum(change.original, i) > limit ? 1 : 0;
    litA[i] = lum(change.registered, i) / change.gain > limit ? 1 : 0;
  }
  let covered = 0;
  const mask = (data: Uint8Array): Mask => ({ width, height, data });
  for (const c of components(morph(mask(litO), 2))) {
    let lit = 0;
    let drawn = 0;
    let plain = 0;
    for (const i of c.pixels) {
      if (litO[i]) lit++;
      // The opening's frame, bars and view; a repaint that tints the glass keeps them.
      if (!inZone(i) || change.deviation.original[i]! < PLAIN) continue;
      drawn++;
      if (!litA[i] && change.deviation.registered[i]! < PLAIN && Math.abs(lum(change.registered, i) / change.gain - wall) < WALL_LIKE * wall) plain++;
    }
    if (lit >= MIN_OPENING * n && drawn > 0) covered = Math.max(covered, plain / drawn / OPENING_COVERED);
  }
  const before = morph(mask(litO), 3);
  const appeared = new Uint8Array(n);
  for (let i = 0; i < n; i++) appeared[i] = litA[i] && !before.data[i] ? 1 : 0;
  let added = 0;
  for (const c of components(morph(mask(appeared), 2))) added = Math.max(added, framedOpening(change, c, appeared) / (MIN_OPENING * n));
  return { covered, added };
}

/** Median luminance of the original's plain wall pixels in the zone (0 when it shows none). */
function plainWallLight(change: ChangeMaps, zones: Zones, inZone: (i: number) => boolean): number {
  const values: number[] = [];
  for (let i = 0; i < zones.surface.length; i += 3) {
    if (inZone(i) && change.deviation.original[i]! < PLAIN) values.push(lum(change.original, i));
  }
  values.sort((p, q) => p - q);
  return values[values.length >> 1] ?? 0;
}

/**
 * The most new daylight pixels in one stretch of columns of a region whose left and right sides
 * are framed (FRAMED, over the rows the stretch spans) and bound it (the region goes on past
 * either side over at most JOINED of those rows), drawn over DRAWN of it, and at least
 * MIN_OPENING of the frame; 0 when there is none. A stretch rather than the whole region: new
 * daylight found beside a bright piece of furniture (a white sofa, a lit table top) joins it in
 * one region, whose outer sides are the furniture's, while the pasted window's jambs stand
 * inside. Bounding it: the bars of a window seen in a mirror frame stretches of the glass, which
 * goes on past them. Drawn: a lamp's drum shade has straight sides too.
 */
function framedOpening(change: ChangeMaps, c: Component, appeared: Uint8Array): number {
  const { width, height } = change;
  const minLit = MIN_OPENING * width * height;
  if (c.pixels.filter((i) => appeared[i]).length < minLit) return 0;
  const cols = c.x1 - c.x0 + 1;
  const top = new Int32Array(cols).fill(height);
  const bottom = new Int32Array(cols).fill(-1);
  const litBefore = new Int32Array(cols + 1);
  const drawnBefore = new Int32Array(cols + 1);
  const rows = c.y1 - c.y0 + 1;
  // Per column of the region, how many of its rows (from the region's top) belong to it.
  const inside = new Int32Array(cols * (rows + 1));
  for (const i of c.pixels) {
    const k = (i % width) - c.x0;
    const y = Math.floor(i / width);
    top[k] = Math.min(top[k]!, y);
    bottom[k] = Math.max(bottom[k]!, y);
    inside[k * (rows + 1) + y - c.y0 + 1] = 1;
    if (appeared[i]) {
      litBefore[k + 1]!++;
      if (change.deviation.registered[i]! >= PLAIN) drawnBefore[k + 1]!++;
    }
  }
  for (let k = 0; k < cols; k++) {
    litBefore[k + 1]! += litBefore[k]!;
    drawnBefore[k + 1]! += drawnBefore[k]!;
    for (let y = 1; y <= rows; y++) inside[k * (rows + 1) + y]! += inside[k * (rows + 1) + y - 1]!;
  }
  // The share of rows y0..y1 in which the region holds column k (0 outside it).
  const held = (k: number, y0: number, y1: number) =>
    k < 0 || k >= cols ? 0 : (inside[k * (rows + 1) + y1 - c.y0 + 1]! - inside[k * (rows + 1) + y0 - c.y0]!) / (y1 - y0 + 1);
  // Per column near the region, how many of its rows (from the region's top) a frame edge crosses.
  const xa = Math.max(1, c.x0 - FRAME_SEARCH);
  const xb = Math.min(width - 2, c.x1 + FRAME_SEARCH);
  const edges = new Int32Array((xb - xa + 1) * (rows + 1));
  const la = (x: number, y: number) => lum(change.registered, y * width + x);
  for (let x = xa; x <= xb; x++) {
    const at = (x - xa) * (rows + 1);
    for (let y = c.y0; y <= c.y1; y++) edges[at + y - c.y0 + 1] = edges[at + y - c.y0]! + (Math.abs(la(x + 1, y) - la(x - 1, y)) > FRAME_STEP ? 1 : 0);
  }
  const side = (x0: number, y0: number, y1: number) => {
    let best = 0;
    for (let x = Math.max(xa, x0 - FRAME_SEARCH); x <= Math.min(xb, x0 + FRAME_SEARCH); x++) {
      const at = (x - xa) * (rows + 1);
      best = Math.max(best, edges[at + y1 - c.y0 + 1]! - edges[at + y0 - c.y0]!);
    }
    return best / (y1 - y0 + 1);
  };
  let most = 0;
  for (let l = 0; l < cols; l++) {
    let y0 = height;
    let y1 = -1;
    for (let r = l; r < cols; r++) {
      y0 = Math.min(y0, top[r]!);
      y1 = Math.max(y1, bottom[r]!);
      const lit = litBefore[r + 1]! - litBefore[l]!;
      // Narrower than the two sides' search, one edge could frame both.
      if (r - l < 2 * FRAME_SEARCH || lit < minLit || lit <= most || held(l - 1, y0, y1) > JOINED || held(r + 1, y0, y1) > JOINED) continue;
      if (drawnBefore[r + 1]! - drawnBefore[l]! < DRAWN * lit) continue;
      if (Math.min(side(c.x0 + l, y0, y1), side(c.x0 + r, y0, y1)) >= FRAMED) most = lit;
    }
  }
  return most;
}
