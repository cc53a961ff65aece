import type { Camera } from './camera.ts';
import type { Mesh } from './mesh.ts';

/** What the shader gets for one visible surface point. */
export interface Fragment {
  px: number;
  py: number;
  pz: number;
  nx: number;
  ny: number;
  nz: number;
  lx: number;
  ly: number;
  lz: number;
  /** The texture axis the surface faces most (0 X, 1 Y, 2 Z): Mesh.faces. */
  face: number;
  material: number;
}

/**
 * Shades a fragment into `out`: linear RGB, and for glass (out[3]) the share of the light behind
 * it that the pane takes away at this view, GLASS_OPACITY unless the shader says.
 */
export type Shader = (f: Fragment, out: Float32Array) => void;

export interface RenderLayer {
  width: number;
  height: number;
  /** Linear RGB, premultiplied by coverage. */
  color: Float32Array;
  /** Coverage 0..1. */
  alpha: Float32Array;
  /** Camera depth of the nearest surface in metres (Infinity where empty). */
  depth: Float32Array;
}

const TILE = 32;
const GRID = 4;
const SPP = GRID * GRID;
/** Sheared 4x4 grid: 16 distinct rows and columns, so near-horizontal and near-vertical edges get 16 coverage levels. */
const SAMPLE_X = new Float32Array(SPP);
const SAMPLE_Y = new Float32Array(SPP);
for (let j = 0; j < GRID; j++) {
  for (let i = 0; i < GRID; i++) {
    SAMPLE_X[j * GRID + i] = (i + 0.5) / GRID + (j - 1.5) / (GRID * GRID);
    SAMPLE_Y[j * GRID + i] = (j + 0.5) / GRID + (i - 1.5) / (GRID * GRID);
  }
}

/**
 * The mesh's triangles clipped at the near plane (a clipped triangle gives one or two) and
 * projected: per raster triangle its corners' screen position and inverse camera depth (three
 * each), its source triangle, and its corners' barycentrics in that source triangle (nine).
 */
interface RasterTriangles {
  x: Float32Array;
  y: Float32Array;
  invDepth: Float32Array;
  source: Int32Array;
  bary: Float32Array;
}

/** The raster triangles overlapping each TILE x TILE tile of the image, row by row: opaque ones, and glass. */
interface TileBins {
  tilesX: number;
  tilesY: number;
  bins: number[][];
  glass: number[][];
}

/** One tile's sample buffers, reused from tile to tile. */
interface TileSamples {
  /** Inverse depth of the nearest surface at each sample (0 where empty) and its raster triangle (-1). */
  depth: Float32Array;
  triangle: Int32Array;
  /** A triangle's first two barycentrics and inverse depth at each sample, relative to the pixel corner. */
  offset0: Float32Array;
  offset1: Float32Array;
  offsetDepth: Float32Array;
}

/** Scratch for resolving one pixel: the distinct triangles among its samples, their counts and sample sums. */
interface PixelTriangles {
  ids: Int32Array;
  counts: Int32Array;
  sumX: Float32Array;
  sumY: Float32Array;
  fragment: Fragment;
  /** One shade, then the pixel's coverage-weighted sum of them (shadePixel). */
  rgb: Float32Array;
  /** Inverse depth of the pixel's nearest sample (gatherPixel). */
  nearest: number;
}

const NEAR = 0.2;

/**
 * Tiled z-buffer rasteriser with 16 coverage samples per pixel and one shading evaluation per
 * pixel and triangle (at the centroid of that triangle's covered samples), so edges are
 * anti-aliased at the cost of shading only once per pixel in the interior.
 */
export function rasterize(mesh: Mesh, cam: Camera, width: number, height: number, shade: Shader): RenderLayer {
  return rasterizeInto(mesh, cam, emptyLayer(width, height), shade);
}

/**
 * An empty layer; with `shared`, its planes live in shared memory, so two threads can each
 * rasterise some of its tile rows into it.
 */
