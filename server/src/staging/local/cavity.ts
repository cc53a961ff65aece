import type { Camera } from './camera.ts';
import type { RenderLayer } from './raster.ts';
import { clamp, luminance, smoothstep } from './vec.ts';

/**
 * The two reaches of the occlusion. Creases: the gaps between cushions, under a pillow, a seat
 * against its arm. Enclosure: a chair's seat inside its back and wings, the shelf of a table,
 * the knee space under a desk. At that reach a part sees a share of the room the crease scale
 * cannot tell, and without it a wingback is one tone inside and out. The enclosure's shade is
 * broad, so it is measured at half the render's size.
 */
interface Scale {
  /** Metres. */
  reach: number;
  /** Darkening of a fully enclosed point, and the least factor left. */
  strength: number;
  floor: number;
  /** An occluder this far (metres) in front of the point, and surely at twice this, is another piece standing apart (a table before the sofa). */
  apart: number;
}
const CREASE: Scale = { reach: 0.12, strength: 1, floor: 0.4, apart: 0.24 };
const ENCLOSURE: Scale = { reach: 0.5, strength: 1.6, floor: 0.35, apart: 0.5 };
/** Share of the up-facing level of light that an upright face takes (the room's radiance is brightest from above). */
const UPRIGHT_SHARE = 0.5;
const SAMPLES = 16;
/** The tangent frame's turns, a table: a cosine and a sine per pixel were a tenth of the pass. */
const TURNS = 64;
const TURN_COS = Float64Array.from({ length: TURNS }, (_, k) => Math.cos((2 * Math.PI * k) / TURNS));
const TURN_SIN = Float64Array.from({ length: TURNS }, (_, k) => Math.sin((2 * Math.PI * k) / TURNS));
/** A sample counts as enclosed only this far (share of depth) behind the surface: flat, tessellated surfaces do not darken themselves. */
const BIAS = 0.004;
/** Neighbours farther apart in depth than this share belong to another surface: the blur keeps creases sharp. */
const SAME_SURFACE = 0.03;
const BLUR_RADIUS = 2;
/** A half-size texel belongs to a full-size pixel's surface this near in depth (share of depth): a seat seen at a slant changes by a few per cent per pixel. */
const UPSAMPLE_GAP = 0.1;

/** A depth buffer and the pinhole it was seen through. */
interface DepthView {
  depth: Float32Array;
  width: number;
  height: number;
  focal: number;
  cx: number;
  cy: number;
}

/**
 * Ambient occlusion between the furniture's own parts, measured on the render's depth buffer:
 * points in the hemisphere over each pixel's surface are projected back into the image, and
 * those behind the nearest surface there are enclosed. Sampling in the room, not on the
 * screen, keeps a seat seen at a grazing angle as occluding as one seen face on.
 * The room's radiance lights every surface as if open to the whole room; creases between
 * cushions, the seat under a pillow and the inside of a frame are not, and without this
 * upholstery reads as moulded in one piece. An enclosure is lit by what its cover reflects
 * into it, so it darkens less in a pale cover than in a dark one; the cover's albedo is read
 * from its shaded colour against `level`, the luminance of the light on an upward face.
 * Returns a factor per render pixel (1 where nothing occludes, or no furniture).
 */
export function cavityOcclusion(layer: RenderLayer, cam: Camera, level: number): Float32Array {
  const { width, height, depth, color, alpha } = layer;
  const { focal, cx, cy } = cam.p;
  const full = { depth, width, height, focal, cx, cy };
  const out = occlusion(full, CREASE);
  const half = halved(full);
  const enclosure = occlusion(half, ENCLOSURE);
  const lit = UPRIGHT_SHARE * Math.max(1e-6, level);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const i = v * width + u;
      const d = depth[i]!;
      if (!Number.isFinite(d)) continue;
      const shut = 1 - upsampled(enclosure, half, u / 2, v / 2, d);
      if (shut <= 0) continue;
      const a = Math.max(1e-6, alpha[i]!);
      const albedo = clamp(luminance(color[3 * i]!, color[3 * i + 1]!, color[3 * i + 2]!) / a / lit, 0, 1);
      out[i] = out[i]! * (1 - shut * (1 - albedo));
    }
  }
  return out;
}

