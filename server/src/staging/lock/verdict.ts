import { DRIFT_REASONS, type DriftReason } from '@roomstager/contracts';
import { CHROMA_LIMIT, COLOR_LIMIT, TEXTURE_LIMIT, type ChangeMaps } from './change.ts';
import { openingMeasures } from './openings.ts';
import type { Plane } from '../local/lines.ts';
import { components, morph, type Mask } from './planes.ts';
import type { Registration } from './register.ts';
import { Surface, type Zones } from './zones.ts';

export { DRIFT_REASONS, type DriftReason };

/** For people (the job's message, the retry prompt). */
export const DRIFT_REASON_TEXT: Record<DriftReason, string> = {
  framing_changed: 'the framing changed (the camera moved or zoomed too far to line up)',
  opening_changed: 'a window or door was added, moved or removed',
  walls_recoloured: 'the walls were recoloured',
  floor_resurfaced: 'the floor was resurfaced or recoloured',
  ceiling_fixture_changed: 'a ceiling fixture was added or removed',
  built_ins_changed: 'built-in fittings were changed',
};

export interface StructureCheck {
  verdict: 'faithful' | 'drift';
  /**
   * How safely the answer passes: 1 - (worst measure / its limit) / 2, clamped to 0..1. Every
   * measure at its limit gives 0.5, so drift is exactly a score below 0.5.
   */
  score: number;
  reasons: DriftReason[];
  /** Each measure over its limit (1 = at the limit), for logs and tuning. */
  measures: Record<DriftReason, number>;
}

/** Below this share of the original's edges found again, the answer does not line up. */
const MIN_EDGE_RECALL = 0.5;
/** The answer must cover this much of the original's frame. */
const MIN_COVERAGE = 0.75;
/** A changed blob on the ceiling this large (share of the frame) is a fixture. */
const CEILING_BLOB = 0.0007;
/** A changed blob on the upper walls this large is a changed fitting (cabinets, mouldings, hood). */
const WALL_BLOB = 0.003;
/** A changed blob reaching the upper walls that is this large overall is an opening. */
const OPENING_BLOB = 0.008;
/** Share of an original opening that changed, beyond which it was removed or moved. */
const OPENING_CHANGED = 0.5;
/**
 * Share of the walls whose colour changed without their texture changing: the Christmas answer's
 * pink walls show 0.29; the generative reference staging 0.08, the local engine's 0.03.
 */
const WALLS_RECOLOURED = 0.27;
/** Share of the floor that changed: rugs and furniture cover less. */
const FLOOR_CHANGED = 0.7;
/** Share of the floor whose colour alone changed. */
const FLOOR_RECOLOURED = 0.35;
/** How far (share of the frame's width, across or along: a square) round a piece of furniture the floor may lie in its shadow. */
const SHADOW_REACH = 0.08;
/** Share of the floor beyond that reach darkened, above which the floor was stained, not shaded. */
const FLOOR_STAINED = 0.15;
/** Share of the floor that must lie beyond that reach for a stain to be told from shadows. */
const FLOOR_FAR = 0.1;
/** Grain (local deviation over light) below which a floor counts as plain: JPEG noise on a smooth finish. */
const GRAIN_FLOOR = 0.03;