export function emptyLayer(width: number, height: number, shared = false): RenderLayer {
  const plane = (n: number) => (shared ? new Float32Array(new SharedArrayBuffer(n * 4)) : new Float32Array(n));
  return { width, height, color: plane(width * height * 3), alpha: plane(width * height), depth: plane(width * height).fill(Infinity) };
}

/** How many tile rows a layer this tall has. */
export function tileRowCount(height: number): number {
  return Math.ceil(height / TILE);
}

/** Tile rows one after another: what a thread rasterising the whole layer alone takes. */
export function everyTileRow(): () => number {
  let next = 0;
  return () => next++;
}

/**
 * Rasterises the tile rows `nextTileRow` hands out (until it gives one past the last) into
 * `layer`. Tiles are independent, so a row's pixels are the same whichever thread takes it.
 */
export function rasterizeInto(mesh: Mesh, cam: Camera, layer: RenderLayer, shade: Shader, nextTileRow = everyTileRow(), glass?: Uint8Array): RenderLayer {
  const { width, height } = layer;
  const { triangles, bins } = clipProjectAndBin(mesh, cam, width, height, glass);
  const samples: TileSamples = {
    depth: new Float32Array(TILE * TILE * SPP),
    triangle: new Int32Array(TILE * TILE * SPP),
    offset0: new Float32Array(SPP),
    offset1: new Float32Array(SPP),
    offsetDepth: new Float32Array(SPP),
  };
  const pixel: PixelTriangles = {
    ids: new Int32Array(SPP),
    counts: new Int32Array(SPP),
    sumX: new Float32Array(SPP),
    sumY: new Float32Array(SPP),
    fragment: { px: 0, py: 0, pz: 0, nx: 0, ny: 0, nz: 0, lx: 0, ly: 0, lz: 0, face: 1, material: 0 },
    rgb: new Float32Array(4),
    nearest: 0,
  };
  let clear: TileSamples | null = null;
  for (let ty = nextTileRow(); ty < bins.tilesY; ty = nextTileRow()) {
    for (let tx = 0; tx < bins.tilesX; tx++) {
      const bin = bins.bins[ty * bins.tilesX + tx]!;
      const panes = bins.glass[ty * bins.tilesX + tx]!;
      if (bin.length === 0 && panes.length === 0) continue;
      const x0 = tx * TILE;
      const y0 = ty * TILE;
      const tw = Math.min(TILE, width - x0);
      const th = Math.min(TILE, height - y0);
      samples.depth.fill(0);
      samples.triangle.fill(-1);
      for (const t of bin) coverTriangle(triangles, t, x0, y0, tw, th, samples);
      resolveTile(mesh, triangles, x0, y0, tw, th, samples, pixel, shade, layer);
      if (panes.length === 0) continue;
      // Glass in front of the opaque surfaces: its samples start at their depths, so only nearer panes take a sample.
      clear ??= { ...samples, depth: new Float32Array(samples.depth.length), triangle: new Int32Array(samples.triangle.length) };
      clear.depth.set(samples.depth);
      clear.triangle.fill(-1);
      for (const t of panes) coverTriangle(triangles, t, x0, y0, tw, th, clear);
      resolveGlass(mesh, triangles, x0, y0, tw, th, clear, pixel, shade, layer);
    }
  }
  return layer;
}

