import type { Opening } from './analyze.ts';
import type { Camera } from './camera.ts';
import { SRGB_TO_LINEAR } from './image.ts';
import { hitBox } from './light.ts';
import type { ColorPlanes, RoomBox } from './roombox.ts';
import { ShadeGrid } from './shadows.ts';
import { leavesThrough, SUNLIT } from './sun.ts';
import { clamp, luminance, smoothstep } from './vec.ts';

const CELL = 0.05;
/** Blur radius in cells, twice over, after the median: what is left of the floor's own pattern averages out. */
const BLUR = 1;
/**
 * Median radius in cells (25 cm across): a grout line or a plank's dark joint covers less than
 * half the window, so it goes, while a sun patch's edge stays where it is. A blur alone left
 * the tiles' lines printed across every rug laid on them.
 */
const MEDIAN = 2;
/** Nearer than this the photo's floor is at the frame's edge or behind the camera. */
const NEAR = 0.3;
const RANGE: [number, number] = [0.5, 5];
/** The box's walls are found to a few centimetres: nearer them a cell may show the wall or the skirting. */
const WALL_MARGIN = 0.15;
/** Margin around an opening's mirror image: the reflection is blurred by the floor's finish. */
const MIRROR_MARGIN = 0.25;

const linear = (c: number) => SRGB_TO_LINEAR[Math.round(clamp(c, 0, 1) * 255)]!;

/**
 * On a glossy floor, a cell whose mirror image on the walls or ceiling is at least this much
 * brighter than the room's median wall is taken to be that image, not light on the floor: a
 * curtain lit by the window beside it, or a pale door, mirrored and blurred by the finish. The
 * openings found are often narrower than what glows round them, and such a sheen, read as sun,
 * lit the sofa's cushions in sharp bands in an overcast room. Sun patches mirror ordinary wall.
 */
const MIRROR_BRIGHT = 1.4;
/** Why a cell of the floor is taken as a mirror image: a window's, or a bright part of the room's. */
const WINDOW = 1;
const SHEEN = 2;

/**
 * The mirror image's blur: points round where the reflected ray meets the room count too, as far
 * as these directions (unit) times MIRROR_MARGIN plus MIRROR_SPREAD of the reflected ray's length
 * from the floor (a worn finish blurs what it mirrors the more, the farther that is).
 */
const MIRROR_BLUR = [
  [0, 0, 0],
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
] as const;
const MIRROR_SPREAD = 0.1;

/**
 * The photo's luminance (0..1, sRGB) where the camera's ray reflected by the floor at (x, z)
 * meets the room box's walls or ceiling, the brightest within the finish's blur; NaN where that
 * is out of frame.
 */
function mirroredLuminance(cam: Camera, box: RoomBox, color: ColorPlanes, x: number, z: number): number {
  const eye = cam.p.eyeHeight;
  const len = Math.hypot(x, eye, z);
  const dx = x / len;
  const dy = eye / len;
  const dz = z / len;
  const { t } = hitBox([x, 0, z], [dx, dy, dz], box);
  const r = MIRROR_MARGIN + MIRROR_SPREAD * t;
  let most = NaN;
  for (const [ox, oy, oz] of MIRROR_BLUR) {
    const q = cam.project([x + dx * t + ox * r, dy * t + oy * r, z + dz * t + oz * r]);
    if (q.depth < NEAR || q.u < 0 || q.v < 0 || q.u > color.width - 1.001 || q.v > color.height - 1.001) continue;
    const i = Math.floor(q.v) * color.width + Math.floor(q.u);
    const l = luminance(color.r[i]!, color.g[i]!, color.b[i]!);
    if (!(l <= most)) most = l;
  }
  return most;
}

/** The median luminance (0..1, sRGB) of what the photo shows above the floor, on a sparse grid. */
function wallMedian(cam: Camera, color: ColorPlanes): number {
  const seen: number[] = [];
  for (let v = 0; v < color.height; v += 4) {
    for (let u = 0; u < color.width; u += 4) {
      if (cam.floorPoint(u + 0.5, v + 0.5)) continue;
      const i = v * color.width + u;
      seen.push(luminance(color.r[i]!, color.g[i]!, color.b[i]!));
    }
  }
  seen.sort((a, b) => a - b);
  return seen.length ? seen[seen.length >> 1]! : NaN;
}

/**
 * A floor pixel at clipping says only that the floor there is at least that bright: sun on a
 * floor is several times the sky's light, and a sun patch the camera clipped is taken as this
 * much brighter than its pixels (ramped in from CLIP_FROM, so the patch has no seam). Without
 * it a rug laid across clipped sun stripes showed them at half their strength. The composite
 * darkens such pixels on the same assumption (composite.ts).
 */
export const CLIPPED_GAIN = 2;
const CLIP_FROM = 0.9;
const CLIP_AT = 0.98;

/**
 * How much light each point of the floor receives, relative to the floor as a whole, read off
 * the photo of the empty floor: its luminance over the floor's median (clipped pixels taken as
 * brighter than they show), blurred so the floor's own pattern averages out. A rug laid there is
 * lit the same way: sun patches run on across it instead of stopping at its edge, and it is
 * darker where the room is.
 * On a glossy floor the windows' mirror images are not light on the floor: where the camera's
 * ray, reflected by the floor, meets an opening, the floor is taken to be lit as the median.
 */
