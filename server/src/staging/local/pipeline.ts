import { ROOM_TYPES, STYLES, type RoomType, type Style } from '@roomstager/contracts';
import { z } from 'zod';
import type { StageInput, StageOutput } from '../engine.ts';
import { analyseRoom, ANALYSIS_LONG_SIDE, type RoomModel } from './analyze.ts';
import { blurLayer, compositeOnto, estimateEdgeBlur } from './composite.ts';
import { decodeImage, encodeJpeg, fitSize, resizeRgb, type RgbImage } from './image.ts';
import { layoutVariations, type Placement } from './layout.ts';
import { hashBytes, hashString } from './prng.ts';
import { renderFurniture } from './render.ts';
import { checkRoomFound } from './room-check.ts';
import { variationSet, type FurnitureSet } from './set.ts';

/** Furniture is rendered at most this large and scaled to the photo's size when compositing. */
export const RENDER_LONG_SIDE = 1600;

/** Most variations one staging makes (issue 15: the user picks one of three). */
export const MAX_VARIATIONS = 3;

const inputSchema = z.object({
  image: z.instanceof(Buffer),
  contentType: z.string(),
  style: z.enum(STYLES),
  roomType: z.enum(ROOM_TYPES),
  signal: z.instanceof(AbortSignal),
  look: z.string().min(1).max(200).optional(),
  variations: z.number().int().min(1).max(MAX_VARIATIONS).optional(),
});

/** What a staging is asked for besides the photo: the listing's look and how many variations. */
export interface StageOptions {
  look?: string | undefined;
  variations?: number | undefined;
}

export interface StagedVariation {
  image: RgbImage;
  placements: Placement[];
  set: FurnitureSet;
}

/** The first variation, the room it was staged in, and the further variations. */
export interface StagedDetail extends StagedVariation {
  room: RoomModel;
  alternatives: StagedVariation[];
}

/** Everything the variations share: the photo and its analysis are made once (docs/decisions/0025-local-engine-looks-and-variations.md). */
interface Prepared {
  photo: RgbImage;
  room: RoomModel;
  style: Style;
  roomType: RoomType;
  sets: FurnitureSet[];
  layouts: Placement[][];
  /** The photo's edge blur at the render size, and the seed of its grain. */
  blur: number;
  grainSeed: number;
  render: { width: number; height: number };
}

async function prepare(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal, options: StageOptions): Promise<Prepared> {
  signal.throwIfAborted();
  const photo = await decodeImage(bytes);
  signal.throwIfAborted();
  // Analysis at one fixed size, so the layout does not depend on the photo's resolution.
  const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
  const analysed = await resizeRgb(photo, a.width, a.height);
  const room = analyseRoom(analysed);
  signal.throwIfAborted();
  const photoSeed = hashBytes(photo.data);
  const count = options.variations ?? 1;
  const sets = Array.from({ length: count }, (_, k) => variationSet(style, k, options.look, photoSeed));
  const layouts = layoutVariations(room, roomType, sets.map((s) => s.def));
  checkRoomFound(photo, analysed, room, layouts[0]!);
  signal.throwIfAborted();
  const render = fitSize(photo.width, photo.height, RENDER_LONG_SIDE);
  const blur = estimateEdgeBlur(photo, room.segments, room.camera.p.width, render.width);
  return { photo, room, style, roomType, sets, layouts, blur, grainSeed: hashString(`${style}:${roomType}`, photoSeed), render };
}

/**
 * Variation `k` rendered and composited onto `target`, in place: a copy of the photo, or the
 * photo itself for the last variation (nothing reads it after that).
 */
function composeVariation(p: Prepared, k: number, target: RgbImage): RgbImage {
  const def = p.sets[k]!.def;
  const render = renderFurniture(p.room, p.layouts[k]!, p.style, def, p.roomType, p.render.width, p.render.height);
  blurLayer(render, p.blur);
  return compositeOnto(target, render, def.grade, p.grainSeed);
}

/** The photo's pixels in a new buffer (compositing writes over its target). */
function copyOf(photo: RgbImage): RgbImage {
  return { ...photo, data: new Uint8Array(photo.data) };
}

/**
 * Renders each variation in turn over its own copy of the photo, handing each to `take` before
 * the next is made, so at most one extra full-size copy is alive at a time.
 */
async function eachVariation(p: Prepared, signal: AbortSignal, take: (image: RgbImage, k: number) => Promise<void>): Promise<void> {
  const n = p.sets.length;
  for (let k = 0; k < n; k++) {
    signal.throwIfAborted();
    await take(composeVariation(p, k, k === n - 1 ? p.photo : copyOf(p.photo)), k);
  }
}

/** The local engine's steps, exposed for the example and debug scripts. */
export async function stageDetailed(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal, options: StageOptions = {}): Promise<StagedDetail> {
  const p = await prepare(bytes, style, roomType, signal, options);
  const variations: StagedVariation[] = [];
  await eachVariation(p, signal, async (image, k) => {
    variations.push({ image, placements: p.layouts[k]!, set: p.sets[k]! });
  });
  const [first, ...alternatives] = variations;
  return { ...first!, room: p.room, alternatives };
}

export function parseStageInput(input: StageInput): StageInput {
  return inputSchema.parse(input);
}

/** The whole job: photo bytes in, one staged JPEG per variation out. */
export async function stageToJpegs(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal, options: StageOptions = {}): Promise<Buffer[]> {
  const p = await prepare(bytes, style, roomType, signal, options);
  const jpegs: Buffer[] = [];
  await eachVariation(p, signal, async (image) => {
    jpegs.push(await encodeJpeg(image));
  });
  return jpegs;
}

/** The engine's answer: the first variation as the staging, the others as its alternatives. */
export function asOutput([image, ...alternatives]: Buffer[]): StageOutput {
  return { image: image!, contentType: 'image/jpeg', ...(alternatives.length ? { alternatives } : {}) };
}

/** One staging, no look: the staged JPEG. */
export async function stageToJpeg(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal): Promise<Buffer> {
  return (await stageToJpegs(bytes, style, roomType, signal))[0]!;
}