/** Clips the mesh's triangles at the near plane, projects them, and lists them per tile they overlap. */
function clipProjectAndBin(mesh: Mesh, cam: Camera, width: number, height: number, glass?: Uint8Array): { triangles: RasterTriangles; bins: TileBins } {
  const triCount = mesh.materials.length;
  const xs: number[] = [];
  const ys: number[] = [];
  const izs: number[] = [];
  const src: number[] = [];
  const bary: number[] = [];
  const tilesX = Math.ceil(width / TILE);
  const tilesY = tileRowCount(height);
  const bins: number[][] = Array.from({ length: tilesX * tilesY }, () => []);
  const panes: number[][] = Array.from({ length: tilesX * tilesY }, () => []);
  // Corners go to camera space once (cam.toCamera, with the camera's precomputed rotation) for
  // near-plane clipping; the projection that follows is the camera's, inlined.
  const { focal, cx, cy } = cam.p;
  const corners: Array<{ c: [number, number, number]; b: [number, number, number] }> = [];
  const emit = (t: number, poly: typeof corners) => {
    for (let k = 1; k + 1 < poly.length; k++) {
      const tri = [poly[0]!, poly[k]!, poly[k + 1]!];
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      const rt = src.length;
      for (const v of tri) {
        const x = cx + (focal * v.c[0]) / v.c[2];
        const y = cy - (focal * v.c[1]) / v.c[2];
        xs.push(x);
        ys.push(y);
        izs.push(1 / v.c[2]);
        bary.push(v.b[0], v.b[1], v.b[2]);
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
      src.push(t);
      if (maxX < 0 || maxY < 0 || minX >= width || minY >= height) continue;
      const tx0 = Math.max(0, Math.floor(minX / TILE));
      const ty0 = Math.max(0, Math.floor(minY / TILE));
      const tx1 = Math.min(tilesX - 1, Math.floor(maxX / TILE));
      const ty1 = Math.min(tilesY - 1, Math.floor(maxY / TILE));
      const into = glass?.[t] ? panes : bins;
      for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) into[ty * tilesX + tx]!.push(rt);
    }
  };
  for (let t = 0; t < triCount; t++) {
    corners.length = 0;
    let behind = 0;
    for (let k = 0; k < 3; k++) {
      const o = t * 9 + k * 3;
      const c = cam.toCamera([mesh.positions[o] ?? 0, mesh.positions[o + 1] ?? 0, mesh.positions[o + 2] ?? 0]);
      if (c[2] < NEAR) behind++;
      corners.push({ c, b: [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0] });
    }
    if (behind === 3) continue;
    if (behind === 0) {
      emit(t, corners);
      continue;
    }
    const clipped: typeof corners = [];
    for (let k = 0; k < 3; k++) {
      const a = corners[k]!;
      const b = corners[(k + 1) % 3]!;
      if (a.c[2] >= NEAR) clipped.push(a);
      if (a.c[2] >= NEAR !== b.c[2] >= NEAR) {
        const f = (NEAR - a.c[2]) / (b.c[2] - a.c[2]);
        const lerp3 = (p: number[], q: number[]): [number, number, number] => [
          p[0]! + (q[0]! - p[0]!) * f,
          p[1]! + (q[1]! - p[1]!) * f,
          p[2]! + (q[2]! - p[2]!) * f,
        ];
        clipped.push({ c: lerp3(a.c, b.c), b: lerp3(a.b, b.b) });
      }
    }
    emit(t, clipped);
  }
  return {
    triangles: { x: Float32Array.from(xs), y: Float32Array.from(ys), invDepth: Float32Array.from(izs), source: Int32Array.from(src), bary: Float32Array.from(bary) },
    bins: { tilesX, tilesY, bins, glass: panes },
  };
}

