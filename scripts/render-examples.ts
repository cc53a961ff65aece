/**
 * Renders every fixture photo in every style (living room; with them the empty room given to a
 * generative model and a loft found later, which the engine was not tuned on), a debug overlay
 * of the estimated geometry per photo, sample renders of a synthetic empty bedroom and kitchen (no real photo of
 * those is among the fixtures), a contact sheet of it all (the photo before, then each style,
 * then the overlay), and the portrait living room staged beside a generative model's staging of
 * the same photo, at the same size, to judge the two by eye.
 * Run: npx tsx scripts/render-examples.ts <output-folder> [room type]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOM_TYPES, STYLES, type RoomType } from '@roomstager/contracts';
import sharp, { type OverlayOptions } from 'sharp';
import { drawDebug } from '../server/src/staging/local/debug.ts';
import { decodeImage, encodeJpeg, encodePng } from '../server/src/staging/local/image.ts';
import { stageDetailed } from '../server/src/staging/local/index.ts';
import { footprint } from '../server/src/staging/local/layout.ts';
import { renderSyntheticRoom, SAMPLE_BEDROOM, SAMPLE_KITCHEN } from '../server/src/staging/local/synthetic.ts';

const out = process.argv[2];
if (!out) {
  console.error('usage: npx tsx scripts/render-examples.ts <output-folder> [room type]');
  process.exit(2);
}
const roomType = (process.argv[3] ?? 'living_room') as RoomType;
if (!ROOM_TYPES.includes(roomType)) throw new Error(`unknown room type ${roomType}`);
mkdirSync(out, { recursive: true });
const dir = join(import.meta.dirname, '../server/test/fixtures/rooms');
const signal = new AbortController().signal;

const sources: Array<{ name: string; bytes: Buffer; roomType: RoomType }> = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort()
  .map((f) => ({ name: basename(f, '.jpg'), bytes: readFileSync(join(dir, f)), roomType }));
// The empty room a generative model was given (its answers are fixtures of the structure lock):
// a photo the engine was not tuned on, shot from low down.
sources.push({
  name: 'empty-room-pruna-before',
  bytes: readFileSync(join(dir, '../generative/empty-room-pruna-before.jpg')),
  roomType,
});
// A photo found after the engine was tuned: a two-storey loft under construction.
sources.push({ name: 'loft-under-construction', bytes: readFileSync(join(dir, '../found/loft-under-construction.jpg')), roomType });
// Sample renders: a synthetic empty bedroom and kitchen, made by the engine's own room renderer.
const bedroom = renderSyntheticRoom(SAMPLE_BEDROOM);
const kitchen = renderSyntheticRoom(SAMPLE_KITCHEN);
sources.push({ name: 'sample-render-empty-bedroom', bytes: await encodePng(bedroom), roomType: 'bedroom' });
sources.push({ name: 'sample-render-empty-kitchen', bytes: await encodePng(kitchen), roomType: 'kitchen' });

const tile = 480;
const sheet: OverlayOptions[] = [];
let row = 0;
for (const src of sources) {
  let debugDone = false;
  sheet.push({ input: await sharp(src.bytes).resize(tile, tile, { fit: 'contain', background: '#222' }).toBuffer(), left: 0, top: row * tile });
  for (const [index, style] of STYLES.entries()) {
    const col = index + 1;
    const t = performance.now();
    const d = await stageDetailed(src.bytes, style, src.roomType, signal);
    const file = join(out, `${src.name}-${src.roomType}-${style}.jpg`);
    const jpeg = await encodeJpeg(d.image);
    writeFileSync(file, jpeg);
    console.log(`${file} ${(performance.now() - t).toFixed(0)} ms: ${d.placements.map((p) => p.kind).join(', ')}`);
    sheet.push({ input: await sharp(jpeg).resize(tile, tile, { fit: 'contain', background: '#222' }).toBuffer(), left: col * tile, top: row * tile });
    if (!debugDone) {
      const overlay = drawDebug(await decodeImage(src.bytes), d.room, d.placements.map((p) => ({ corners: footprint(p) })));
      const dbg = await encodeJpeg(overlay);
      writeFileSync(join(out, `${src.name}-${src.roomType}-debug.jpg`), dbg);
      sheet.push({ input: await sharp(dbg).resize(tile, tile, { fit: 'contain', background: '#222' }).toBuffer(), left: (STYLES.length + 1) * tile, top: row * tile });
      debugDone = true;
    }
  }
  row++;
}
const sheetFile = join(out, 'contact-sheet.png');
await sharp({ create: { width: (STYLES.length + 2) * tile, height: row * tile, channels: 3, background: '#222' } })
  .composite(sheet)
  .png()
  .toFile(sheetFile);
console.log(sheetFile);

// The generative model's staging of the portrait room (a model's answer changes the room: it
// removed the curtain and added a mirror) beside the local engine's, both at the photo's size.
const reference = readFileSync(join(import.meta.dirname, '../server/test/fixtures/generative/staged-by-a-generative-model.jpg'));
const ours = readFileSync(join(out, `empty-living-portrait-${roomType}-modern.jpg`));
const { width: rw = 0, height: rh = 0 } = await sharp(reference).metadata();
const besideFile = join(out, 'portrait-beside-generative.jpg');
await sharp({ create: { width: 2 * rw + 16, height: rh, channels: 3, background: '#222' } })
  .composite([
    { input: await sharp(ours).resize(rw, rh, { fit: 'fill' }).toBuffer(), left: 0, top: 0 },
    { input: reference, left: rw + 16, top: 0 },
  ])
  .jpeg({ quality: 90 })
  .toFile(besideFile);
console.log(besideFile);
