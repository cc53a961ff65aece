import { NoRoomError } from '../engine.ts';
import type { RoomModel } from './analyze.ts';
import type { RgbImage } from './image.ts';
import type { Placement } from './layout.ts';

/** What works, said after every refusal. */
const WHAT_WORKS =
  'Nothing was staged and your credit has been refunded. Please upload a photo of an empty room taken at about eye level from a corner or doorway, showing the floor and at least one wall.';

export const NO_ROOM_MESSAGES = {
  shape: `This photo is too wide or too tall for a room photo (a panorama or a strip). ${WHAT_WORKS}`,
  blank: `This photo is too dark or too plain to make out a room. ${WHAT_WORKS}`,
  noRoom: `We could not find a room to furnish in this photo: no floor and walls in perspective. ${WHAT_WORKS}`,
} as const;

/** Room photos are 4:3 to 16:9, a wide-angle one up to about 2:1; panoramas and strips are longer. */
const MAX_ASPECT = 2.6;
/** Below this luminance spread (0..1) a frame shows no surfaces to tell apart: black, white, fog. */
const MIN_LUMINANCE_SPREAD = 0.02;
/** Darker than this on average, nothing in the photo can be measured. */
const MIN_MEAN_LUMINANCE = 0.04;

function luminanceStats(img: RgbImage): { mean: number; spread: number } {
  const n = img.width * img.height;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const l = (0.299 * (img.data[3 * i] ?? 0) + 0.587 * (img.data[3 * i + 1] ?? 0) + 0.114 * (img.data[3 * i + 2] ?? 0)) / 255;
    sum += l;
    squares += l * l;
  }
  const mean = sum / n;
  return { mean, spread: Math.sqrt(Math.max(0, squares / n - mean * mean)) };
}

/**
 * Refuses a photo in which the engine finds no room to furnish, so nothing is charged for it:
 * a strip or panorama, a blank or black frame, or no perspective at all (a close-up of a
 * texture, a wall seen square on, anything without converging floor and wall lines: the layout
 * would only guess). `analysed` is the photo at the analysis size.
 */
export function checkRoomFound(photo: { width: number; height: number }, analysed: RgbImage, room: RoomModel, placements: Placement[]): void {
  const aspect = Math.max(photo.width, photo.height) / Math.min(photo.width, photo.height);
  if (aspect > MAX_ASPECT) throw new NoRoomError(NO_ROOM_MESSAGES.shape);
  const { mean, spread } = luminanceStats(analysed);
  if (spread < MIN_LUMINANCE_SPREAD || mean < MIN_MEAN_LUMINANCE) throw new NoRoomError(NO_ROOM_MESSAGES.blank);
  if (room.defaultCamera || placements.length === 0) throw new NoRoomError(NO_ROOM_MESSAGES.noRoom);
}
