import type { DriftReason, RoomType, Style } from '@roomstager/contracts';
import { describeSet } from './local/set.ts';

/**
 * The one prompt every remote staging engine sends (issue 7). Changing any text here changes what
 * customers get from every provider: the tests pin it word for word.
 */
export const STAGING_INSTRUCTION =
  'Virtually stage this real-estate photo. Keep the room exactly as photographed: the same walls, ' +
  'windows, doors, floor, ceiling, built-in fixtures, camera angle, perspective and lighting, with ' +
  'nothing moved, removed, repainted or resized. Add only movable furniture and decor that sit ' +
  'naturally on the floor and against the walls, at a realistic scale, with shadows consistent with ' +
  'the existing light. The result must look like an unedited photograph of the same room.';

export const STYLE_FRAGMENTS: Readonly<Record<Style, string>> = {
  modern: 'Style: modern, with clean-lined furniture, neutral tones with one accent colour, matte black or brushed metal details and a few abstract artworks.',
  traditional: 'Style: traditional, with classic wooden furniture, warm rich colours, upholstered pieces, patterned rugs and framed classic art.',
  minimalist: 'Style: minimalist, with a few essential low-profile pieces, light woods, white and soft grey tones and almost no decor.',
  luxury: 'Style: luxury, with high-end designer furniture, velvet and leather upholstery, marble and brass accents and statement lighting.',
};

export const ROOM_TYPE_FRAGMENTS: Readonly<Record<RoomType, string>> = {
  living_room: 'Room: a living room, furnished with a sofa, armchairs, a coffee table, a rug, side tables and a floor lamp.',
  bedroom: 'Room: a bedroom, furnished with a made bed, bedside tables with lamps, a rug and a dresser.',
  dining_room: 'Room: a dining room, furnished with a dining table, matching chairs, a rug and a sideboard.',
  kitchen: 'Room: a kitchen; keep every cabinet, counter and appliance as they are and add only bar stools, a few countertop accessories and plants.',
  office: 'Room: a home office, furnished with a desk, an office chair, a bookshelf, a desk lamp and a rug.',
};

/** Said again, more firmly, after an answer changed the room in this way (the structure lock's retry). */
export const EMPHASIS_FRAGMENTS: Readonly<Record<DriftReason, string>> = {
  framing_changed: 'Important: keep the exact same framing: do not crop, zoom, rotate or move the camera; the output must line up with the input pixel for pixel.',
  opening_changed: 'Important: keep every window and door exactly where and as it is: add none, remove none, move none, and do not cover or close any opening.',
  walls_recoloured: 'Important: keep the walls exactly their current colour and brightness: do not repaint, relight or retexture them.',
  floor_resurfaced: 'Important: keep the floor exactly as it is: the same material, colour and pattern where no furniture or rug stands.',
  ceiling_fixture_changed: 'Important: keep the ceiling and its light fixtures exactly as they are: add no ceiling lights and remove none.',
  built_ins_changed: 'Important: keep every built-in fitting (cabinets, counters, appliances, shelves, mouldings) exactly as it is.',
};

/**
 * The full prompt for one job: the fixed instruction, then the style, then the room type, then
 * the listing's furniture set in words when a look is given (the set the local engine would use,
 * so every photo of a listing is asked for the same pieces), then (when an earlier answer
 * changed the room) a firmer word on what it changed.
 */
export function buildStagingPrompt(style: Style, roomType: RoomType, emphasis: readonly DriftReason[] = [], look?: string): string {
  const styleFragment = STYLE_FRAGMENTS[style];
  const roomFragment = ROOM_TYPE_FRAGMENTS[roomType];
  if (!styleFragment) throw new Error(`No prompt fragment for style ${String(style)}`);
  if (!roomFragment) throw new Error(`No prompt fragment for room type ${String(roomType)}`);
  const set = look === undefined ? [] : [describeSet(style, look)];
  return [STAGING_INSTRUCTION, styleFragment, roomFragment, ...set, ...emphasis.map((r) => EMPHASIS_FRAGMENTS[r])].join('\n');
}
