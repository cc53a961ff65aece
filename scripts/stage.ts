// `npm run stage -- <photo> [--style <style>] [--room-type <type>] [--look <id>] [--variations <n>] [--out <file>] [--debug]`
// Stages a photo with the local engine; every style when none is named. --look stages it with a
// listing's furniture set (any id: the same id gives the same set), --variations writes n
// variations (-v2, -v3 after the first) and prints each one's set. --debug also writes the
// estimated geometry (horizon, floor, openings, furniture footprints) drawn over the photo, and
// the light estimate (the room's radiance map) in its top-left corner.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_ROOM_TYPE, ROOM_TYPES, STYLES, type RoomType, type Style } from '@roomstager/contracts';
import { drawDebug } from '../server/src/staging/local/debug.ts';
import { decodeImage, encodeJpeg } from '../server/src/staging/local/image.ts';
import { NoRoomError } from '../server/src/staging/engine.ts';
import { stageDetailed } from '../server/src/staging/local/index.ts';
import { MAX_VARIATIONS } from '../server/src/staging/local/pipeline.ts';
import { footprint } from '../server/src/staging/local/layout.ts';

const usage = `usage: npm run stage -- <photo> [--style ${STYLES.join('|')}] [--room-type ${ROOM_TYPES.join('|')}] [--look id] [--variations 1-${MAX_VARIATIONS}] [--out file.jpg] [--debug]`;

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        style: { type: 'string' },
        'room-type': { type: 'string', default: DEFAULT_ROOM_TYPE },
        look: { type: 'string' },
        variations: { type: 'string', default: '1' },
        out: { type: 'string' },
        debug: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    // An unknown or malformed option: say which, and how to call it, without a stack trace.
    console.error(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
    process.exit(2);
  }
}

const { values, positionals } = parse();
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const photo = positionals[0];
if (!photo) {
  console.error(usage);
  process.exit(2);
}
if (values.style && !STYLES.includes(values.style as Style)) {
  console.error(`unknown style '${values.style}'\n${usage}`);
  process.exit(2);
}
const roomType = values['room-type'] as RoomType;
if (!ROOM_TYPES.includes(roomType)) {
  console.error(`unknown room type '${roomType}'\n${usage}`);
  process.exit(2);
}

const variations = Number(values.variations);
if (!Number.isInteger(variations) || variations < 1 || variations > MAX_VARIATIONS) {
  console.error(`--variations must be 1 to ${MAX_VARIATIONS}\n${usage}`);
  process.exit(2);
}

const styles = values.style ? [values.style as Style] : [...STYLES];
const bytes = await readFile(photo);
const base = values.out ? values.out.replace(/\.jpe?g$/i, '') : path.join(path.dirname(photo), `${path.basename(photo, path.extname(photo))}-staged`);
const signal = new AbortController().signal;

for (const style of styles) {
  const started = performance.now();
  const detail = await stageDetailed(bytes, style, roomType, signal, { look: values.look, variations }).catch((err: unknown) => {
    if (!(err instanceof NoRoomError)) throw err;
    console.error(`${photo}: ${err.userMessage}`);
    process.exit(1);
  });
  console.log(`${style}: ${Math.round(performance.now() - started)} ms for ${variations} variation(s)`);
  for (const [k, v] of [detail, ...detail.alternatives].entries()) {
    const suffix = k === 0 ? '' : `-v${k + 1}`;
    const file = values.out && styles.length === 1 ? values.out.replace(/(\.jpe?g)?$/i, `${suffix}$1`) : `${base}-${style}${suffix}.jpg`;
    await writeFile(file, await encodeJpeg(v.image));
    console.log(`${file}: ${v.placements.map((p) => p.kind).join(', ')}`);
    if (variations > 1 || values.look) console.log(`  set: ${Object.values(v.set.names).join(' / ')}`);
    if (values.debug) {
      const overlay = drawDebug(await decodeImage(bytes), detail.room, v.placements.map((p) => ({ corners: footprint(p) })));
      const debugFile = `${base}-${style}${suffix}-debug.jpg`;
      await writeFile(debugFile, await encodeJpeg(overlay));
      console.log(`${debugFile}: estimated geometry`);
    }
  }
}
