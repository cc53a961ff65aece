import { ROOM_TYPES, STYLES, type RoomType, type Style } from '@roomstager/contracts';
import { z } from 'zod';
import type { StageInput, StageOutput } from '../engine.ts';
import { analyseRoom, ANALYSIS_LONG_SIDE, reviveRoom, type RoomModel } from './analyze.ts';
import { blurLayer, clippedFloor, compositeOnto, estimateEdgeBlur, type ClippedFloor } from './composite.ts';
import { decodeImage, encodeJpeg, fitSize, resizeRgb, type RgbImage } from './image.ts';
import { layoutVariations, type Placement } from './layout.ts';
import { hashBytes, hashString } from './prng.ts';
import { claim, claimForHelper, defaultHelper, floorRows, isCancelled, markFailed, release, TASKS, tileRows, type HelpRequest, type RenderHelper, type SharedPart } from './helper.ts';
import { tileRowCount } from './raster.ts';
import { RowsLost } from './shadows.ts';
import {
  applyCavity,
  floorReflection,
  hasReflection,
  photoShadow,
  rasterizeFurniture,
  reflectionSize,
  renderFurniture,
  setUpRender,
  uncoverPosts,
  type RenderResult,
  type RenderSetup,
} from './render.ts';
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

/** What both threads render from (docs/decisions/0029-local-engine-render-helper.md). */
export interface Plan {
  room: RoomModel;
  sets: FurnitureSet[];
  layouts: Placement[][];
}

/** The room, the variations' sets and layouts. */
function planStaging(analysed: RgbImage, photoSeed: number, style: Style, roomType: RoomType, options: StageOptions): Plan {
  const room = analyseRoom(analysed);
  const count = options.variations ?? 1;
  const sets = Array.from({ length: count }, (_, k) => variationSet(style, k, options.look, photoSeed));
  const layouts = layoutVariations(room, roomType, sets.map((s) => s.def));
  return { room, sets, layouts };
}

/** Everything the variations share: the photo and its analysis are made once (docs/decisions/0025-local-engine-looks-and-variations.md). */
interface Prepared extends Plan {
  photo: RgbImage;
  style: Style;
  roomType: RoomType;
  /** The photo's edge blur at the render size, and the seed of its grain. */
  blur: number;
  grainSeed: number;
  /** The photo's floor and its unclipped colour, for shadows over clipped floor. */
  floor: ClippedFloor | null;
  render: { width: number; height: number };
  /** Each variation's render in shared memory when a helper thread takes a share of it. */
  parts: SharedPart[] | null;
  helper: RenderHelper | null;
}

async function prepare(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal, options: StageOptions, helper: RenderHelper | null): Promise<Prepared> {
  signal.throwIfAborted();
  const photo = await decodeImage(bytes);
  signal.throwIfAborted();
  // Analysis at one fixed size, so the layout does not depend on the photo's resolution.
  const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
  const analysed = await resizeRgb(photo, a.width, a.height);
  const photoSeed = hashBytes(photo.data);
  const render = fitSize(photo.width, photo.height, RENDER_LONG_SIDE);
  const plan = planStaging(analysed, photoSeed, style, roomType, options);
  signal.throwIfAborted();
  checkRoomFound(photo, analysed, plan.room, plan.layouts[0]!);
  const blur = estimateEdgeBlur(photo, plan.room.segments, plan.room.camera.p.width, render.width);
  const floor = clippedFloor(plan.room, photo);
  // The helper starts on the floor's shadow grid now, alongside this thread; nothing after this can fail and leave it the parts.
  let parts = helper ? await helper.lease(plan.sets.length, render.width, render.height, signal) : null;
  if (parts && !helper?.help({ plan, style, roomType, parts })) {
    helper?.giveBack(parts);
    parts = null;
  }
  return { ...plan, photo, style, roomType, blur, grainSeed: hashString(`${style}:${roomType}`, photoSeed), floor, render, parts, helper: parts ? helper : null };
}

/**
 * Variation `k`'s render, the furniture blurred to the photo's softness. With a helper, both
 * threads rasterise tile rows; this thread then darkens the creases and blurs while the helper
 * does the tasks, takes the tasks the helper has not, waits for the units it holds, and redoes
 * the whole variation alone if the helper failed in one.
 */
