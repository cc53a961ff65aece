/**
 * Times the structure lock (issue 13) on a 4032x3024 photo and a 1-megapixel answer: decoding
 * both, the check and the full-size composite, and the JPEG of it (median of several runs). The
 * answer is the local engine's staging of the generative fixture room. Prints figures only.
 * Run: npx tsx scripts/bench-structure.ts [runs]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { stageToJpeg } from '../server/src/staging/local/index.ts';
import { encodeComposite, lockStructure } from '../server/src/staging/lock/index.ts';
import { lockOnThread } from '../server/src/staging/lock/thread.ts';
import { median } from './bench-support.ts';

const runs = Number(process.argv[2] ?? 3);
const room = readFileSync(join(import.meta.dirname, '../server/test/fixtures/generative/empty-room-pruna-before.jpg'));
const staged = await stageToJpeg(room, 'modern', 'living_room', new AbortController().signal);
const before = await sharp(room).resize(4032, 3024, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
const after = await sharp(staged).resize(1184, 888, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();

// One untimed run first: the worker that will call it is long-lived, so its code is warm.
await lockStructure(before, after, { composite: true });
const check: number[] = [];
const total: number[] = [];
let verdict = '';
for (let r = 0; r < runs; r++) {
  const t = performance.now();
  const checked = await lockStructure(before, after, { composite: false });
  check.push(performance.now() - t);
  const t2 = performance.now();
  const locked = await lockStructure(before, after, { composite: true });
  await encodeComposite(locked.composite!);
  total.push(performance.now() - t2);
  verdict = `${checked.check.verdict} ${checked.check.score}`;
}
console.log(
  `structure lock 4032x3024 + 1184x888 answer: check ${median(check).toFixed(0)} ms, check + composite + JPEG ${median(total).toFixed(0)} ms (target < 2000 ms); ${verdict}`,
);

// As the pipeline runs it: on the lock's own thread (the first answer pays for the thread's start).
const threaded: number[] = [];
for (let r = 0; r < runs; r++) {
  const t = performance.now();
  await lockOnThread(before, after, new AbortController().signal);
  threaded.push(performance.now() - t);
}
console.log(`structure lock on its own thread, as a remote job runs it: first ${threaded[0]?.toFixed(0)} ms, median ${median(threaded).toFixed(0)} ms`);