/** The view at half the size, each texel the nearest of the four it covers. */
function halved(view: DepthView): DepthView {
  const width = Math.ceil(view.width / 2);
  const height = Math.ceil(view.height / 2);
  const depth = new Float32Array(width * height).fill(Infinity);
  for (let v = 0; v < view.height; v++) {
    for (let u = 0; u < view.width; u++) {
      const i = (v >> 1) * width + (u >> 1);
      depth[i] = Math.min(depth[i]!, view.depth[v * view.width + u]!);
    }
  }
  return { depth, width, height, focal: view.focal / 2, cx: view.cx / 2, cy: view.cy / 2 };
}

/** A half-size factor at (x, y): of the four texels round it, the one nearest in depth to the pixel's surface (it does not bleed across an outline). */
function upsampled(factor: Float32Array, view: DepthView, x: number, y: number, d: number): number {
  const u0 = Math.min(view.width - 1, Math.max(0, Math.floor(x - 0.5)));
  const v0 = Math.min(view.height - 1, Math.max(0, Math.floor(y - 0.5)));
  let best = 1;
  let gap = Infinity;
  for (let dv = 0; dv <= 1; dv++) {
    for (let du = 0; du <= 1; du++) {
      const i = Math.min(view.height - 1, v0 + dv) * view.width + Math.min(view.width - 1, u0 + du);
      const g = Math.abs(view.depth[i]! - d);
      if (g < gap) {
        gap = g;
        best = factor[i]!;
      }
    }
  }
  return gap <= UPSAMPLE_GAP * d ? best : 1;
}

function occlusion(view: DepthView, scale: Scale): Float32Array {
  const { width: W, height: H, depth, focal, cx, cy } = view;
  const { reach, strength, floor } = scale;
  const far = 2 * scale.apart;
  const inv = 1 / focal;
  const raw = new Float32Array(W * H).fill(1);
  const kernel = hemisphereKernel();
  const at = (u: number, v: number) => (u < 0 || v < 0 || u >= W || v >= H ? Infinity : depth[v * W + u]!);
  for (let v = 0; v < H; v++) {
    for (let u = 0; u < W; u++) {
      const d = depth[v * W + u]!;
      if (!Number.isFinite(d) || (reach * focal) / d < 1) continue;
      // Tangent plane from the neighbours on the same surface (the nearer in depth on each axis).
      const dl = at(u - 1, v);
      const dr = at(u + 1, v);
      const du = at(u, v - 1);
      const dd = at(u, v + 1);
      const hx = Math.abs(dr - d) < Math.abs(d - dl) ? 1 : -1;
      const hy = Math.abs(dd - d) < Math.abs(d - du) ? 1 : -1;
      const d1 = hx > 0 ? dr : dl;
      const d2 = hy > 0 ? dd : du;
      if (!Number.isFinite(d1) || !Number.isFinite(d2)) continue;
      const px = (u + 0.5 - cx) * inv * d;
      const py = -(v + 0.5 - cy) * inv * d;
      const ax = (u + hx + 0.5 - cx) * inv * d1 - px;
      const ay = -(v + 0.5 - cy) * inv * d1 - py;
      const az = d1 - d;
      const bx = (u + 0.5 - cx) * inv * d2 - px;
      const by = -(v + hy + 0.5 - cy) * inv * d2 - py;
      const bz = d2 - d;
      let nx = ay * bz - az * by;
      let ny = az * bx - ax * bz;
      let nz = ax * by - ay * bx;
      const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (nl === 0) continue;
      // Facing the camera.
      const s = nx * px + ny * py + nz * d > 0 ? -1 / nl : 1 / nl;
      nx *= s;
      ny *= s;
      nz *= s;
      // A tangent frame turned per pixel by interleaved gradient noise; the blur below averages it out.
      const turn = Math.floor(TURNS * ((52.9829189 * ((0.06711056 * u + 0.00583715 * v) % 1)) % 1));
      let tx = TURN_COS[turn]!;
      let ty = TURN_SIN[turn]!;
      let tz = 0;
      const tn = tx * nx + ty * ny + tz * nz;
      tx -= tn * nx;
      ty -= tn * ny;
      tz -= tn * nz;
      const tl = Math.sqrt(tx * tx + ty * ty + tz * tz);
      if (tl < 1e-6) continue;
      tx /= tl;
      ty /= tl;
      tz /= tl;
      const bxv = ny * tz - nz * ty;
      const byv = nz * tx - nx * tz;
      const bzv = nx * ty - ny * tx;
      let enclosed = 0;
      for (let k = 0; k < SAMPLES; k++) {
        const kx = kernel[3 * k]!;
        const ky = kernel[3 * k + 1]!;
        const kz = kernel[3 * k + 2]!;
        const sx = px + reach * (kx * tx + ky * bxv + kz * nx);
        const sy = py + reach * (kx * ty + ky * byv + kz * ny);
        const sz = d + reach * (kx * tz + ky * bzv + kz * nz);
        if (sz <= 0.05) continue;
        const q = at(Math.floor(cx + (focal * sx) / sz), Math.floor(cy - (focal * sy) / sz));
        if (!(q < sz - BIAS * d)) continue;
        // The surface in front of the sample encloses this pixel unless it stands well apart, in
        // front of it (a table before the sofa). A seat seen at a grazing angle hides a sample
        // just under it behind its own far nearer part, so the test is on the pixel's depth.
        const apart = d - q;
        enclosed += apart <= scale.apart ? 1 : apart >= far ? 0 : 1 - smoothstep(scale.apart, far, apart);
      }
      raw[v * W + u] = Math.max(floor, 1 - (strength * enclosed) / SAMPLES);
    }
  }
  return blurSameSurface(raw, depth, W, H);
}

