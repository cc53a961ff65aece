import type { RgbImage } from '../local/image.ts';
import { blurPlane, gradient, type Plane } from '../local/lines.ts';
import { grayPlane, rgbPlanes, warpPlane, type Mask, type Mat3 } from './planes.ts';

export interface ChangeMaps {
  width: number;
  height: number;
  /** The answer's colour planes registered onto the original's working grid (NaN where it has no pixel). */
  registered: [Plane, Plane, Plane];
  /** The original's colour planes, lightly blurred as the registered answer is. */
  original: [Plane, Plane, Plane];
  /** Where the registered answer has a pixel. */
  valid: Mask;
  /** Exposure of the answer relative to the original (luminance ratio): models regrade the whole photo. */
  gain: number;
  /** Colour difference after the exposure correction, 0..1 per pixel. */
  color: Float32Array;
  /** Difference of chromaticity ((r - g) and (b - g) over luminance), unaffected by exposure. */
  chroma: Float32Array;
  /** Change of local contrast (edges, texture) as |log| of the ratio of local deviations. */
  texture: Float32Array;
  /** Local deviation of grey (0..1) of the original and of the registered answer (NaN where it has no pixel). */
  deviation: { original: Float32Array; registered: Float32Array };
  /**
   * Share of the original's strong edges (weighted by trust, see analysis.ts) that the registered
   * answer has at the same place and orientation: low when it does not line up, whatever was added.
   */
  edgeRecall: number;
  /** Each difference over its limit, the largest: above 1 is a change. */
  strength: Float32Array;
  changed: Mask;
}

/** Beyond JPEG, resampling and a model's regrading, in 0..1 sRGB (mean over channels). */
export const COLOR_LIMIT = 0.09;
/** Beyond white-balance drift: repainting white walls sage or beige moves it by 0.15 to 0.3. */
export const CHROMA_LIMIT = 0.1;
/** Local contrast doubled or halved: an object on a plain wall, a window painted over. */
export const TEXTURE_LIMIT = Math.log(2);
/** Deviation (0..1 grey) below which a surface counts as plain: JPEG noise and plaster grain. */
const TEXTURE_FLOOR = 0.012;
const TEXTURE_SIGMA = 2.5;

/** Change maps of the answer against the original on the working grid; `h` maps original to answer working pixels. */
export function changeMaps(original: RgbImage, answer: RgbImage, h: Mat3, weight: Plane): ChangeMaps {
  const { width, height } = original;
  const n = width * height;
  const o = rgbPlanes(original).map((p) => blurPlane(p, 1)) as [Plane, Plane, Plane];
  const registered = rgbPlanes(answer).map((p) => warpPlane(blurPlane(p, 1), h, width, height)) as [Plane, Plane, Plane];
  const valid = new Uint8Array(n);
  const chromaRaw = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(registered[0].data[i]!)) continue;
    valid[i] = 1;
    const [ro, bo] = chromaticity(o, i);
    const [ra, ba] = chromaticity(registered, i);
    chromaRaw[i] = Math.hypot(ra - ro, ba - bo);
  }
  // Exposure from pixels whose hue stayed: repainted walls would otherwise set it.
  const ratios: number[] = [];
  for (let i = 0; i < n; i += 5) {
    const lo = lum(o, i);
    if (valid[i] && chromaRaw[i]! < CHROMA_LIMIT && lo > 0.05) ratios.push(lum(registered, i) / lo);
  }
  ratios.sort((p, q) => p - q);
  const gain = Math.min(1.5, Math.max(0.67, ratios[ratios.length >> 1] ?? 1));
  const color = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!valid[i]) continue;
    let d = 0;
    for (let c = 0; c < 3; c++) d += Math.abs(registered[c]!.data[i]! / gain - o[c]!.data[i]!);
    color[i] = d / 3;
  }
  const chroma = blurPlane({ width, height, data: chromaRaw }, 1).data;
  const so = localDeviation(grayPlane(original));
  const sa = warpPlane(localDeviation(grayPlane(answer)), h, width, height);
  const texture = new Float32Array(n);
  for (let i = 0; i < n; i++) texture[i] = valid[i] ? Math.abs(Math.log((sa.data[i]! + TEXTURE_FLOOR) / (so.data[i]! + TEXTURE_FLOOR))) : 0;
  const colorSmooth = blurPlane({ width, height, data: color }, 1).data;
  const strength = new Float32Array(n);
  const changed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!valid[i]) continue;
    strength[i] = Math.max(colorSmooth[i]! / COLOR_LIMIT, chroma[i]! / CHROMA_LIMIT, texture[i]! / TEXTURE_LIMIT);
    changed[i] = strength[i]! > 1 ? 1 : 0;
  }
  const edgeRecall = recallEdges(blurPlane(grayPlane(original), 1), warpPlane(blurPlane(grayPlane(answer), 1), h, width, height), weight);
  return {
    edgeRecall,
    width,
    height,
    registered,
    original: o,
    valid: { width, height, data: valid },
    gain,
    color: colorSmooth,
    chroma,
    texture,
    deviation: { original: so.data, registered: sa.data },
    strength,
    changed: { width, height, data: changed },
  };
}

