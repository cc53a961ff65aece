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

// Style cards: one room in every style, cropped to the card's 4:3 around the furniture the
// engine added (found where the staged photo differs from the empty one, in the rows of the
// living-room group), at least 1280 px wide, so each style's whole group fills its card.
const BAND = { top: 360, height: 960 };
const MIN_CARD_WIDTH = 1280;

/** The empty room the style cards are staged from, decoded once. */
const cardSource = await readFile(asset('dining-before'));
const cardBefore = await sharp(cardSource).raw().toBuffer({ resolveWithObject: true });

/** The columns, 2nd to 98th percentile, where `staged` differs from the empty room in BAND's rows. */
async function furnitureColumns(staged: Buffer): Promise<{ from: number; to: number; width: number; height: number }> {
  const a = cardBefore;
  const b = await sharp(staged).raw().toBuffer();
  const { width, height, channels } = a.info;
  const columns: number[] = [];
  for (let y = BAND.top; y < BAND.top + BAND.height; y += 4) {
    for (let x = 0; x < width; x += 4) {
      const i = (y * width + x) * channels;
      const d = Math.abs(a.data[i]! - b[i]!) + Math.abs(a.data[i + 1]! - b[i + 1]!) + Math.abs(a.data[i + 2]! - b[i + 2]!);
      if (d > 60) columns.push(x);
    }
  }
  columns.sort((p, q) => p - q);
  const at = (q: number) => columns[Math.floor(q * (columns.length - 1))] ?? width / 2;
  return { from: at(0.02), to: at(0.98), width, height };
}

for (const style of STYLES) {
  const staged = await stage('dining-before', style, 'living_room');
  const { from, to, width, height } = await furnitureColumns(staged);
  const cardWidth = Math.round(Math.min(width, (height * 4) / 3, Math.max(MIN_CARD_WIDTH, to - from + 160)));
  const cardHeight = Math.round((cardWidth * 3) / 4);
  const clampTo = (v: number, hi: number) => Math.round(Math.min(hi, Math.max(0, v)));
  const left = clampTo((from + to) / 2 - cardWidth / 2, width - cardWidth);
  const top = clampTo(BAND.top + BAND.height / 2 - cardHeight / 2, height - cardHeight);
  const card = await sharp(staged).extract({ left, top, width: cardWidth, height: cardHeight }).resize({ width: 800, height: 600 }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
  await writeFile(asset(`style-${style}`), card);
}
