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
 * Share of a new daylight region's rows that a frame edge crosses at both its sides: a window's
 * jambs run its full height, a mirror's curved rim or a lamp's shade do not.
 */
const FRAMED = 0.4;
/** How far (working pixels) from the region's side its frame edge is looked for. */
const FRAME_SEARCH = 4;
/** Luminance step across a frame edge (over two pixels). */
const FRAME_STEP = 0.06;

export interface OpeningMeasures {
  /** Worst share of an original opening's drawn pixels covered over, over OPENING_COVERED. */
  covered: number;
  /** Largest framed new daylight region, over MIN_OPENING (0 when none is framed). */
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
  for (const c of components(morph(mask(appeared), 2))) {
    const lit = c.pixels.filter((i) => appeared[i]).length;
    if (lit >= MIN_OPENING * n && framedSides(change, c) >= FRAMED) added = Math.max(added, lit / (MIN_OPENING * n));
  }
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

/** Share of a region's rows crossed by a frame edge at its left and right sides (the weaker side). */
function framedSides(change: ChangeMaps, c: Component): number {
  const { width } = change;
  const la = (x: number, y: number) => lum(change.registered, y * width + x);
  const side = (x0: number) => {
    let best = 0;
    for (let x = Math.max(1, x0 - FRAME_SEARCH); x <= Math.min(width - 2, x0 + FRAME_SEARCH); x++) {
      let hits = 0;
      for (let y = c.y0; y <= c.y1; y++) if (Math.abs(la(x + 1, y) - la(x - 1, y)) > FRAME_STEP) hits++;
      best = Math.max(best, hits / (c.y1 - c.y0 + 1));
    }
    return best;
  };
  return Math.min(side(c.x0), side(c.x1));
}
