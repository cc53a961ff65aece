// Renders every staged picture of the landing page (hero and demo "after" photos, two sample
// rooms) and the style picker's examples with the local engine, from the licensed fixture photos
// in web/assets/rooms. Run after changing the engine:  npx tsx scripts/render-landing-assets.ts
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STYLES, type RoomType, type Style } from '@roomstager/contracts';
import sharp from 'sharp';
import { encodeJpeg } from '../server/src/staging/local/image.ts';
import { createLocalEngine } from '../server/src/staging/local/index.ts';
import { renderSyntheticRoom, SAMPLE_BEDROOM, SAMPLE_KITCHEN } from '../server/src/staging/local/synthetic.ts';

const assets = fileURLToPath(new URL('../web/assets/rooms', import.meta.url));
const engine = createLocalEngine({ thread: false });
const signal = new AbortController().signal;
const asset = (name: string) => path.join(assets, `${name}.jpg`);

async function stage(source: string, style: Style, roomType: RoomType): Promise<Buffer> {
  const image = await readFile(asset(source));
  const started = performance.now();
  const result = await engine.stage({ image, contentType: 'image/jpeg', style, roomType, signal });
  console.log(`${source} ${style} ${roomType}: ${Math.round(performance.now() - started)} ms`);
  return result.image;
}

// No fixture photo shows an empty kitchen or bedroom: these two are the engine's own synthetic
// rooms, and the landing page captions them as sample renders.
await writeFile(asset('bedroom-before'), await encodeJpeg(renderSyntheticRoom(SAMPLE_BEDROOM)));
await writeFile(asset('kitchen-before'), await encodeJpeg(renderSyntheticRoom(SAMPLE_KITCHEN)));

const demos: Array<{ output: string; source: string; style: Style; roomType: RoomType }> = [
  { output: 'living-after', source: 'living-before', style: 'modern', roomType: 'living_room' },
  { output: 'dining-after', source: 'dining-before', style: 'modern', roomType: 'dining_room' },
  { output: 'kitchen-after', source: 'kitchen-before', style: 'minimalist', roomType: 'kitchen' },
  { output: 'bedroom-after', source: 'bedroom-before', style: 'traditional', roomType: 'bedroom' },
];
for (const demo of demos) {
  await writeFile(asset(demo.output), await stage(demo.source, demo.style, demo.roomType));
}

// Style cards: one room in every style, cropped to the card's 4:3 around where the engine puts
// the living-room group in this photo (the plain left wall), so the furniture fills the card.
const CARD_CROP = { left: 280, top: 360, width: 1280, height: 960 };
for (const style of STYLES) {
  const staged = await stage('dining-before', style, 'living_room');
  const card = await sharp(staged).extract(CARD_CROP).resize({ width: 800, height: 600 }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
  await writeFile(asset(`style-${style}`), card);
}
