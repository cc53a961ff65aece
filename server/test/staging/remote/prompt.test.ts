import { ROOM_TYPES, STYLES } from '@roomstager/contracts';
import { describe, expect, it } from 'vitest';
import { describeSet } from '../../../src/staging/local/set.ts';
import { buildStagingPrompt, ROOM_TYPE_FRAGMENTS, STAGING_INSTRUCTION, STYLE_FRAGMENTS } from '../../../src/staging/prompt.ts';

describe('staging prompt', () => {
  it('is pinned word for word', () => {
    expect(buildStagingPrompt('modern', 'living_room')).toMatchInlineSnapshot(`
      "Virtually stage this real-estate photo. Keep the room exactly as photographed: the same walls, windows, doors, floor, ceiling, built-in fixtures, camera angle, perspective and lighting, with nothing moved, removed, repainted or resized. Add only movable furniture and decor that sit naturally on the floor and against the walls, at a realistic scale, with shadows consistent with the existing light. The result must look like an unedited photograph of the same room.
      Style: modern, with clean-lined furniture, neutral tones with one accent colour, matte black or brushed metal details and a few abstract artworks.
      Room: a living room, furnished with a sofa, armchairs, a coffee table, a rug, side tables and a floor lamp."
    `);
  });

  it('has one distinct fragment for every style and every room type, and nothing else', () => {
    expect(Object.keys(STYLE_FRAGMENTS).sort()).toEqual([...STYLES].sort());
    expect(Object.keys(ROOM_TYPE_FRAGMENTS).sort()).toEqual([...ROOM_TYPES].sort());
    expect(new Set(Object.values(STYLE_FRAGMENTS)).size).toBe(STYLES.length);
    expect(new Set(Object.values(ROOM_TYPE_FRAGMENTS)).size).toBe(ROOM_TYPES.length);
    for (const style of STYLES) {
      for (const roomType of ROOM_TYPES) {
        const prompt = buildStagingPrompt(style, roomType);
        expect(prompt.startsWith(STAGING_INSTRUCTION)).toBe(true);
        expect(prompt).toContain(STYLE_FRAGMENTS[style]);
        expect(prompt).toContain(ROOM_TYPE_FRAGMENTS[roomType]);
      }
    }
  });

  it("describes a listing's furniture set when a look is given: the same words for every room of it, other words in another style", () => {
    const prompt = buildStagingPrompt('modern', 'bedroom', [], 'listing-7');
    expect(prompt).toContain(describeSet('modern', 'listing-7'));
    expect(describeSet('modern', 'listing-7')).toMatch(/^Furniture set, the same in every photo of this property: a .+ sofa, .+ wood, .+ metal accents/);
    expect(buildStagingPrompt('modern', 'living_room', [], 'listing-7')).toContain(describeSet('modern', 'listing-7'));
    expect(describeSet('luxury', 'listing-7')).not.toBe(describeSet('modern', 'listing-7'));
    expect(buildStagingPrompt('modern', 'bedroom')).not.toContain('Furniture set');
  });

  it('keeps the room structure and adds only movable furniture and decor', () => {
    for (const word of ['walls', 'windows', 'doors', 'floor', 'ceiling', 'fixtures', 'camera angle', 'lighting', 'movable furniture and decor']) {
      expect(STAGING_INSTRUCTION).toContain(word);
    }
  });
});