export function estimateFloorLight(cam: Camera, box: RoomBox, color: ColorPlanes, openings: Opening[], floorGloss: number): ShadeGrid | null {
  const eye = cam.p.eyeHeight;
  const windows = openings.filter((o) => o.daylight);
  const nx = Math.max(2, Math.ceil((box.right - box.left) / CELL));
  const nz = Math.max(2, Math.ceil((box.back - NEAR) / CELL));
  const lum = new Float32Array(nx * nz).fill(NaN);
  const reflected = new Uint8Array(nx * nz);
  const seen: number[] = [];
  const brightMirror = floorGloss > 0.05 ? MIRROR_BRIGHT * wallMedian(cam, color) : NaN;
  for (let iz = 0; iz < nz; iz++) {
    for (let ix = 0; ix < nx; ix++) {
      const x = box.left + (ix + 0.5) * CELL;
      const z = NEAR + (iz + 0.5) * CELL;
      if (x < box.left + WALL_MARGIN || x > box.right - WALL_MARGIN || z > box.back - WALL_MARGIN) continue;
      const q = cam.project([x, 0, z]);
      if (q.depth < NEAR || q.u < 0 || q.v < 0 || q.u > color.width - 1.001 || q.v > color.height - 1.001) continue;
      const i = Math.floor(q.v) * color.width + Math.floor(q.u);
      const clipped = smoothstep(CLIP_FROM, CLIP_AT, Math.max(color.r[i]!, color.g[i]!, color.b[i]!));
      const y = luminance(linear(color.r[i]!), linear(color.g[i]!), linear(color.b[i]!)) * (1 + (CLIPPED_GAIN - 1) * clipped);
      lum[iz * nx + ix] = y;
      // The camera's ray, reflected by the floor, goes on away from the camera's mirror image below it.
      const len = Math.hypot(x, eye, z);
      const window = floorGloss > 0.05 && leavesThrough(box, windows, x, z, [x / len, eye / len, z / len], MIRROR_MARGIN);
      const sheen = floorGloss > 0.05 && !window && mirroredLuminance(cam, box, color, x, z) > brightMirror;
      // Mirror images are brighter than the floor: they do not count towards its median.
      if (window || sheen) reflected[iz * nx + ix] = sheen ? SHEEN : WINDOW;
      else seen.push(y);
    }
  }
  if (seen.length < 50) return null;
  seen.sort((a, b) => a - b);
  const median = seen[seen.length >> 1]!;
  if (!(median > 1e-4)) return null;
  let brightSheen = 0;
  for (let i = 0; i < lum.length; i++) {
    if (reflected[i] === SHEEN && lum[i]! > SUNLIT * median) brightSheen++;
    if (reflected[i]) lum[i] = median;
  }
  let ratio = medianSeen(lum, nx, nz);
  for (let pass = 0; pass < 2; pass++) ratio = blurSeen(ratio, nx, nz);
  const factor = new Float32Array(nx * nz);
  for (let i = 0; i < factor.length; i++) factor[i] = Number.isNaN(ratio[i]!) ? 1 : clamp(ratio[i]! / median, RANGE[0], RANGE[1]);
  // Where more bright floor mirrors the room than is left, what is left is the sheen's blurred
  // fringe, not sun: a few such cells by the wall were read as a patch the sun explains.
  // (Kept a hundredth under SUNLIT: stored as a 32-bit float, SUNLIT itself rounds up past it.)
  if (brightSheen > factor.filter((f) => f > SUNLIT).length) for (let i = 0; i < factor.length; i++) factor[i] = Math.min(factor[i]!, SUNLIT - 0.01);
  return new ShadeGrid(box.left, NEAR, CELL, nx, nz, factor);
}

/** Median over the cells the photo shows within MEDIAN cells (NaN elsewhere stays NaN). */
function medianSeen(src: Float32Array, nx: number, nz: number): Float32Array {
  const out = new Float32Array(src.length).fill(NaN);
  const cells = new Float32Array((2 * MEDIAN + 1) ** 2);
  for (let iz = 0; iz < nz; iz++) {
    for (let ix = 0; ix < nx; ix++) {
      if (Number.isNaN(src[iz * nx + ix]!)) continue;
      let n = 0;
      for (let z = Math.max(0, iz - MEDIAN); z <= Math.min(nz - 1, iz + MEDIAN); z++) {
        for (let x = Math.max(0, ix - MEDIAN); x <= Math.min(nx - 1, ix + MEDIAN); x++) {
          const v = src[z * nx + x]!;
          if (!Number.isNaN(v)) cells[n++] = v;
        }
      }
      const seen = cells.subarray(0, n).sort();
      out[iz * nx + ix] = seen[n >> 1]!;
    }
  }
  return out;
}

/** Box blur over the cells the photo shows (NaN elsewhere stays NaN). */
function blurSeen(src: Float32Array, nx: number, nz: number): Float32Array {
  const out = new Float32Array(src.length).fill(NaN);
  for (let iz = 0; iz < nz; iz++) {
    for (let ix = 0; ix < nx; ix++) {
      if (Number.isNaN(src[iz * nx + ix]!)) continue;
      let sum = 0;
      let n = 0;
      for (let dz = -BLUR; dz <= BLUR; dz++) {
        for (let dx = -BLUR; dx <= BLUR; dx++) {
          const x = ix + dx;
          const z = iz + dz;
          if (x < 0 || z < 0 || x >= nx || z >= nz) continue;
          const v = src[z * nx + x]!;
          if (Number.isNaN(v)) continue;
          sum += v;
          n++;
        }
      }
      out[iz * nx + ix] = sum / n;
    }
  }
  return out;
}
