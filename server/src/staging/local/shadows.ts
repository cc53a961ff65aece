import type { Mesh } from './mesh.ts';
import type { Vec3 } from './vec.ts';

/**
 * Light reaching the floor around the furniture, on a grid over the floor (metres): contact
 * darkening under legs and bases, broad occlusion under large pieces, and the soft shadow cast
 * from the main light. Rugs sample it too, so shadows fall on them as on the floor.
 */
export class FloorShadow {
  readonly factor: Float32Array;
  constructor(
    readonly x0: number,
    readonly z0: number,
    readonly cell: number,
    readonly nx: number,
    readonly nz: number,
    factor: Float32Array,
  ) {
    this.factor = factor;
  }

  at(x: number, z: number): number {
    const gx = (x - this.x0) / this.cell - 0.5;
    const gz = (z - this.z0) / this.cell - 0.5;
    if (gx < 0 || gz < 0 || gx >= this.nx - 1 || gz >= this.nz - 1) return 1;
    const ix = Math.floor(gx);
    const iz = Math.floor(gz);
    const fx = gx - ix;
    const fz = gz - iz;
    const i = iz * this.nx + ix;
    const f = this.factor;
    return (
      (f[i] ?? 1) * (1 - fx) * (1 - fz) +
      (f[i + 1] ?? 1) * fx * (1 - fz) +
      (f[i + this.nx] ?? 1) * (1 - fx) * fz +
      (f[i + this.nx + 1] ?? 1) * fx * fz
    );
  }
}

function fillTriangle(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
  nx: number,
  nz: number,
  visit: (i: number) => void,
): void {
  const minX = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
  const maxX = Math.min(nx - 1, Math.ceil(Math.max(ax, bx, cx)));
  const minZ = Math.max(0, Math.floor(Math.min(az, bz, cz)));
  const maxZ = Math.min(nz - 1, Math.ceil(Math.max(az, bz, cz)));
  const area = (bx - ax) * (cz - az) - (cx - ax) * (bz - az);
  if (Math.abs(area) < 1e-9) {
    // Degenerate (a vertical face seen from above): mark its cells along the edges.
    for (const [px, pz, qx, qz] of [
      [ax, az, bx, bz],
      [bx, bz, cx, cz],
    ] as const) {
      const n = Math.ceil(Math.hypot(qx - px, qz - pz)) + 1;
      for (let k = 0; k <= n; k++) {
        const x = Math.round(px + ((qx - px) * k) / n);
        const z = Math.round(pz + ((qz - pz) * k) / n);
        if (x >= 0 && z >= 0 && x < nx && z < nz) visit(z * nx + x);
      }
    }
    return;
  }
  for (let z = minZ; z <= maxZ; z++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5;
      const pz = z + 0.5;
      const w0 = ((bx - px) * (cz - pz) - (cx - px) * (bz - pz)) / area;
      const w1 = ((cx - px) * (az - pz) - (ax - px) * (cz - pz)) / area;
      const w2 = 1 - w0 - w1;
      if (w0 >= -0.02 && w1 >= -0.02 && w2 >= -0.02) visit(z * nx + x);
    }
  }
}

function boxBlur(src: Float32Array, nx: number, nz: number, radius: number, passes = 3): Float32Array {
  const a = src.slice();
  const b = new Float32Array(a.length);
  const r = Math.max(1, Math.round(radius));
  for (let p = 0; p < passes; p++) {
    for (let z = 0; z < nz; z++) {
      let acc = 0;
      const row = z * nx;
      for (let x = -r; x <= r; x++) acc += a[row + Math.min(nx - 1, Math.max(0, x))] ?? 0;
      for (let x = 0; x < nx; x++) {
        b[row + x] = acc / (2 * r + 1);
        acc += (a[row + Math.min(nx - 1, x + r + 1)] ?? 0) - (a[row + Math.max(0, x - r)] ?? 0);
      }
    }
    for (let x = 0; x < nx; x++) {
      let acc = 0;
      for (let z = -r; z <= r; z++) acc += b[Math.min(nz - 1, Math.max(0, z)) * nx + x] ?? 0;
      for (let z = 0; z < nz; z++) {
        a[z * nx + x] = acc / (2 * r + 1);
        acc += (b[Math.min(nz - 1, z + r + 1) * nx + x] ?? 0) - (b[Math.max(0, z - r) * nx + x] ?? 0);
      }
    }
  }
  return a;
}