/** A raster triangle's first two barycentrics as linear functions of the screen position, and its bounds. */
interface BaryPlanes {
  a0: number;
  b0: number;
  c0: number;
  a1: number;
  b1: number;
  c1: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** Scratch for `barycentricPlanes` (one rasteriser runs per thread at a time). */
const PLANES: BaryPlanes = { a0: 0, b0: 0, c0: 0, a1: 0, b1: 0, c1: 0, minX: 0, maxX: 0, minY: 0, maxY: 0 };

/** Writes raster triangle `t`'s planes (l0 = a0 x + b0 y + c0, l1 likewise) into `out`; false when it has no area. */
function barycentricPlanes(triangles: RasterTriangles, t: number, out: BaryPlanes): boolean {
  const { x: sx, y: sy } = triangles;
  const ax = sx[t * 3]!;
  const ay = sy[t * 3]!;
  const bx = sx[t * 3 + 1]!;
  const by = sy[t * 3 + 1]!;
  const cx = sx[t * 3 + 2]!;
  const cy = sy[t * 3 + 2]!;
  const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
  if (Math.abs(area) < 1e-9) return false;
  const inv = 1 / area;
  out.a0 = (by - cy) * inv;
  out.b0 = (cx - bx) * inv;
  out.c0 = (bx * cy - cx * by) * inv;
  out.a1 = (cy - ay) * inv;
  out.b1 = (ax - cx) * inv;
  out.c1 = (cx * ay - ax * cy) * inv;
  out.minX = Math.min(ax, bx, cx);
  out.maxX = Math.max(ax, bx, cx);
  out.minY = Math.min(ay, by, cy);
  out.maxY = Math.max(ay, by, cy);
  return true;
}

/**
 * Depth-tests raster triangle `t` at every sample of the tile (x0, y0, tw x th) it covers,
 * keeping the nearest. Pixels wholly inside the triangle skip the per-sample edge tests.
 */
function coverTriangle(triangles: RasterTriangles, t: number, x0: number, y0: number, tw: number, th: number, samples: TileSamples): void {
  const { invDepth: iz } = triangles;
  const { depth: sDepth, triangle: sTri, offset0: off0, offset1: off1, offsetDepth: offD } = samples;
  const plane = PLANES;
  if (!barycentricPlanes(triangles, t, plane)) return;
  const { a0, b0, c0, a1, b1, c1 } = plane;
  const z0 = iz[t * 3]!;
  const z1 = iz[t * 3 + 1]!;
  const z2 = iz[t * 3 + 2]!;
  const px0 = Math.max(x0, Math.floor(plane.minX));
  const px1 = Math.min(x0 + tw - 1, Math.floor(plane.maxX));
  const py0 = Math.max(y0, Math.floor(plane.minY));
  const py1 = Math.min(y0 + th - 1, Math.floor(plane.maxY));
  // Inverse depth is linear in screen space: dz = z0 + l1 (z1 - z0) + l2 (z2 - z0).
  const da = z0 * a0 + z1 * a1 + z2 * -(a0 + a1);
  const db = z0 * b0 + z1 * b1 + z2 * -(b0 + b1);
  const dc = z0 * c0 + z1 * c1 + z2 * (1 - c0 - c1);
  for (let s = 0; s < SPP; s++) {
    off0[s] = a0 * SAMPLE_X[s]! + b0 * SAMPLE_Y[s]!;
    off1[s] = a1 * SAMPLE_X[s]! + b1 * SAMPLE_Y[s]!;
    offD[s] = da * SAMPLE_X[s]! + db * SAMPLE_Y[s]!;
  }
  // Extremes of each barycentric over a pixel square, for the whole-pixel tests.
  const lo0 = Math.min(0, a0) + Math.min(0, b0);
  const hi0 = Math.max(0, a0) + Math.max(0, b0);
  const lo1 = Math.min(0, a1) + Math.min(0, b1);
  const hi1 = Math.max(0, a1) + Math.max(0, b1);
  const a2 = -(a0 + a1);
  const b2 = -(b0 + b1);
  const lo2 = Math.min(0, a2) + Math.min(0, b2);
  const hi2 = Math.max(0, a2) + Math.max(0, b2);
  for (let py = py0; py <= py1; py++) {
    for (let px = px0; px <= px1; px++) {
      const L0 = a0 * px + b0 * py + c0;
      const L1 = a1 * px + b1 * py + c1;
      const L2 = 1 - L0 - L1;
      if (L0 + hi0 < 0 || L1 + hi1 < 0 || L2 + hi2 < 0) continue;
      const inside = L0 + lo0 >= 0 && L1 + lo1 >= 0 && L2 + lo2 >= 0;
      const D = da * px + db * py + dc;
      const base = ((py - y0) * TILE + (px - x0)) * SPP;
      for (let s = 0; s < SPP; s++) {
        if (!inside) {
          const l0 = L0 + off0[s]!;
          if (l0 < 0) continue;
          const l1 = L1 + off1[s]!;
          if (l1 < 0 || l0 + l1 > 1) continue;
        }
        const d = D + offD[s]!;
        if (d > sDepth[base + s]!) {
          sDepth[base + s] = d;
          sTri[base + s] = t;
        }
      }
    }
  }
}

/** Writes the tile's pixels to the layer: one shade per (pixel, triangle), weighted by its sample count. */
function resolveTile(mesh: Mesh, triangles: RasterTriangles, x0: number, y0: number, tw: number, th: number, samples: TileSamples, pixel: PixelTriangles, shade: Shader, layer: RenderLayer): void {
  const { depth: sDepth, triangle: sTri } = samples;
  const { rgb } = pixel;
  const { width, color, alpha, depth } = layer;
  for (let py = y0; py < y0 + th; py++) {
    for (let px = x0; px < x0 + tw; px++) {
      const base = ((py - y0) * TILE + (px - x0)) * SPP;
      const n = gatherPixel(sTri, sDepth, base, pixel);
      if (n === 0) continue;
      const pi = py * width + px;
      const cov = shadePixel(mesh, triangles, px, py, n, pixel, shade);
      color[pi * 3] = rgb[0]!;
      color[pi * 3 + 1] = rgb[1]!;
      color[pi * 3 + 2] = rgb[2]!;
      alpha[pi] = cov;
      depth[pi] = 1 / pixel.nearest;
    }
  }
}

/**
 * Share of the light behind a pane of glass that it takes away (reflected and absorbed) where
 * the shader does not say (Shader): what the glass itself reflects it gives, and what lies
 * behind shows through the rest.
 */
export const GLASS_OPACITY = 0.12;

/**
 * Lays the tile's glass over what the layer holds: per pixel, what the panes reflect is added
 * and what lies behind them (furniture, or the photo where the layer is empty) is kept but for
 * their opacity (the shader's out[3]) times their coverage. The depth stays the opaque surface's.
 * Per pixel, not per sample: on a pixel where an edge in front of a pane crosses it, that edge
 * is dimmed a little too (at most the opacity times the pane's share of the pixel).
 */
function resolveGlass(mesh: Mesh, triangles: RasterTriangles, x0: number, y0: number, tw: number, th: number, samples: TileSamples, pixel: PixelTriangles, shade: Shader, layer: RenderLayer): void {
  const { rgb } = pixel;
  const { width, color, alpha } = layer;
  for (let py = y0; py < y0 + th; py++) {
    for (let px = x0; px < x0 + tw; px++) {
      const n = gatherPixel(samples.triangle, samples.depth, ((py - y0) * TILE + (px - x0)) * SPP, pixel);
      if (n === 0) continue;
      const pi = py * width + px;
      shadePixel(mesh, triangles, px, py, n, pixel, shade);
      const taken = rgb[3]!;
      for (let c = 0; c < 3; c++) color[pi * 3 + c] = color[pi * 3 + c]! * (1 - taken) + rgb[c]!;
      alpha[pi] = alpha[pi]! * (1 - taken) + taken;
    }
  }
}

/**
 * The distinct triangles among one pixel's samples (from `base`), with their counts and sample
 * sums, and the nearest sample's inverse depth, into `pixel`; how many.
 */
function gatherPixel(sTri: Int32Array, sDepth: Float32Array, base: number, pixel: PixelTriangles): number {
  const { ids, counts, sumX, sumY } = pixel;
  let n = 0;
  let nearest = 0;
  for (let s = 0; s < SPP; s++) {
    const t = sTri[base + s]!;
    if (t < 0) continue;
    if (sDepth[base + s]! > nearest) nearest = sDepth[base + s]!;
    let k = 0;
    while (k < n && ids[k] !== t) k++;
    if (k === n) {
      ids[k] = t;
      counts[k] = 0;
      sumX[k] = 0;
      sumY[k] = 0;
      n++;
    }
    counts[k]!++;
    sumX[k]! += SAMPLE_X[s]!;
    sumY[k]! += SAMPLE_Y[s]!;
  }
  pixel.nearest = nearest;
  return n;
}

/**
 * Shades each of the pixel's `n` gathered triangles once, at the centroid of its samples, and
 * leaves their colours (and for glass their opacities) weighted by coverage summed in
 * `pixel.rgb`; returns the coverage.
 */
function shadePixel(mesh: Mesh, triangles: RasterTriangles, px: number, py: number, n: number, pixel: PixelTriangles, shade: Shader): number {
  const { ids, counts, sumX, sumY, fragment, rgb } = pixel;
  let r = 0;
  let g = 0;
  let b = 0;
  let cov = 0;
  let taken = 0;
  for (let k = 0; k < n; k++) {
    const cnt = counts[k]!;
    interpolate(mesh, triangles, ids[k]!, px + sumX[k]! / cnt, py + sumY[k]! / cnt, fragment);
    rgb[3] = GLASS_OPACITY;
    shade(fragment, rgb);
    const w = cnt / SPP;
    r += rgb[0]! * w;
    g += rgb[1]! * w;
    b += rgb[2]! * w;
    taken += rgb[3]! * w;
    cov += w;
  }
  rgb[0] = r;
  rgb[1] = g;
  rgb[2] = b;
  rgb[3] = taken;
  return cov;
}

/** The surface point of raster triangle `t` at screen position (fx, fy), written to `f`. */
function interpolate(mesh: Mesh, triangles: RasterTriangles, t: number, fx: number, fy: number, f: Fragment): void {
  const { invDepth: iz } = triangles;
  const plane = PLANES;
  barycentricPlanes(triangles, t, plane);
  let l0 = plane.a0 * fx + plane.b0 * fy + plane.c0;
  let l1 = plane.a1 * fx + plane.b1 * fy + plane.c1;
  let l2 = 1 - l0 - l1;
  l0 = Math.max(0, l0);
  l1 = Math.max(0, l1);
  l2 = Math.max(0, l2);
  // Perspective-correct weights on the raster triangle...
  const w0 = l0 * iz[t * 3]!;
  const w1 = l1 * iz[t * 3 + 1]!;
  const w2 = l2 * iz[t * 3 + 2]!;
  const sum = w0 + w1 + w2 || 1;
  const q0 = w0 / sum;
  const q1 = w1 / sum;
  const q2 = w2 / sum;
  // ...mapped to barycentrics on its source triangle (they differ only when it was clipped).
  const B = triangles.bary;
  const o9 = t * 9;
  const k0 = q0 * B[o9]! + q1 * B[o9 + 3]! + q2 * B[o9 + 6]!;
  const k1 = q0 * B[o9 + 1]! + q1 * B[o9 + 4]! + q2 * B[o9 + 7]!;
  const k2 = q0 * B[o9 + 2]! + q1 * B[o9 + 5]! + q2 * B[o9 + 8]!;
  const s = triangles.source[t]!;
  const o = s * 9;
  const P = mesh.positions;
  const N = mesh.normals;
  const L = mesh.locals;
  f.px = k0 * P[o]! + k1 * P[o + 3]! + k2 * P[o + 6]!;
  f.py = k0 * P[o + 1]! + k1 * P[o + 4]! + k2 * P[o + 7]!;
  f.pz = k0 * P[o + 2]! + k1 * P[o + 5]! + k2 * P[o + 8]!;
  let nx = k0 * N[o]! + k1 * N[o + 3]! + k2 * N[o + 6]!;
  let ny = k0 * N[o + 1]! + k1 * N[o + 4]! + k2 * N[o + 7]!;
  let nz = k0 * N[o + 2]! + k1 * N[o + 5]! + k2 * N[o + 8]!;
  const nl = Math.hypot(nx, ny, nz) || 1;
  nx /= nl;
  ny /= nl;
  nz /= nl;
  f.nx = nx;
  f.ny = ny;
  f.nz = nz;
  f.lx = k0 * L[o]! + k1 * L[o + 3]! + k2 * L[o + 6]!;
  f.ly = k0 * L[o + 1]! + k1 * L[o + 4]! + k2 * L[o + 7]!;
  f.lz = k0 * L[o + 2]! + k1 * L[o + 5]! + k2 * L[o + 8]!;
  f.face = mesh.faces[s] ?? 1;
  f.material = mesh.materials[s] ?? 0;
}
