import { VIRTUALLY_STAGED_LABEL } from '@roomstager/contracts';
import sharp from 'sharp';

/**
 * The "Virtually Staged" stamp, drawn from strokes of our own: librsvg renders an SVG's paths
 * identically everywhere, but its text needs fonts that a fresh server (or CI) may not have.
 * Glyphs are monoline strokes on a grid: cap height 10 units, x-height 7, baseline at y = 10,
 * descenders to y = 13.8. Each has its path and its advance (the ink's width).
 */
const GLYPHS: Readonly<Record<string, { d: string; advance: number }>> = {
  V: { d: 'M0,0 L3.6,10 L7.2,0', advance: 7.2 },
  S: {
    d: 'M6.2,1.6 C5.4,0.5 4.4,0 3.2,0 C1.5,0 0.3,1 0.3,2.6 C0.3,4.3 1.7,4.8 3.3,5.2 C5.1,5.6 6.5,6.3 6.5,7.9 C6.5,9.1 5.3,10 3.3,10 C1.9,10 0.8,9.5 0,8.4',
    advance: 6.5,
  },
  a: { d: 'M0,6.5 A3.5,3.5 0 1 0 7,6.5 A3.5,3.5 0 1 0 0,6.5 M7,3 L7,10', advance: 7 },
  d: { d: 'M0,6.5 A3.5,3.5 0 1 0 7,6.5 A3.5,3.5 0 1 0 0,6.5 M7,0 L7,10', advance: 7 },
  e: { d: 'M0,6.5 L7,6.5 A3.5,3.5 0 1 0 6,8.97', advance: 7 },
  g: { d: 'M0,6.5 A3.5,3.5 0 1 0 7,6.5 A3.5,3.5 0 1 0 0,6.5 M7,3 L7,10.8 C7,12.7 5.6,13.8 3.6,13.8 C2.2,13.8 1.2,13.3 0.5,12.4', advance: 7 },
  i: { d: 'M0,3 L0,10 M0,0.4 L0,0.5', advance: 0 },
  l: { d: 'M0,0 L0,10', advance: 0 },
  r: { d: 'M0,3 L0,10 M0,6.6 C0,4.3 1.5,3 3.8,3', advance: 3.8 },
  t: { d: 'M1.2,0.6 L1.2,8.4 C1.2,9.5 1.8,10 2.8,10 L3.6,10 M0,3 L3.6,3', advance: 3.6 },
  u: { d: 'M0,3 L0,6.5 A3.5,3.5 0 0 0 7,6.5 M7,3 L7,10', advance: 7 },
  y: { d: 'M0,3 L3.4,10 M6.8,3 L2.3,13.8', advance: 6.8 },
};

/** Gap between letters and width of a space, in glyph units; the stroke's width. */
const LETTER_GAP = 2;
const SPACE = 3.6;
const STROKE = 1.5;
/** Padding inside the badge, in glyph units: the stroke's half plus air. */
const PAD_X = 4.5;
const PAD_TOP = 3.2;
const PAD_BOTTOM = 5.6;

interface LaidOut {
  paths: string;
  width: number;
}

/** The text's glyphs placed along the baseline; a character without a glyph is a programming error. */
function layOut(text: string): LaidOut {
  let x = 0;
  const parts: string[] = [];
  for (const ch of text) {
    if (ch === ' ') {
      x += SPACE;
      continue;
    }
    const glyph = GLYPHS[ch];
    if (!glyph) throw new Error(`No glyph for ${JSON.stringify(ch)}`);
    parts.push(`<path transform="translate(${x.toFixed(2)} 0)" d="${glyph.d}"/>`);
    x += glyph.advance + LETTER_GAP;
  }
  return { paths: parts.join(''), width: x - LETTER_GAP };
}

const LAID_OUT = layOut(VIRTUALLY_STAGED_LABEL);
/** The badge in glyph units. */
const BADGE = { width: LAID_OUT.width + 2 * PAD_X, height: 10 + PAD_TOP + PAD_BOTTOM };

/** Where the stamp goes on an image, in pixels: its bottom-left corner. */
export interface LabelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The stamp's box for an image: its capital letters 2.2% of the shorter side tall (about 28 px on
 * a 1920 x 1280 photo, readable on a phone, small beside the room), never under 12 px, and a
 * margin of 2.5% of the shorter side from the left and bottom edges.
 */
export function labelBox(width: number, height: number): LabelBox {
  const short = Math.min(width, height);
  const capHeight = Math.max(12, short * 0.022);
  const unit = capHeight / 10;
  const w = Math.round(BADGE.width * unit);
  const h = Math.round(BADGE.height * unit);
  const margin = Math.round(short * 0.025);
  return { left: margin, top: height - margin - h, width: w, height: h };
}

/** The badge as SVG, `box` pixels large: white strokes on a translucent dark rounded rectangle. */
function labelSvg(box: Pick<LabelBox, 'width' | 'height'>): string {
  const radius = BADGE.height * 0.22;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}" viewBox="0 0 ${BADGE.width.toFixed(2)} ${BADGE.height.toFixed(2)}" preserveAspectRatio="none">` +
    `<rect width="100%" height="100%" rx="${radius.toFixed(2)}" fill="#1c1917" fill-opacity="0.72"/>` +
    `<g transform="translate(${PAD_X} ${PAD_TOP})" fill="none" stroke="#ffffff" stroke-width="${STROKE}" stroke-linecap="round" stroke-linejoin="round">${LAID_OUT.paths}</g>` +
    `</svg>`
  );
}

/** The stamp as a PNG overlay for sharp's composite, and where it goes. */
export async function labelOverlay(width: number, height: number): Promise<{ input: Buffer; left: number; top: number }> {
  const box = labelBox(width, height);
  const input = await sharp(Buffer.from(labelSvg(box))).png().toBuffer();
  return { input, left: box.left, top: box.top };
}
