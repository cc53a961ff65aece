/**
 * Times the local staging engine: every fixture photo in every style (median of several runs),
 * plus the landscape fixture resampled to 1600x1200 and 4032x3024, and a 40-megapixel input;
 * then, at 1600x1200 and 4032x3024, one staging against three variations with a look (issue 15),
 * in the same run so a loaded machine weighs on both alike. Each input runs in its own process,
 * so its peak RSS is that input's alone (a process's peak only grows). Prints figures only.
 * Run: npx tsx scripts/bench-engine.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STYLES } from '@roomstager/contracts';
import sharp from 'sharp';
import { createLocalEngine } from '../server/src/staging/local/index.ts';
import { noise3 } from '../server/src/staging/local/prng.ts';

const runs = Number(process.argv[2] ?? 3);
const only = process.argv[3];
const dir = join(import.meta.dirname, '../server/test/fixtures/rooms');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
const landscape = fixtures.find((f) => f.startsWith('empty-open-plan')) ?? fixtures[0]!;
const resampled = (w: number, h: number) => () => sharp(readFileSync(join(dir, landscape))).resize(w, h, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
/**
 * Name -> how to make the bytes, and how many variations each staging makes (with a look when
 * more than one); resampled sizes stand for a phone photo and a large camera file.
 */
const inputs: Array<{ name: string; make: () => Promise<Buffer>; variations: number }> = [
  ...fixtures.map((f) => ({ name: f, make: async () => readFileSync(join(dir, f)), variations: 1 })),
  ...(
    [
      [1600, 1200],
      [4032, 3024],
      [7300, 5475],
    ] as const
  ).map(([w, h]) => ({ name: `${landscape} @${w}x${h}`, make: resampled(w, h), variations: 1 })),
  ...(
    [
      [1600, 1200],
      [4032, 3024],
    ] as const
  ).flatMap(([w, h]) => [1, 3].map((variations) => ({ name: `${landscape} @${w}x${h}, ${variations} variation(s)`, make: resampled(w, h), variations }))),
];

/**
 * A fixed single-thread workload (the engine's hottest call, its value noise), median of three:
 * shared machines differ by two to three times in speed, and the engine's figures only compare
 * across sessions scaled by this one.
 */
function machineReference(): number {
  const times: number[] = [];
  let sink = 0;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (let i = 0; i < 2e7; i++) sink += noise3(i * 0.013, i * 0.0071, i * 0.0029, 7);
    times.push(performance.now() - t);
  }
  if (Number.isNaN(sink)) throw new Error('unreachable: noise is finite');
  return times.sort((a, b) => a - b)[1]!;
}

if (only === undefined) {
  console.log(`machine reference: ${machineReference().toFixed(0)} ms for 20 million value-noise calls on one thread (lower is faster)`);
  console.log(`runs per cell: ${runs}; times in ms (median); peak RSS of the process staging that input, in MB`);
  for (const [i] of inputs.entries()) {
    // With the allocator setting `npm start` and `npm run worker` use (docs/decisions/0013-malloc-arenas.md).
    const env = { MALLOC_ARENA_MAX: '2', ...process.env };
    execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, String(runs), String(i)], { stdio: 'inherit', env });
  }
} else {
  const input = inputs[Number(only)]!;
  const bytes = await input.make();
  const meta = await sharp(bytes).metadata();
  // On the calling thread: the figures are the engine's own work, without the worker hop.
  const engine = createLocalEngine({ thread: false });
  const asked = input.variations > 1 ? { look: 'bench-listing', variations: input.variations } : {};
  // One untimed staging first: the server's engine thread is long-lived, so its code is warm.
  await engine.stage({ image: bytes, contentType: 'image/jpeg', style: 'modern', roomType: 'living_room', signal: new AbortController().signal, ...asked });
  const cells: string[] = [];
  for (const style of STYLES) {
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      await engine.stage({ image: bytes, contentType: 'image/jpeg', style, roomType: 'living_room', signal: new AbortController().signal, ...asked });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    cells.push(`${style} ${times[times.length >> 1]!.toFixed(0)}`);
  }
  const peak = (process.resourceUsage().maxRSS / 1024).toFixed(0);
  console.log(`${input.name} (${meta.width}x${meta.height}): ${cells.join(', ')}; peak RSS ${peak} MB`);
}
