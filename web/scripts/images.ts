import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { PHOTOS, photoUrl, photoWidths, type PhotoName } from '../src/lib/responsive-image.ts';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = path.join(webDir, 'assets/rooms');
const publicDir = path.join(webDir, 'public');

async function isFresh(output: string, source: string): Promise<boolean> {
  try {
    return (await stat(output)).mtimeMs >= (await stat(source)).mtimeMs;
  } catch {
    return false;
  }
}

/** Writes every size and format of the landing photos; skips outputs newer than their source. */
async function main(): Promise<void> {
  await mkdir(path.join(publicDir, 'img'), { recursive: true });
  let written = 0;
  for (const name of Object.keys(PHOTOS) as PhotoName[]) {
    const source = path.join(sourceDir, `${name}.jpg`);
    for (const width of photoWidths(name)) {
      for (const format of ['avif', 'webp', 'jpg'] as const) {
        const output = path.join(publicDir, photoUrl(name, width, format));
        if (await isFresh(output, source)) continue;
        const resized = sharp(source).resize({ width, withoutEnlargement: true });
        const encoded =
          format === 'avif'
            ? resized.avif({ quality: 50, effort: 4 })
            : format === 'webp'
              ? resized.webp({ quality: 72 })
              : resized.jpeg({ quality: 78, mozjpeg: true, progressive: true });
        await encoded.toFile(output);
        written++;
      }
    }
  }
  console.log(`images: ${written} written`);
}

await main();