export function lum(p: [Plane, Plane, Plane], i: number): number {
  return 0.299 * p[0].data[i]! + 0.587 * p[1].data[i]! + 0.114 * p[2].data[i]!;
}

/** (r - g, b - g) over luminance; the offset keeps dark pixels' noise from dominating. */
function chromaticity(p: [Plane, Plane, Plane], i: number): [number, number] {
  const g = p[1].data[i]!;
  const l = lum(p, i) + 0.1;
  return [(p[0].data[i]! - g) / l, (p[2].data[i]! - g) / l];
}

/** Original edges: the strongest this share of pixels. */
const EDGE_SHARE = 0.08;
const EDGE_ANGLE = Math.cos((25 * Math.PI) / 180);

function recallEdges(original: Plane, registered: Plane, weight: Plane): number {
  const { width, height } = original;
  const go = gradient(original);
  const filled = { width, height, data: registered.data.map((v) => (Number.isNaN(v) ? 0 : v)) };
  const ga = gradient(filled);
  // Every third pixel's magnitude, sorted as a typed array (a plain array's comparator sort was slow).
  const mags = new Float32Array(Math.ceil(go.mag.length / 3));
  for (let i = 0; i < mags.length; i++) mags[i] = go.mag[3 * i]!;
  mags.sort();
  const threshold = Math.max(0.01, mags[mags.length - 1 - Math.floor(EDGE_SHARE * mags.length)] ?? 0);
  let total = 0;
  let found = 0;
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      const m = go.mag[i]!;
      if (m < threshold || Number.isNaN(registered.data[i]!)) continue;
      const w = weight.data[i]!;
      total += w;
      search: for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const j = i + dy * width + dx;
          const ma = ga.mag[j]!;
          if (ma < 0.4 * m) continue;
          if ((go.gx[i]! * ga.gx[j]! + go.gy[i]! * ga.gy[j]!) / (m * ma) >= EDGE_ANGLE) {
            found += w;
            break search;
          }
        }
      }
    }
  }
  return total > 0 ? found / total : 0;
}

/** Local standard deviation of grey in a Gaussian window. */
function localDeviation(gray: Plane): Plane {
  const g = blurPlane(gray, 0.7);
  const mean = blurPlane(g, TEXTURE_SIGMA);
  const sq = new Float32Array(g.data.length);
  for (let i = 0; i < sq.length; i++) sq[i] = (g.data[i]! - mean.data[i]!) ** 2;
  const v = blurPlane({ width: g.width, height: g.height, data: sq }, TEXTURE_SIGMA);
  for (let i = 0; i < sq.length; i++) v.data[i] = Math.sqrt(v.data[i]!);
  return v;
}