async function renderVariation(p: Prepared, k: number, signal: AbortSignal): Promise<RenderResult> {
  const def = p.sets[k]!.def;
  const { width, height } = p.render;
  const alone = () => {
    const r = renderFurniture(p.room, p.layouts[k]!, p.style, def, p.roomType, width, height);
    blurLayer(r, p.blur);
    return r;
  };
  const part = p.parts?.[k];
  const helper = p.helper;
  if (!part || !helper) return alone();
  const redo = () => {
    helper.redone++;
    return alone();
  };
  let s: RenderSetup;
  try {
    s = setUpRender(p.room, p.layouts[k]!, p.style, def, p.roomType, width, height, floorRows(part, false));
  } catch (err) {
    if (!(err instanceof RowsLost)) throw err;
    return redo();
  }
  const layer = { width, height, color: part.color, alpha: part.alpha, depth: part.depth };
  const rows = tileRowCount(height);
  rasterizeFurniture(s, layer, tileRows(part, false, rows).next);
  if (!(await helper.rowsIn(part, rows, signal))) return redo();
  applyCavity(s, layer);
  uncoverPosts(p.room, layer, null);
  const r = reflectionSize(width, height);
  const result = { layer, shadow: part.shadow, reflection: hasReflection(p.room) ? { ...r, color: part.reflection } : null };
  blurLayer(result, p.blur);
  for (let t = claim(part, 'task'); t < TASKS; t = claim(part, 'task')) runTask(s, part, t);
  if (!(await helper.settled(part, signal))) return redo();
  uncoverPosts(p.room, layer, part.shadow);
  return result;
}

/** Task `t` of a variation besides its rows: 0 the photo's shadows, 1 the floor's reflection. */
function runTask(s: RenderSetup, part: SharedPart, t: number): void {
  if (t === 0) photoShadow(s, part.shadow);
  else floorReflection(s, part.reflection);
}

/**
 * The helper thread's share of a staging (helper-entry.ts): per variation the tile rows and the
 * tasks the staging's thread has not taken. A failure marks the variation, so the staging's
 * thread redoes it.
 */
export function takeShare(request: HelpRequest): void {
  const { style, roomType, parts } = request;
  const plan = { ...request.plan, room: reviveRoom(request.plan.room) };
  for (const [k, part] of parts.entries()) {
    if (isCancelled(part)) continue;
    let held = false;
    const floor = floorRows(part, true);
    const rows = tileRows(part, true, tileRowCount(part.height));
    try {
      const s = setUpRender(plan.room, plan.layouts[k]!, style, plan.sets[k]!.def, roomType, part.width, part.height, floor);
      const layer = { width: part.width, height: part.height, color: part.color, alpha: part.alpha, depth: part.depth };
      rasterizeFurniture(s, layer, rows.next);
      for (let t = claimForHelper(part, 'task', TASKS); t >= 0; t = claimForHelper(part, 'task', TASKS)) {
        held = true;
        runTask(s, part, t);
        held = false;
        release(part);
      }
    } catch {
      markFailed(part);
      floor.drop();
      rows.drop();
      if (held) release(part);
    }
  }
}

/**
 * Variation `k` rendered and composited onto `target`, in place: a copy of the photo, or the
 * photo itself for the last variation (nothing reads it after that).
 */
async function composeVariation(p: Prepared, k: number, target: RgbImage, signal: AbortSignal): Promise<RgbImage> {
  const render = await renderVariation(p, k, signal);
  return compositeOnto(target, render, p.grainSeed, p.floor);
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
  try {
    for (let k = 0; k < n; k++) {
      signal.throwIfAborted();
      await take(await composeVariation(p, k, k === n - 1 ? p.photo : copyOf(p.photo), signal), k);
    }
  } finally {
    if (p.parts) p.helper?.giveBack(p.parts);
  }
}

/** The local engine's steps, exposed for the example and debug scripts. */
export async function stageDetailed(
  bytes: Buffer,
  style: Style,
  roomType: RoomType,
  signal: AbortSignal,
  options: StageOptions = {},
  helper: RenderHelper | null = null,
): Promise<StagedDetail> {
  const p = await prepare(bytes, style, roomType, signal, options, helper);
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

/** The whole job: photo bytes in, one staged JPEG per variation out; with a helper thread unless `helper` is null. */
export async function stageToJpegs(
  bytes: Buffer,
  style: Style,
  roomType: RoomType,
  signal: AbortSignal,
  options: StageOptions = {},
  helper: RenderHelper | null = defaultHelper(),
): Promise<Buffer[]> {
  const p = await prepare(bytes, style, roomType, signal, options, helper);
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
