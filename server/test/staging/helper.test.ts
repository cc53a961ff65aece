import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderHelper } from '../../src/staging/local/helper.ts';
import { stageToJpegs } from '../../src/staging/local/pipeline.ts';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url)));
const signal = () => new AbortController().signal;
const helper = new RenderHelper();
afterAll(() => helper.close());

/** Staging with a helper thread (docs/decisions/0029-local-engine-render-helper.md) is several seconds of work on two threads. */
const HEAVY = 240_000;

describe('the local engine with a helper thread', () => {
  let portrait: Buffer;
  let landscape: Buffer;
  beforeAll(async () => {
    // Reduced copies: what is shared out does not depend on the size.
    portrait = await sharp(fixture('empty-living-portrait.jpg')).resize({ height: 900 }).jpeg({ quality: 92 }).toBuffer();
    landscape = await sharp(fixture('empty-open-plan-living-dining.jpg')).resize(900).jpeg({ quality: 92 }).toBuffer();
  });

  it('makes the same bytes as one thread alone: a glossy floor (reflection) and three variations', { timeout: HEAVY }, async () => {
    const alone = await stageToJpegs(portrait, 'luxury', 'living_room', signal(), {}, null);
    const helped = await stageToJpegs(portrait, 'luxury', 'living_room', signal(), {}, helper);
    expect(Buffer.compare(helped[0]!, alone[0]!)).toBe(0);
    const options = { look: 'helper-test', variations: 3 };
    const three = await stageToJpegs(landscape, 'traditional', 'living_room', signal(), options, null);
    const threeHelped = await stageToJpegs(landscape, 'traditional', 'living_room', signal(), options, helper);
    expect(threeHelped).toHaveLength(3);
    for (const [k, image] of threeHelped.entries()) expect(Buffer.compare(image, three[k]!)).toBe(0);
    // The helper's share was used, not redone: the same bytes would come from a helper failing every time.
    expect(helper.redone).toBe(0);
  });

  it('stages alone, to the same bytes, when no helper can start', { timeout: HEAVY }, async () => {
    const broken = new RenderHelper(new URL('./no-such-helper-entry.ts', import.meta.url));
    const alone = await stageToJpegs(landscape, 'modern', 'bedroom', signal(), {}, null);
    expect(Buffer.compare((await stageToJpegs(landscape, 'modern', 'bedroom', signal(), {}, broken))[0]!, alone[0]!)).toBe(0);
    // Known broken from then on: the next staging does not try again.
    expect(Buffer.compare((await stageToJpegs(landscape, 'modern', 'bedroom', signal(), {}, broken))[0]!, alone[0]!)).toBe(0);
    await broken.close();
  });

  it('redoes a variation alone when the helper dies holding a unit of it', { timeout: HEAVY }, async () => {
    const dying = new RenderHelper(new URL('../fixtures/dying-helper-entry.ts', import.meta.url));
    const alone = await stageToJpegs(landscape, 'minimalist', 'living_room', signal(), {}, null);
    const helped = await stageToJpegs(landscape, 'minimalist', 'living_room', signal(), {}, dying);
    expect(Buffer.compare(helped[0]!, alone[0]!)).toBe(0);
    expect(dying.redone).toBe(1);
    // A new helper, dead in a tile row: the rows never all come in, and the crease pass must not wait for them.
    const rowAlone = await stageToJpegs(landscape, 'minimalist', 'bedroom', signal(), {}, null);
    // Booted first: a helper still starting when every row is taken would find none to die in.
    expect(await dying.ready()).toBe(true);
    const rowHelped = await stageToJpegs(landscape, 'minimalist', 'bedroom', signal(), {}, dying);
    expect(Buffer.compare(rowHelped[0]!, rowAlone[0]!)).toBe(0);
    expect(dying.redone).toBe(2);
    await dying.close();
  });

  it('stops when the staging is aborted, and stages the next one', { timeout: HEAVY }, async () => {
    const controller = new AbortController();
    const staging = stageToJpegs(landscape, 'modern', 'living_room', controller.signal, { look: 'abort', variations: 3 }, helper);
    setTimeout(() => controller.abort(new Error('stopped')), 300);
    await expect(staging).rejects.toThrow('stopped');
    const alone = await stageToJpegs(landscape, 'luxury', 'office', signal(), {}, null);
    expect(Buffer.compare((await stageToJpegs(landscape, 'luxury', 'office', signal(), {}, helper))[0]!, alone[0]!)).toBe(0);
  });
});
