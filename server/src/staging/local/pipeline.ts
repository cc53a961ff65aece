import { ROOM_TYPES, STYLES, type RoomType, type Style } from '@roomstager/contracts';
import { z } from 'zod';
import type { StageInput } from '../engine.ts';
import { analyseRoom, ANALYSIS_LONG_SIDE, type RoomModel } from './analyze.ts';
import { blurLayer, compositeOnto, estimateEdgeBlur } from './composite.ts';
import { decodeImage, encodeJpeg, fitSize, resizeRgb, type RgbImage } from './image.ts';
import { layoutRoom, type Placement } from './layout.ts';
import { hashBytes, hashString } from './prng.ts';
import { renderFurniture } from './render.ts';
import { checkRoomFound } from './room-check.ts';
import { STYLE_DEFS } from './styles.ts';

/** Furniture is rendered at most this large and scaled to the photo's size when compositing. */
export const RENDER_LONG_SIDE = 1600;

const inputSchema = z.object({
  image: z.instanceof(Buffer),
  contentType: z.string(),
  style: z.enum(STYLES),
  roomType: z.enum(ROOM_TYPES),
  signal: z.instanceof(AbortSignal),
});

export interface StagedDetail {
  image: RgbImage;
  room: RoomModel;
  placements: Placement[];
}

/** The local engine's steps, exposed for the example and debug scripts. */
export async function stageDetailed(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal): Promise<StagedDetail> {
  signal.throwIfAborted();
  const photo = await decodeImage(bytes);
  signal.throwIfAborted();
  // Analysis at one fixed size, so the layout does not depend on the photo's resolution.
  const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
  const analysed = await resizeRgb(photo, a.width, a.height);
  const room = analyseRoom(analysed);
  signal.throwIfAborted();
  const placements = layoutRoom(room, roomType, STYLE_DEFS[style]);
  checkRoomFound(photo, analysed, room, placements);
  signal.throwIfAborted();
  const r = fitSize(photo.width, photo.height, RENDER_LONG_SIDE);
  const render = renderFurniture(room, placements, style, roomType, r.width, r.height);
  blurLayer(render, estimateEdgeBlur(photo, room.segments, room.camera.p.width, r.width));
  signal.throwIfAborted();
  const seed = hashString(`${style}:${roomType}`, hashBytes(photo.data));
  const image = compositeOnto(photo, render, STYLE_DEFS[style].grade, seed);
  return { image, room, placements };
}

export function parseStageInput(input: StageInput): StageInput {
  return inputSchema.parse(input);
}

/** The whole job: photo bytes in, staged JPEG bytes out. */
export async function stageToJpeg(bytes: Buffer, style: Style, roomType: RoomType, signal: AbortSignal): Promise<Buffer> {
  const { image } = await stageDetailed(bytes, style, roomType, signal);
  signal.throwIfAborted();
  return encodeJpeg(image);
}