export function checkStructure(reg: Registration, change: ChangeMaps, zones: Zones): StructureCheck {
  const n = change.width * change.height;
  const cleaned = morph(morph(change.changed, -1), 1);
  // Windows, doors and fittings change shapes, not only colours (a repaint is judged below).
  const textured = new Uint8Array(n);
  for (let i = 0; i < n; i++) textured[i] = change.texture[i]! > TEXTURE_LIMIT ? 1 : 0;
  // Grown to join a window's frame and bars into one blob; sizes count changed pixels only.
  const shapes = morph({ width: change.width, height: change.height, data: textured }, 2);
  const measures: Record<DriftReason, number> = {
    framing_changed: Math.max((1 - change.edgeRecall) / (1 - MIN_EDGE_RECALL), (1 - reg.coverage) / (1 - MIN_COVERAGE)),
    opening_changed: 0,
    walls_recoloured: 0,
    floor_resurfaced: 0,
    ceiling_fixture_changed: 0,
    built_ins_changed: 0,
  };
  // Changes that reach where nothing may be added: by where they are and how large they are overall.
  for (const c of components(shapes)) {
    let ceiling = 0;
    let wall = 0;
    let size = 0;
    for (const i of c.pixels) {
      if (!cleaned.data[i]) continue;
      size++;
      if (!zones.structure.data[i]) continue;
      if (zones.surface[i] === Surface.Ceiling) ceiling++;
      else wall++;
    }
    // A blob mostly on the ceiling is a fixture; one mostly on the walls (a window's head reaches
    // close to the ceiling) is judged as a wall change.
    if (ceiling > wall) {
      measures.ceiling_fixture_changed = Math.max(measures.ceiling_fixture_changed, ceiling / n / CEILING_BLOB);
      continue;
    }
    if (wall === 0) continue;
    if (size >= OPENING_BLOB * n) measures.opening_changed = Math.max(measures.opening_changed, size / n / OPENING_BLOB);
    else measures.built_ins_changed = Math.max(measures.built_ins_changed, wall / n / WALL_BLOB);
  }
  for (const o of components(zones.openings)) {
    let changed = 0;
    for (const i of o.pixels) if (cleaned.data[i]) changed++;
    measures.opening_changed = Math.max(measures.opening_changed, changed / o.pixels.length / OPENING_CHANGED);
  }
  // Inside the staging zone, where furniture may stand in front of them, openings are told by their light.
  const inZone = openingMeasures(change, zones);
  measures.opening_changed = Math.max(measures.opening_changed, inZone.covered, inZone.added);
  measures.walls_recoloured = recolouredShare(change, zones, Surface.Wall, cleaned) / WALLS_RECOLOURED;
  // Round the furniture (what changed shape), floor darkened with its hue and its grain kept is
  // in the furniture's shadow: the staging's, not a new floor. Nothing is let off where the floor
  // away from every piece is darkened as well (a stain), or where too little of it is left to tell.
  const shade = morph(shapes, Math.round(SHADOW_REACH * change.width));
  let floorAll = 0;
  let far = 0;
  let farDarkened = 0;
  for (let i = 0; i < n; i++) {
    if (zones.surface[i] !== Surface.Floor || !change.valid.data[i]) continue;
    floorAll++;
    if (shade.data[i]) continue;
    far++;
    if (change.color[i]! > COLOR_LIMIT && shadowed(change, i)) farDarkened++;
  }
  const judged = far >= FLOOR_FAR * floorAll && farDarkened <= FLOOR_STAINED * far;
  const inShadow = (i: number) => judged && shade.data[i] === 1 && shadowed(change, i);
  let floor = 0;
  let floorChanged = 0;
  for (let i = 0; i < n; i++) {
    if (zones.surface[i] !== Surface.Floor || !change.valid.data[i]) continue;
    floor++;
    if (cleaned.data[i] && !inShadow(i)) floorChanged++;
  }
  measures.floor_resurfaced = Math.max(
    floor ? floorChanged / floor / FLOOR_CHANGED : 0,
    recolouredShare(change, zones, Surface.Floor, cleaned, inShadow) / FLOOR_RECOLOURED,
  );
  const reasons = DRIFT_REASONS.filter((r) => measures[r] >= 1);
  const worst = Math.max(...Object.values(measures));
  const score = Math.round(Math.max(0, Math.min(1, 1 - worst / 2)) * 1000) / 1000;
  return { verdict: reasons.length ? 'drift' : 'faithful', score, reasons, measures };
}

/**
 * Share of a surface's pixels whose colour changed while their texture did not: paint, not an
 * object in front. Pixels inside changed blobs (furniture, art) are left out of both counts;
 * pixels `kept` (in a piece's shadow) count as unchanged.
 */
function recolouredShare(change: ChangeMaps, zones: Zones, surface: Surface, cleaned: Mask, kept: (i: number) => boolean = () => false): number {
  let total = 0;
  let recoloured = 0;
  for (let i = 0; i < zones.surface.length; i++) {
    if (zones.surface[i] !== surface || !change.valid.data[i]) continue;
    if (change.texture[i]! > 0.5 * TEXTURE_LIMIT && cleaned.data[i]) continue;
    total++;
    if ((change.color[i]! > COLOR_LIMIT || change.chroma[i]! > CHROMA_LIMIT) && !kept(i)) recoloured++;
  }
  return total ? recoloured / total : 0;
}

/**
 * Darkened as a shadow darkens a surface: to between a fifth and 93 % of its light, its hue kept,
 * and its grain kept in proportion (a shadow dims the grain with the light; new boards or tiles
 * bring grain of their own).
 */
function shadowed(change: ChangeMaps, i: number): boolean {
  if (change.chroma[i]! > CHROMA_LIMIT / 2) return false;
  const sum = (p: [Plane, Plane, Plane]) => p[0].data[i]! + p[1].data[i]! + p[2].data[i]!;
  const before = Math.max(1e-3, sum(change.original) / 3);
  const after = Math.max(1e-3, sum(change.registered) / 3 / change.gain);
  const ratio = after / before;
  if (!(ratio > 0.2 && ratio < 0.93)) return false;
  const grain = Math.log((change.deviation.registered[i]! / change.gain / after + GRAIN_FLOOR) / (change.deviation.original[i]! / before + GRAIN_FLOOR));
  return Math.abs(grain) < TEXTURE_LIMIT / 2;
}
