import { SRGB_TO_LINEAR } from './image.ts';
import { fbm3, noise3 } from './prng.ts';
import { clamp, smoothstep, type Vec3 } from './vec.ts';

export type MaterialKind =
  | 'fabric'
  | 'velvet'
  | 'leather'
  | 'wood'
  | 'metal'
  | 'marble'
  | 'ceramic'
  | 'leaf'
  | 'rug'
  | 'art'
  | 'shade'
  | 'linen'
  | 'plain';

export interface Material {
  kind: MaterialKind;
  /** sRGB 0..1 base colour. */
  color: Vec3;
  /** Second colour (grain, veins, pattern), sRGB. */
  color2?: Vec3;
  /** Third colour (rug and art patterns), sRGB. */
  color3?: Vec3;
  /** Specular strength 0..1 and shininess exponent. */
  spec: number;
  shininess: number;
  /** Pattern variant for rugs and art. */
  pattern?: number;
  /** Light emitted (lamp shades), in units of the room light. */
  glow?: number;
  /** Half extents of a rug's pattern in metres, so borders follow its edges. */
  half?: [number, number];
}

const lin = (c: number) => SRGB_TO_LINEAR[Math.round(clamp(c, 0, 1) * 255)] ?? 0;

export function toLinear(c: Vec3): Vec3 {
  return [lin(c[0]), lin(c[1]), lin(c[2])];
}

function mix3(a: Vec3, b: Vec3, t: number, out: Vec3): void {
  out[0] = a[0] + (b[0] - a[0]) * t;
  out[1] = a[1] + (b[1] - a[1]) * t;
  out[2] = a[2] + (b[2] - a[2]) * t;
}

/** Linear-space copies of a material's colours, computed once per scene. */
export interface PreparedMaterial {
  m: Material;
  c1: Vec3;
  c2: Vec3;
  c3: Vec3;
}

export function prepare(m: Material): PreparedMaterial {
  return { m, c1: toLinear(m.color), c2: toLinear(m.color2 ?? m.color), c3: toLinear(m.color3 ?? m.color2 ?? m.color) };
}

/**
 * Procedural albedo (linear) at a local position, in metres. Textures are kept at scales a
 * listing photo resolves (centimetres and up) so they read as material, not as noise.
 */
export function albedo(pm: PreparedMaterial, x: number, y: number, z: number, seed: number, out: Vec3): void {
  const { m, c1, c2 } = pm;
  switch (m.kind) {
    case 'wood': {
      // Grain runs along local X; rings are distorted by low-frequency noise.
      const warp = fbm3(x * 0.6, y * 6, z * 6, seed, 2) * 7;
      const ring = Math.abs(Math.sin((y * 38 + z * 38 + warp) * 1.0 + x * 0.4));
      const streak = noise3(x * 1.2, y * 90, z * 90, seed + 7);
      const t = clamp(0.55 * smoothstep(0.55, 1, ring) + 0.45 * streak - 0.1, 0, 1);
      mix3(c1, c2, t, out);
      return;
    }
    case 'marble': {
      const v = Math.abs(Math.sin((x * 3.2 + z * 2.1 + y) * 2.2 + fbm3(x * 2.5, y * 2.5, z * 2.5, seed, 4) * 9));
      const vein = Math.pow(1 - v, 10) * 0.9 + Math.pow(1 - Math.abs(Math.sin(x * 9 + z * 5 + fbm3(x * 6, y * 6, z * 6, seed + 3, 3) * 6)), 30) * 0.5;
      mix3(c1, c2, clamp(vein, 0, 1), out);
      return;
    }
    case 'fabric':
    case 'linen': {
      const mottle = fbm3(x * 6, y * 6, z * 6, seed, 2) - 0.5;
      const fine = noise3(x * 140, y * 140, z * 140, seed + 1) - 0.5;
      const k = 1 + mottle * 0.16 + fine * (m.kind === 'linen' ? 0.14 : 0.08);
      out[0] = c1[0] * k;
      out[1] = c1[1] * k;
      out[2] = c1[2] * k;
      return;
    }
    case 'velvet':
    case 'leather': {
      const mottle = fbm3(x * 9, y * 9, z * 9, seed, 3) - 0.5;
      const k = 1 + mottle * (m.kind === 'leather' ? 0.3 : 0.12);
      out[0] = c1[0] * k;
      out[1] = c1[1] * k;
      out[2] = c1[2] * k;
      return;
    }
    case 'leaf': {
      const v = noise3(x * 18, y * 18, z * 18, seed) * 0.6 + noise3(x * 4, y * 4, z * 4, seed + 5) * 0.4;
      mix3(c1, c2, clamp(v, 0, 1), out);
      return;
    }
    case 'rug':
      rugPattern(pm, x, z, seed, out);
      return;
    case 'art':
      artPattern(pm, x, y, seed, out);
      return;
    default: {
      const k = 1 + (noise3(x * 20, y * 20, z * 20, seed) - 0.5) * 0.05;
      out[0] = c1[0] * k;
      out[1] = c1[1] * k;
      out[2] = c1[2] * k;
    }
  }
}

