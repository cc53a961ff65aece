/**
 * The structure lock (issue 13): a generative answer may change only what staging adds; the room
 * itself comes back as the original's pixels.
 *
 * analysis.ts both photos at the working size (the local engine's ANALYSIS_LONG_SIDE); the
 *             original's room analysis (local/analyze.ts) -> zones; registration; change maps;
 *             the added-content mask; the check
 * zones.ts    per pixel of the original: floor, wall or ceiling from the room box; the staging zone
 *             (floor, walls to picture height, what stands on the floor) and the structure zone
 *             (ceiling, upper walls), the original's openings
 * register.ts the answer onto the original: zoom-and-shift search at 1/8 size, then robust
 *             Gauss-Newton on local contrast (similarity -> affine -> homography)
 * change.ts   colour (after an exposure gain) and local-contrast differences of the registered answer
 * openings.ts openings inside the staging zone, told by their light: one covered over with wall,
 *             or a new framed one, is drift; furniture in front of one is not
 * verdict.ts  faithful or drift, with reasons from a fixed list and a score
 * compose.ts  the lock: the original at full resolution, the answer's colour-matched additions
 *             (feathered), and their shadows as a darkening of the original's own pixels
 * planes.ts   float planes, homographies, warping, masks, morphology, components
 * debug.ts    the registered answer and the change map drawn side by side
 * engine.ts   LockedEngine: every remote engine's answer through the lock, one retry on drift
 * thread.ts   the lock on a long-lived thread of its own (worker-entry.ts), off the server's event loop
 */
import { decodeImage, type RgbImage } from '../local/image.ts';
import type { Plane } from '../local/lines.ts';
import { analyseAnswer, type LockAnalysis } from './analysis.ts';
import { compose, fitColorMatch, shadowRatio } from './compose.ts';
import type { StructureCheck } from './verdict.ts';

export { DRIFT_REASONS, DRIFT_REASON_TEXT, type DriftReason, type StructureCheck } from './verdict.ts';
export { drawDebug } from './debug.ts';
export { encodeComposite } from './compose.ts';
export type { LockAnalysis } from './analysis.ts';

export interface LockResult {
  check: StructureCheck;
  analysis: LockAnalysis;
  /** The locked result at the original's size (when asked for). */
  composite?: RgbImage;
  /** The darkening applied to the original's pixels around what was added (1 = none), working grid. */
  shadow?: Plane;
}

/**
 * Checks an answer against the original and, when `composite` is set, locks it. `inPlace` writes
 * the composite over the original's pixels, for a caller that no longer needs them: a fresh copy
 * of a 12 MP photo took 0.15 to 0.2 s, mostly page faults.
 */
export async function lockAnswer(original: RgbImage, answer: RgbImage, options: { composite: boolean; inPlace?: boolean }): Promise<LockResult> {
  const analysis = await analyseAnswer(original, answer);
  if (!options.composite) return { check: analysis.check, analysis };
  const { change, zones, added, registration } = analysis;
  const colorMatch = fitColorMatch(change, zones);
  const shadow = shadowRatio(change, zones, added, colorMatch);
  const work = { original: { width: change.width, height: change.height }, answer: registration.answerSize };
  const composite = compose(original, answer, registration.h, work, added, shadow, colorMatch, options.inPlace ?? false);
  return { check: analysis.check, analysis, composite, shadow };
}

/** The same on encoded photos (any format sharp reads; EXIF orientation applied). */
export async function lockStructure(before: Buffer, after: Buffer, options: { composite: boolean }): Promise<LockResult> {
  const [original, answer] = await Promise.all([decodeImage(before), decodeImage(after)]);
  return lockAnswer(original, answer, { ...options, inPlace: true });
}
