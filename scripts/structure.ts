// `npm run structure -- <before> <after> [--out composite.jpg] [--debug overlay.png]`
// Checks a staging answer against the photo it was made from (the structure lock, issue 13) and
// prints one line of JSON: {"verdict":"faithful"|"drift","score":0..1,"reasons":[...]}. --out
// writes the locked composite (also for a drifted answer, as far as it registers); --debug the
// registered answer and the change map side by side.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { encodePng } from '../server/src/staging/local/image.ts';
import { drawDebug, encodeComposite, lockStructure } from '../server/src/staging/lock/index.ts';

const argsSchema = z.object({
  before: z.string().min(1),
  after: z.string().min(1),
  out: z.string().regex(/\.jpe?g$/i, '--out must name a .jpg file').optional(),
  debug: z.string().regex(/\.png$/i, '--debug must name a .png file').optional(),
});

const usage = 'usage: npm run structure -- <before> <after> [--out composite.jpg] [--debug overlay.png]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, debug: { type: 'string' } },
});
const parsed = argsSchema.safeParse({ before: positionals[0], after: positionals[1], out: values.out, debug: values.debug });
if (!parsed.success || positionals.length > 2) {
  console.error(`${parsed.error?.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('\n') ?? 'too many arguments'}\n${usage}`);
  process.exit(2);
}
const args = parsed.data;

const [before, after] = await Promise.all([readFile(args.before), readFile(args.after)]);
const result = await lockStructure(before, after, { composite: args.out !== undefined });
const { verdict, score, reasons } = result.check;
console.log(JSON.stringify({ verdict, score, reasons }));
if (args.out && result.composite) await writeFile(args.out, await encodeComposite(result.composite));
if (args.debug) await writeFile(args.debug, await encodePng(drawDebug(result.analysis)));
