import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STYLES } from '@roomstager/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalEngine, stageDetailed } from '../../src/staging/local/index.ts';
import { chooseSet, variationSet, type FurnitureSet } from '../../src/staging/local/set.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url)));
const engine = createLocalEngine();
afterAll(async () => {
  await engine.close?.();
});

/** What makes a set recognisable across a listing's rooms: its hero pieces and materials. */
const hero = (s: FurnitureSet) => {
  const { sofa, upholstery, wood, metal, accent, coffeeTable, rugColours } = s.names;
  const m = s.def.materials;
  return { names: [sofa, upholstery, wood, metal, accent, coffeeTable, rugColours], sofa: s.def.pieces.sofa, materials: [m.upholstery, m.wood, m.woodLight, m.metal, m.top, m.chairFabric, m.rug.color] };
};

describe('furniture sets', () => {
  it("without a look is the style's house set, exactly", () => {
    for (const style of STYLES) expect(chooseSet(style, null, null).def).toEqual(STYLE_DEFS[style]);
  });

  it('differ between looks for most looks, and between styles for the same look', () => {
    for (const style of STYLES) {
      const sets = Array.from({ length: 20 }, (_, i) => JSON.stringify(hero(variationSet(style, 0, `listing-${i}`, 0)).names));
      expect(new Set(sets).size, style).toBeGreaterThanOrEqual(14);
    }
    expect(variationSet('modern', 0, 'listing-1', 0).names).not.toEqual(variationSet('luxury', 0, 'listing-1', 0).names);
  });

  it("mirror the room only from a polished metal: a look's brushed or antiqued metal is blurred, whatever the house metal", () => {
    const seen = new Set<string>();
    for (const style of STYLES) {
      for (let i = 0; i < 40; i++) {
        const set = variationSet(style, 0, `listing-${i}`, 0);
        const metal = set.names.metal;
        seen.add(metal);
        expect(set.def.materials.metal.polished === true, `${style} ${metal}`).toBe(metal.startsWith('polished'));
      }
    }
    // Both kinds were drawn: polished brass or chrome, and brushed brass or steel.
    expect([...seen].some((m) => m.startsWith('polished'))).toBe(true);
    expect([...seen].some((m) => m.startsWith('brushed'))).toBe(true);
  });

  it("keep a look's hero pieces and materials in every variation and on every photo", () => {
    for (const style of STYLES) {
      const first = variationSet(style, 0, 'listing-9', 1);
      expect(variationSet(style, 0, 'listing-9', 2)).toEqual(first);
      for (const k of [1, 2]) expect(hero(variationSet(style, k, 'listing-9', 3)), `${style} ${k}`).toEqual(hero(first));
    }
  });
});

describe('a staging with a look and variations', () => {
  let landscape: Buffer;
  let portrait: Buffer;

  beforeAll(async () => {
    // Reduced copies: the layout and the set do not depend on the photo's size.
    landscape = await sharp(fixture('empty-open-plan-living-dining.jpg')).resize(640).jpeg({ quality: 90 }).toBuffer();
    portrait = await sharp(fixture('empty-living-portrait.jpg')).resize(480).jpeg({ quality: 90 }).toBuffer();
  });

  it('gives the same bytes every time, as many images as asked, each visibly its own', { timeout: 240_000 }, async () => {
    const input = { image: landscape, contentType: 'image/jpeg', style: 'modern', roomType: 'living_room', look: 'listing-3', variations: 3 } as const;
    const a = await engine.stage({ ...input, signal: new AbortController().signal });
    const b = await engine.stage({ ...input, signal: new AbortController().signal });
    expect(a.alternatives).toHaveLength(2);
    expect(Buffer.compare(a.image, b.image)).toBe(0);
    for (const [k, alt] of a.alternatives!.entries()) expect(Buffer.compare(alt, b.alternatives![k]!), `variation ${k + 2}`).toBe(0);
    const single = await engine.stage({ ...input, variations: 1, signal: new AbortController().signal });
    expect(single.alternatives).toBeUndefined();
    // The first variation is the staging one asks for without variations.
    expect(Buffer.compare(single.image, a.image)).toBe(0);
    const images = await Promise.all([a.image, ...a.alternatives!].map((i) => sharp(i).raw().toBuffer()));
    for (let i = 0; i < 3; i++) {
      for (let j = i + 1; j < 3; j++) {
        let changed = 0;
        for (let p = 0; p < images[i]!.length; p += 3) if (Math.abs(images[i]![p]! - images[j]![p]!) > 24) changed++;
        // Furniture elsewhere changes a good part of the picture, not a thin outline.
        expect(changed / (images[i]!.length / 3), `${i} vs ${j}`).toBeGreaterThan(0.04);
      }
    }
  });

  it('furnishes two different photos of a listing with the same set', { timeout: 120_000 }, async () => {
    const signal = new AbortController().signal;
    const one = await stageDetailed(landscape, 'traditional', 'living_room', signal, { look: 'listing-5' });
    const two = await stageDetailed(portrait, 'traditional', 'living_room', signal, { look: 'listing-5' });
    expect(two.set).toEqual(one.set);
    expect(one.set.names).not.toEqual(chooseSet('traditional', null, null).names);
    const other = await stageDetailed(portrait, 'traditional', 'living_room', signal);
    expect(other.set).toEqual(chooseSet('traditional', null, null));
  });
});