export function computeFloorShadow(
  mesh: Mesh,
  casts: Uint8Array,
  light: Vec3,
  castStrength: number,
  castSoftness: number,
  bounds: { x0: number; z0: number; x1: number; z1: number },
): FloorShadow {
  let cell = 0.02;
  while ((bounds.x1 - bounds.x0) / cell > 500 || (bounds.z1 - bounds.z0) / cell > 500) cell *= 1.5;
  const nx = Math.max(2, Math.ceil((bounds.x1 - bounds.x0) / cell));
  const nz = Math.max(2, Math.ceil((bounds.z1 - bounds.z0) / cell));
  const minY = new Float32Array(nx * nz).fill(10);
  const cast = new Float32Array(nx * nz);
  const P = mesh.positions;
  const ly = Math.max(0.2, light[1]);
  const gx = (x: number) => (x - bounds.x0) / cell;
  const gz = (z: number) => (z - bounds.z0) / cell;
  for (let t = 0; t < mesh.materials.length; t++) {
    if (!casts[t]) continue;
    const o = t * 9;
    const ys = [P[o + 1]!, P[o + 4]!, P[o + 7]!];
    const lowest = Math.min(...ys);
    fillTriangle(gx(P[o]!), gz(P[o + 2]!), gx(P[o + 3]!), gz(P[o + 5]!), gx(P[o + 6]!), gz(P[o + 8]!), nx, nz, (i) => {
      if (lowest < (minY[i] ?? 10)) minY[i] = lowest;
    });
    // Cast shadow: slide each vertex down the light direction onto the floor.
    const sx = (k: number) => gx(P[o + k * 3]! - (light[0] * P[o + k * 3 + 1]!) / ly);
    const sz = (k: number) => gz(P[o + k * 3 + 2]! - (light[2] * P[o + k * 3 + 1]!) / ly);
    fillTriangle(sx(0), sz(0), sx(1), sz(1), sx(2), sz(2), nx, nz, (i) => {
      cast[i] = 1;
    });
  }
  const contactSrc = new Float32Array(nx * nz);
  const occSrc = new Float32Array(nx * nz);
  const broadSrc = new Float32Array(nx * nz);
  for (let i = 0; i < nx * nz; i++) {
    const y = minY[i] ?? 10;
    contactSrc[i] = y < 0.06 ? 1 : 0;
    occSrc[i] = Math.exp(-y / 0.3);
    broadSrc[i] = y < 1.2 ? 1 : 0;
  }
  // Three scales: legs and plinths pressing on the floor, the dark under a piece, and the
  // broad dimming a large piece gives the floor around it.
  const contact = boxBlur(contactSrc, nx, nz, 0.025 / cell);
  const occ = boxBlur(occSrc, nx, nz, 0.14 / cell);
  const broad = boxBlur(broadSrc, nx, nz, 0.4 / cell);
  const soft = boxBlur(cast, nx, nz, castSoftness / cell);
  const factor = new Float32Array(nx * nz);
  for (let i = 0; i < nx * nz; i++) {
    factor[i] =
      (1 - 0.7 * (contact[i] ?? 0)) * (1 - 0.55 * (occ[i] ?? 0)) * (1 - 0.22 * (broad[i] ?? 0)) * (1 - castStrength * (soft[i] ?? 0));
  }
  return new FloorShadow(bounds.x0, bounds.z0, cell, nx, nz, factor);
}
