/** Deterministic helpers: the engine must give identical bytes for identical input. */

/** FNV-1a over a byte sample, used to seed the PRNG from the image itself. */
export function hashBytes(bytes: Uint8Array, seed = 2166136261): number {
  let h = seed >>> 0;
  // A strided sample is enough to separate photos and keeps this O(1) in image size.
  const step = Math.max(1, Math.floor(bytes.length / 65536));
  for (let i = 0; i < bytes.length; i += step) {
    h ^= bytes[i] ?? 0;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

export function hashString(s: string, seed = 2166136261): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for texture noise and grain. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer lattice hash in [0,1) for procedural value noise. */
export function hash3(x: number, y: number, z: number, seed: number): number {
  let h = (Math.imul(x, 374761393) + Math.imul(y, 668265263) + Math.imul(z, 2147483647) + seed) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

/** `hash3` from the lattice coordinates' products already taken (noise3 shares them between corners). */
function hashProducts(hx: number, hy: number, hz: number, seed: number): number {
  let h = (hx + hy + hz + seed) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/**
 * Trilinear value noise in [0,1). The corners are `hash3` of the lattice points; each axis's
 * products are taken once, and a coordinate on the lattice (y = 0 for the floor's and rugs'
 * patterns) skips the four corners its weight zeroes: the same value, the hottest call of a render.
 */
export function noise3(x: number, y: number, z: number, seed: number): number {
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  const zi = Math.floor(z);
  const fx = smooth(x - xi);
  const fy = smooth(y - yi);
  const fz = smooth(z - zi);
  const ax = Math.imul(xi, 374761393);
  const bx = Math.imul(xi + 1, 374761393);
  const ay = Math.imul(yi, 668265263);
  const az = Math.imul(zi, 2147483647);
  const bz = Math.imul(zi + 1, 2147483647);
  const c000 = hashProducts(ax, ay, az, seed);
  const c100 = hashProducts(bx, ay, az, seed);
  const c001 = hashProducts(ax, ay, bz, seed);
  const c101 = hashProducts(bx, ay, bz, seed);
  const x00 = c000 + (c100 - c000) * fx;
  const x01 = c001 + (c101 - c001) * fx;
  if (fy === 0) return x00 + (x01 - x00) * fz;
  const by = Math.imul(yi + 1, 668265263);
  const c010 = hashProducts(ax, by, az, seed);
  const c110 = hashProducts(bx, by, az, seed);
  const c011 = hashProducts(ax, by, bz, seed);
  const c111 = hashProducts(bx, by, bz, seed);
  const x10 = c010 + (c110 - c010) * fx;
  const x11 = c011 + (c111 - c011) * fx;
  const y0 = x00 + (x10 - x00) * fy;
  const y1 = x01 + (x11 - x01) * fy;
  return y0 + (y1 - y0) * fz;
}

/** Fractal noise, 0..1, a few octaves. */
export function fbm3(x: number, y: number, z: number, seed: number, octaves = 3): number {
  let sum = 0;
  let amp = 0.5;
  let norm = 0;
  let f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * noise3(x * f, y * f, z * f, seed + o * 1013);
    norm += amp;
    amp *= 0.5;
    f *= 2.03;
  }
  return sum / norm;
}