/**
 * Surface relief per material: how its soft creases (upholstery, bedding) or pile (rugs) tilt the
 * normal at a local point, as a vector to add to it; false for smooth finishes. Shading the
 * tilted normal makes the texture answer the room's light as cloth does, where a colour
 * pattern alone reads as printed on.
 */
export function relief(kind: MaterialKind, x: number, y: number, z: number, seed: number, out: Vec3): boolean {
  let freq: number;
  let amp: number;
  switch (kind) {
    case 'fabric':
    case 'velvet':
      freq = 7;
      amp = 0.22;
      break;
    case 'linen':
      freq = 9;
      amp = 0.32;
      break;
    case 'leather':
      freq = 12;
      amp = 0.1;
      break;
    case 'rug':
      // Low pile seen from standing height is nearly flat: a strong relief reads as crumpled paper.
      freq = 60;
      amp = 0.06;
      break;
    default:
      return false;
  }
  const h = 0.3;
  const fx = x * freq;
  const fy = y * freq;
  const fz = z * freq;
  const s = seed + 17;
  const n0 = noise3(fx, fy, fz, s);
  out[0] = ((noise3(fx + h, fy, fz, s) - n0) / h) * amp;
  out[1] = ((noise3(fx, fy + h, fz, s) - n0) / h) * amp;
  out[2] = ((noise3(fx, fy, fz + h, s) - n0) / h) * amp;
  return true;
}

