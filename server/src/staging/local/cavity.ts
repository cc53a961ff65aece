import type { Camera } from './camera.ts';
import type { RenderLayer } from './raster.ts';
import { smoothstep } from './vec.ts';

/** Reach of the occlusion in metres: the gaps between cushions, under a pillow, a seat against its arm. */
const REACH = 0.12;
const SAMPLES = 16;
/** A sample counts as enclosed only this far (share of depth) behind the surface: flat, tessellated surfaces do not darken themselves. */
const BIAS = 0.004;
/** Darkening of a fully enclosed crease; light still bounces in from the furniture's own surfaces. */
const STRENGTH = 1;
const FLOOR = 0.4;
/** Neighbours farther apart in depth than this share belong to another surface: the blur keeps creases sharp. */
const SAME_SURFACE = 0.03;
const BLUR_RADIUS = 2;

/**
 * Ambient occlusion between the furniture's own parts, measured on the render's depth buffer:
 * points in the hemisphere over each pixel's surface, within REACH, are projected back into the
 * image, and those behind the nearest surface there are enclosed. Sampling in the room, not on
 * the screen, keeps a seat seen at a grazing angle as occluding as one seen face on.
 * The room's radiance lights every surface as if open to the whole room; creases between
 * cushions, the seat under a pillow and the inside of a frame are not, and without this
 * upholstery reads as moulded in one piece.
 * Returns a factor per render pixel (1 where nothing occludes, or no furniture).
 */
export function cavityOcclusion(layer: RenderLayer, cam: Camera): Float32Array {
  const { width: W, height: H, depth } = layer;
  const { focal, cx, cy } = cam.p;
  const inv = 1 / focal;
  const raw = new Float32Array(W * H).fill(1);
  const kernel = hemisphereKernel();
  const at = (u: number, v: number) => (u < 0 || v < 0 || u >= W || v >= H ? Infinity : depth[v * W + u]!);
  for (let v = 0; v < H; v++) {
    for (let u = 0; u < W; u++) {
      const d = depth[v * W + u]!;
      if (!Number.isFinite(d) || (REACH * focal) / d < 1) continue;
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
      const nl = Math.hypot(nx, ny, nz);
      if (nl === 0) continue;
      // Facing the camera.
      const s = nx * px + ny * py + nz * d > 0 ? -1 / nl : 1 / nl;
      nx *= s;
      ny *= s;
      nz *= s;
      // A tangent frame turned per pixel by interleaved gradient noise; the blur below averages it out.
      const turn = 2 * Math.PI * ((52.9829189 * ((0.06711056 * u + 0.00583715 * v) % 1)) % 1);
      let tx = Math.cos(turn);
      let ty = Math.sin(turn);
      let tz = 0;
      const tn = tx * nx + ty * ny + tz * nz;
      tx -= tn * nx;
      ty -= tn * ny;
      tz -= tn * nz;
      const tl = Math.hypot(tx, ty, tz);
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
        const sx = px + REACH * (kx * tx + ky * bxv + kz * nx);
        const sy = py + REACH * (kx * ty + ky * byv + kz * ny);
        const sz = d + REACH * (kx * tz + ky * bzv + kz * nz);
        if (sz <= 0.05) continue;
        const q = at(Math.floor(cx + (focal * sx) / sz), Math.floor(cy - (focal * sy) / sz));
        if (!(q < sz - BIAS * d)) continue;
        // The surface in front of the sample encloses this pixel unless it stands well apart, in
        // front of it (a table before the sofa). A seat seen at a grazing angle hides a sample
        // just under it behind its own far nearer part, so the test is on the pixel's depth.
        const apart = d - q;
        enclosed += apart <= 2 * REACH ? 1 : apart >= 4 * REACH ? 0 : 1 - smoothstep(2 * REACH, 4 * REACH, apart);
      }
      raw[v * W + u] = Math.max(FLOOR, 1 - (STRENGTH * enclosed) / SAMPLES);
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
