import type { RoomType, Style } from '@roomstager/contracts';

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

/** The full prompt for one job: the fixed instruction, then the style, then the room type. */
export function buildStagingPrompt(style: Style, roomType: RoomType): string {
  const styleFragment = STYLE_FRAGMENTS[style];
  const roomFragment = ROOM_TYPE_FRAGMENTS[roomType];
  if (!styleFragment) throw new Error(`No prompt fragment for style ${String(style)}`);
  if (!roomFragment) throw new Error(`No prompt fragment for room type ${String(roomType)}`);
  return `${STAGING_INSTRUCTION}\n${styleFragment}\n${roomFragment}`;
}