/** Points in the unit hemisphere around +Z, denser near the centre (near creases matter most). */
function hemisphereKernel(): Float32Array {
  const out = new Float32Array(3 * SAMPLES);
  for (let k = 0; k < SAMPLES; k++) {
    // Even in azimuth (golden angle) and in cos(elevation), radius growing with k.
    const cosE = 1 - (k + 0.5) / SAMPLES;
    const sinE = Math.sqrt(1 - cosE * cosE);
    const a = k * 2.39996323;
    const t = (k + 1) / SAMPLES;
    const r = 0.15 + 0.85 * t * t;
    out[3 * k] = r * sinE * Math.cos(a);
    out[3 * k + 1] = r * sinE * Math.sin(a);
    out[3 * k + 2] = r * Math.max(0.1, cosE);
  }
  return out;
}

/** Separable box blur over neighbours at about the same depth (the noise goes, the crease edges stay). */
function blurSameSurface(src: Float32Array, depth: Float32Array, W: number, H: number): Float32Array {
  const pass = (from: Float32Array, dx: number, dy: number): Float32Array => {
    const out = new Float32Array(from);
    for (let v = 0; v < H; v++) {
      for (let u = 0; u < W; u++) {
        const i = v * W + u;
        const d = depth[i]!;
        if (!Number.isFinite(d)) continue;
        let sum = 0;
        let n = 0;
        for (let k = -BLUR_RADIUS; k <= BLUR_RADIUS; k++) {
          const x = u + k * dx;
          const y = v + k * dy;
          if (x < 0 || y < 0 || x >= W || y >= H) continue;
          const j = y * W + x;
          if (!(Math.abs(depth[j]! - d) <= SAME_SURFACE * d)) continue;
          sum += from[j]!;
          n++;
        }
        out[i] = sum / n;
      }
    }
    return out;
  };
  return pass(pass(src, 1, 0), 0, 1);
}
