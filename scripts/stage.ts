// `npm run stage -- <photo> [--style <style>] [--room-type <type>] [--out <file>] [--debug]`
// Stages a photo with the local engine; every style when none is named. --debug also writes the
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
import { footprint } from '../server/src/staging/local/layout.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    style: { type: 'string' },
    'room-type': { type: 'string', default: DEFAULT_ROOM_TYPE },
    out: { type: 'string' },
    debug: { type: 'boolean', default: false },
  },
});

const photo = positionals[0];
const usage = `usage: npm run stage -- <photo> [--style ${STYLES.join('|')}] [--room-type ${ROOM_TYPES.join('|')}] [--out file.jpg] [--debug]`;
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

const styles = values.style ? [values.style as Style] : [...STYLES];
const bytes = await readFile(photo);
const base = values.out ? values.out.replace(/\.jpe?g$/i, '') : path.join(path.dirname(photo), `${path.basename(photo, path.extname(photo))}-staged`);
const signal = new AbortController().signal;

for (const style of styles) {
  const started = performance.now();
  const detail = await stageDetailed(bytes, style, roomType, signal).catch((err: unknown) => {
    if (!(err instanceof NoRoomError)) throw err;
    console.error(`${photo}: ${err.userMessage}`);
    process.exit(1);
  });
  const file = values.out && styles.length === 1 ? values.out : `${base}-${style}.jpg`;
  await writeFile(file, await encodeJpeg(detail.image));
  console.log(`${file}: ${style}, ${Math.round(performance.now() - started)} ms, ${detail.placements.map((p) => p.kind).join(', ')}`);
  if (values.debug) {
    const overlay = drawDebug(await decodeImage(bytes), detail.room, detail.placements.map((p) => ({ corners: footprint(p) })));
    const debugFile = `${base}-${style}-debug.jpg`;
    await writeFile(debugFile, await encodeJpeg(overlay));
    console.log(`${debugFile}: estimated geometry`);
  }
}
