import { analyseRoom, ANALYSIS_LONG_SIDE, type RoomModel } from '../local/analyze.ts';
import { fitSize, resizeRgb, type RgbImage } from '../local/image.ts';
import type { Plane } from '../local/lines.ts';
import { changeMaps, type ChangeMaps } from './change.ts';
import { addedMask } from './compose.ts';
import { grayPlane } from './planes.ts';
import { register, type Registration } from './register.ts';
import { checkStructure, type StructureCheck } from './verdict.ts';
import { roomZones, Surface, type Zones } from './zones.ts';

/** Everything the check found, on the original's working grid (ANALYSIS_LONG_SIDE). */
export interface LockAnalysis {
  room: RoomModel;
  zones: Zones;
  registration: Registration;
  change: ChangeMaps;
  /** What the model added and the lock keeps, 0..1 (feathered). */
  added: Plane;
  check: StructureCheck;
}

/** Trust in each pixel being unchanged, for the registration: staging adds things low in the room. */
const STRUCTURE_WEIGHT = 1;
const STAGING_WEIGHT = 0.35;

export async function analyseAnswer(original: RgbImage, answer: RgbImage): Promise<LockAnalysis> {
  const o = fitSize(original.width, original.height, ANALYSIS_LONG_SIDE);
  const a = fitSize(answer.width, answer.height, ANALYSIS_LONG_SIDE);
  const [ow, aw] = await Promise.all([resizeRgb(original, o.width, o.height), resizeRgb(answer, a.width, a.height)]);
  const room = analyseRoom(ow);
  const zones = roomZones(room);
  const weight = new Float32Array(ow.width * ow.height);
  for (let i = 0; i < weight.length; i++) {
    weight[i] = zones.surface[i] === Surface.Floor || zones.staging.data[i] ? STAGING_WEIGHT : STRUCTURE_WEIGHT;
  }
  const trust = { width: ow.width, height: ow.height, data: weight };
  const registration = register(grayPlane(ow), grayPlane(aw), trust);
  const change = changeMaps(ow, aw, registration.h, trust);
  const added = addedMask(change, zones);
  const check = checkStructure(registration, change, zones);
  return { room, zones, registration, change, added, check };
}
