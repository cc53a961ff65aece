import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseRoom, ANALYSIS_LONG_SIDE } from '../../src/staging/local/analyze.ts';
import { decodeImage, fitSize, resizeRgb } from '../../src/staging/local/image.ts';
import { layoutRoom } from '../../src/staging/local/layout.ts';
import { estimateLighting } from '../../src/staging/local/render.ts';
import { STYLE_DEFS } from '../../src/staging/local/styles.ts';

async function room(name: string) {
  const photo = await decodeImage(readFileSync(fileURLToPath(new URL(`../fixtures/rooms/${name}`, import.meta.url))));
  const a = fitSize(photo.width, photo.height, ANALYSIS_LONG_SIDE);
  return analyseRoom(await resizeRgb(photo, a.width, a.height));
}

describe("the furniture's light takes the photo's white balance", () => {
  it('from the ceiling: warm under the warm light of the portrait room, neutral in the white open-plan room', async () => {
    const warm = await room('empty-living-portrait.jpg');
    const neutral = await room('empty-open-plan-living-dining.jpg');
    expect(warm.ceilingColor).not.toBeNull();
    expect(neutral.ceilingColor).not.toBeNull();
    const tint = (r: Awaited<ReturnType<typeof room>>) => {
      const l = estimateLighting(r, layoutRoom(r, 'living_room', STYLE_DEFS.modern)).room;
      return l[0] / l[2];
    };
    expect(tint(warm)).toBeGreaterThan(1.4);
    expect(Math.abs(tint(neutral) - 1)).toBeLessThan(0.08);
  });
});
