/**
 * Times the local staging engine: every fixture photo in every style (median of several runs),
 * plus the landscape fixture resampled to 1600x1200 and 4032x3024, with the process's peak RSS.
 * Prints figures only. Run: npx tsx scripts/bench-engine.ts [runs]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STYLES } from '@roomstager/contracts';
import sharp from 'sharp';
import { createLocalEngine } from '../server/src/staging/local/index.ts';

const runs = Number(process.argv[2] ?? 3);
const dir = join(import.meta.dirname, '../server/test/fixtures/rooms');
// On the calling thread: the figures are the engine's own work, without the worker hop.
const engine = createLocalEngine({ thread: false });

const inputs: Array<{ name: string; bytes: Buffer }> = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort()
  .map((f) => ({ name: f, bytes: readFileSync(join(dir, f)) }));
const landscape = inputs.find((i) => i.name.startsWith('empty-open-plan'));
if (landscape) {
  for (const [w, h] of [
    [1600, 1200],
    [4032, 3024],
  ] as const) {
    const bytes = await sharp(landscape.bytes).resize(w, h, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
    inputs.push({ name: `${landscape.name} @${w}x${h}`, bytes });
  }
}

const mb = (kb: number) => (kb / 1024).toFixed(0);
console.log(`runs per cell: ${runs}; times in ms (median); peak RSS of the process so far in MB`);
for (const input of inputs) {
  const meta = await sharp(input.bytes).metadata();
  const cells: string[] = [];
  for (const style of STYLES) {
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      await engine.stage({ image: input.bytes, contentType: 'image/jpeg', style, roomType: 'living_room', signal: new AbortController().signal });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    cells.push(`${style} ${times[times.length >> 1]!.toFixed(0)}`);
  }
  console.log(`${input.name} (${meta.width}x${meta.height}): ${cells.join(', ')}; peak RSS ${mb(process.resourceUsage().maxRSS)} MB`);
}