/** Rug patterns in rug-local metres (origin at the centre); `pattern` picks the style. */
function rugPattern(pm: PreparedMaterial, x: number, z: number, seed: number, out: Vec3): void {
  const { m, c1, c2, c3 } = pm;
  const pile = 1 + (noise3(x * 60, 0, z * 60, seed) - 0.5) * 0.08 + (fbm3(x * 3, 0, z * 3, seed + 1, 2) - 0.5) * 0.1;
  const ax = Math.abs(x);
  const az = Math.abs(z);
  let t = 0;
  let u = 0;
  switch (m.pattern ?? 0) {
    case 1: {
      // Traditional (Persian-like): guard stripes, a border of small diamonds, a central
      // medallion with petals, and a field lattice of small flowers, all a little worn.
      const [hx, hz] = m.half ?? [1, 1];
      const edge = Math.min(hx - ax, hz - az);
      const along = hx - ax < hz - az ? z : x;
      const wear = fbm3(x * 4, 0, z * 4, seed + 3, 2);
      if (edge < 0.035) t = 1;
      else if (edge < 0.05) u = 0.9;
      else if (edge < 0.17) {
        const cell = ((along * 9) % 1 + 1) % 1;
        const dm = Math.abs(cell - 0.5) + Math.abs((edge - 0.11) / 0.12);
        t = 1;
        u = dm < 0.32 ? 0.85 : dm < 0.4 ? 0.25 : 0;
      } else if (edge < 0.19) u = 0.9;
      else if (edge < 0.21) t = 1;
      else {
        const r = Math.hypot(x / (hx * 0.55), z / (hz * 0.55));
        const petal = Math.cos(Math.atan2(z, x) * 8) * 0.07;
        if (r < 0.16 + petal * 0.5) u = 0.9;
        else if (r < 0.34 + petal) t = 1;
        else if (r < 0.38 + petal) u = 0.7;
        else {
          const gx = ((x * 5) % 1 + 1) % 1 - 0.5;
          const gz = ((z * 5) % 1 + 1) % 1 - 0.5;
          const flower = Math.hypot(gx, gz);
          t = flower < 0.12 ? 0.7 : 0;
          u = flower < 0.05 || Math.abs(Math.abs(gx) - Math.abs(gz)) < 0.03 ? 0.35 : 0;
        }
      }
      t *= 0.85 + 0.3 * wear;
      u *= 0.8 + 0.3 * wear;
      break;
    }
    case 2: {
      // Modern: broad tonal bands with a thin contrasting line.
      // Soft steps: a rug's woven lines are never pixel-sharp, and hard ones alias into stairs.
      const band = Math.sin(x * 5.5 + Math.sin(z * 1.3) * 0.6);
      t = 0.55 * smoothstep(0.5, 0.6, band);
      u = 0.8 * (1 - smoothstep(0.03, 0.08, Math.abs(band)));
      break;
    }
    case 3: {
      // Luxury: soft cloud texture with a fine gold-toned border.
      const [hx, hz] = m.half ?? [1, 1];
      const edge = Math.min(hx - ax, hz - az);
      t = fbm3(x * 1.8, 0, z * 1.8, seed + 9, 3) * 0.6;
      u = smoothstep(0.115, 0.125, edge) * (1 - smoothstep(0.145, 0.155, edge));
      break;
    }
    default: {
      // Minimalist: woven jute/wool, a faint herringbone.
      const weave = Math.sin(x * 220 + (Math.floor(z * 40) % 2) * 1.6) * 0.5 + 0.5;
      t = weave * 0.25;
    }
  }
  mix3(c1, c2, clamp(t, 0, 1), out);
  if (u > 0) mix3(out, c3, clamp(u, 0, 1), out);
  out[0] *= pile;
  out[1] *= pile;
  out[2] *= pile;
}

/** Wall art: framed canvases whose picture depends on the style. x, y in canvas metres. */
function artPattern(pm: PreparedMaterial, x: number, y: number, seed: number, out: Vec3): void {
  const { m, c1, c2, c3 } = pm;
  let t = 0;
  let u = 0;
  switch (m.pattern ?? 0) {
    case 1: {
      // Landscape: sky, distant hills, a meadow.
      const hill = -0.05 + Math.sin(x * 4 + 1) * 0.06 + fbm3(x * 6, 0, 0, seed, 2) * 0.08;
      if (y > hill + 0.05) t = smoothstep(0.4, -0.1, y) * 0.3;
      else if (y > hill) t = 0.7;
      else u = 0.8 + (fbm3(x * 12, y * 12, 0, seed + 2, 2) - 0.5) * 0.4;
      break;
    }
    case 2: {
      // Abstract: overlapping circle and blocks, painted: edges a little uneven and soft.
      const wobble = (fbm3(x * 14, y * 14, 0, seed + 5, 2) - 0.5) * 0.02;
      t = smoothstep(0.185, 0.175, Math.hypot(x + 0.08, y - 0.06) + wobble);
      u = smoothstep(0.045, 0.055, x + wobble) * smoothstep(-0.015, -0.025, y - wobble);
      break;
    }
    case 3: {
      // Minimal: one calm arc on warm paper.
      const r = Math.hypot(x, y + 0.15);
      if (Math.abs(r - 0.22) < 0.012) t = 1;
      break;
    }
    default: {
      // Soft marbled abstract.
      t = fbm3(x * 3, y * 3, 0, seed, 4);
      t = smoothstep(0.45, 0.7, t);
      u = smoothstep(0.62, 0.8, fbm3(x * 5 + 3, y * 5, 0, seed + 4, 3));
    }
  }
  mix3(c1, c2, clamp(t, 0, 1), out);
  if (u > 0) mix3(out, c3, clamp(u, 0, 1), out);
  // Paint lies unevenly on canvas: a faint mottle, so no area is a flat printed colour.
  const k = 1 + (fbm3(x * 25, y * 25, 0, seed + 11, 2) - 0.5) * 0.1;
  out[0] *= k;
  out[1] *= k;
  out[2] *= k;
}
