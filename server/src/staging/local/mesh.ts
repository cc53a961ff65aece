import { cross, normalize, sub, type Vec3 } from './vec.ts';

/**
 * A float32 array that grows by doubling. A scene is built from about a hundred thousand
 * vertices, and pushing them onto plain arrays cost a fifth of a second per staging.
 */
class Floats {
  data = new Float32Array(3 * 1024);
  length = 0;

  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) {
      const grown = new Float32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    d[this.length] = a;
    d[this.length + 1] = b;
    d[this.length + 2] = c;
    this.length += 3;
  }

  /** The values pushed, in an array of their own. */
  copy(): Float32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Triangle soup with smooth normals, piece-local coordinates (for procedural textures, so wood
 * grain follows the piece) and a material index per triangle.
 */
export class MeshBuilder {
  private readonly positions = new Floats();
  private readonly normals = new Floats();
  private readonly locals = new Floats();
  private materials = new Uint16Array(1024);
  private triangles = 0;
  /** Current piece transform: yaw about Y then translation (metres). */
  private cos = 1;
  private sin = 0;
  private tx = 0;
  private tz = 0;
  private ty = 0;
  /**
   * The piece axis texture X follows while a part is built (0 X, 1 Y, 2 Z): wood's fibres run
   * along texture X (materials.ts), so a leg or a post takes the vertical and a rail running
   * front to back takes Z; otherwise its grain would run across it in stripes.
   */
  private grain: 0 | 1 | 2 = 0;
  /**
   * Materials (indices) whose boxes and rods are textured along their length: wood. Others keep
   * the piece's axes there (a rug's pattern, a canvas); turned parts follow `lathe`'s own rule.
   */
  readonly grained = new Set<number>();

  /** Places what follows: yaw about Y, then translation (ty lifts wall art to its hanging height). */
  setTransform(x: number, z: number, yaw: number, ty = 0): void {
    this.cos = Math.cos(yaw);
    this.sin = Math.sin(yaw);
    this.tx = x;
    this.tz = z;
    this.ty = ty;
  }

  get triangleCount(): number {
    return this.triangles;
  }

  private vertex(p: Vec3, n: Vec3, texture?: Vec3): void {
    const { cos, sin } = this;
    this.positions.push3(cos * p[0] + sin * p[2] + this.tx, p[1] + this.ty, -sin * p[0] + cos * p[2] + this.tz);
    this.normals.push3(cos * n[0] + sin * n[2], n[1], -sin * n[0] + cos * n[2]);
    if (texture) this.locals.push3(texture[0], texture[1], texture[2]);
    else if (this.grain === 1) this.locals.push3(p[1], p[0], p[2]);
    else if (this.grain === 2) this.locals.push3(p[2], p[1], p[0]);
    else this.locals.push3(p[0], p[1], p[2]);
  }

  /** `texture` replaces the piece-local coordinates the material is sampled at (a leaf's own frame). */
  triangle(a: Vec3, b: Vec3, c: Vec3, na: Vec3, nb: Vec3, nc: Vec3, material: number, texture?: readonly [Vec3, Vec3, Vec3]): void {
    this.vertex(a, na, texture?.[0]);
    this.vertex(b, nb, texture?.[1]);
    this.vertex(c, nc, texture?.[2]);
    if (this.triangles === this.materials.length) {
      const grown = new Uint16Array(2 * this.materials.length);
      grown.set(this.materials);
      this.materials = grown;
    }
    this.materials[this.triangles++] = material;
  }

  quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3, n: Vec3, material: number): void {
    this.triangle(a, b, c, n, n, n, material);
    this.triangle(a, c, d, n, n, n, material);
  }

  /**
   * A box with rounded edges (radius r), centred at c with half sizes h: a subdivided cube whose
   * vertices are pushed out from the inner box, which gives correct normals on the rounds.
   * `puffs` stuff faces (cushions, mattresses): a face's middle rises and its normals follow the
   * rise, so it is shaded as a crowned cushion, not as a flat board with a bump outline.
   */
  roundedBox(c: Vec3, h: Vec3, r: number, material: number, ...puffs: Puff[]): void {
    this.grain = this.grained.has(material) ? longest(h) : 0;
    const rr = Math.max(0, Math.min(r, h[0] * 0.999, h[1] * 0.999, h[2] * 0.999));
    // Each puffed face and its two other axes: X (along every cushion's width) and the one left.
    const hem = Math.max(0, ...puffs.map((puff) => puff.hem ?? 0));
    const rumple = Math.max(0, ...puffs.map((puff) => puff.rumple ?? 0));
    const faces = puffs.map((puff) => {
      const up = puff.face ?? 1;
      const va: 1 | 2 = up === 1 ? 2 : 1;
      return { puff, up, va };
    });
    const axisCoords = (k: number): number[] => {
      const hh = h[k] ?? 0;
      if (rr < 1e-4) return [-hh, hh];
      // A puffed face is tessellated every few centimetres, so its rise and shading are smooth.
      const flat = 2 * (hh - rr);
      const along = faces.filter((f) => k === 0 || k === f.va);
      const step = along.some((f) => f.puff.tufted) ? TUFT_STEP : PUFF_STEP;
      const steps = along.length ? Math.max(1, Math.ceil(flat / step)) : 1;
      const mid = Array.from({ length: steps + 1 }, (_, i) => -hh + rr + (flat * i) / steps);
      return [-hh, -hh + 0.3 * rr, ...mid, hh - 0.3 * rr, hh];
    };
    const cs: number[][] = [axisCoords(0), axisCoords(1), axisCoords(2)];
    // A face's rise at (u, v): a crown, less a dent where someone sat; zero at the face's rim.
    const rise = (puff: Puff, va: 1 | 2, u: number, v: number): number => {
      const fu = Math.max(0, 1 - (u / h[0]) ** 2);
      const fv = Math.max(0, 1 - (v / h[va]) ** 2);
      let z = puff.crown;
      if (puff.tufted) z -= TUFT_DEPTH * (1 - tuftPillow(u, v));
      if (puff.rumple) z += puff.rumple * wrinkle(u + c[0], v + c[va]);
      if (puff.dent) {
        const [du, dv, depth, radius] = puff.dent;
        const eu = (u / h[0] - du) / radius;
        const ev = (v / h[va] - dv) / radius;
        z -= depth * Math.exp(-(eu * eu + ev * ev));
      }
      return z * fu * fv;
    };
    const shape = (p: Vec3, face: Vec3): { pos: Vec3; n: Vec3 } => {
      const inner: Vec3 = [0, 0, 0];
      for (let k = 0; k < 3; k++) {
        const lim = (h[k] ?? 0) - rr;
        inner[k] = Math.max(-lim, Math.min(lim, p[k] ?? 0));
      }
      const d: Vec3 = [p[0] - inner[0], p[1] - inner[1], p[2] - inner[2]];
      const len = Math.hypot(d[0], d[1], d[2]);
      let n = len > 1e-9 ? normalize(d) : face;
      const pos: Vec3 = rr < 1e-4 ? [...p] : [inner[0] + n[0] * rr, inner[1] + n[1] * rr, inner[2] + n[2] * rr];
      const base: Vec3 = [pos[0], pos[1], pos[2]];
      const tilted: Vec3 = [n[0], n[1], n[2]];
      for (const { puff, up, va } of faces) {
        const w = n[up];
        if (w <= 0) continue;
        const u = base[0];
        const v = base[va];
        const e = 0.002;
        const du = (rise(puff, va, u + e, v) - rise(puff, va, u - e, v)) / (2 * e);
        const dv = (rise(puff, va, u, v + e) - rise(puff, va, u, v - e)) / (2 * e);
        pos[up] += rise(puff, va, u, v) * w;
        tilted[0] -= du * w;
        tilted[va] -= dv * w;
      }
      // A hanging side bellies out in folds along its edge, from nothing at the top's round to the full depth at the hem.
      const side = Math.hypot(n[0], n[2]);
      if (rumple > 0 && side > 0.5) {
        const hang = Math.min(1, Math.max(0, (h[1] - rr - base[1]) / Math.max(1e-6, 2 * (h[1] - rr))));
        const acrossX = Math.abs(n[0]) > Math.abs(n[2]);
        const along = (acrossX ? base[2] : base[0]) + (acrossX ? c[2] : c[0]);
        const e = 0.002;
        const out = rumple * hang * sideFold(along);
        const slope = (rumple * hang * (sideFold(along + e) - sideFold(along - e))) / (2 * e);
        pos[0] += (n[0] / side) * out;
        pos[2] += (n[2] / side) * out;
        tilted[acrossX ? 2 : 0] -= slope * side;
      }
      if (faces.length) n = normalize(tilted);
      // The lower rounded edge hangs lower in waves: fully at the bottom, fading out up the round.
      const low = rr > 1e-4 ? Math.min(1, Math.max(0, (-h[1] + rr - p[1]!) / rr)) : 0;
      if (hem > 0 && low > 0) pos[1] -= hem * low * hemWave(pos[0], pos[2]);
      return { pos: [pos[0] + c[0], pos[1] + c[1], pos[2] + c[2]], n };
    };
    // Each face: axis k fixed at +-h, grid over the two other axes.
    for (let k = 0; k < 3; k++) {
      const a = (k + 1) % 3;
      const b = (k + 2) % 3;
      for (const sgn of [-1, 1]) {
        const face: Vec3 = [0, 0, 0];
        face[k] = sgn;
        const ca = cs[a] ?? [];
        const cb = cs[b] ?? [];
        // Each grid point is shaped once; four quads share it.
        const grid = ca.flatMap((ua) =>
          cb.map((ub) => {
            const p: Vec3 = [0, 0, 0];
            p[k] = sgn * (h[k] ?? 0);
            p[a] = ua;
            p[b] = ub;
            return shape(p, face);
          }),
        );
        const corner = (ii: number, jj: number) => grid[ii * cb.length + jj]!;
        for (let i = 0; i + 1 < ca.length; i++) {
          for (let j = 0; j + 1 < cb.length; j++) {
            const v00 = corner(i, j);
            const v10 = corner(i + 1, j);
            const v11 = corner(i + 1, j + 1);
            const v01 = corner(i, j + 1);
            this.triangle(v00.pos, v10.pos, v11.pos, v00.n, v10.n, v11.n, material);
            this.triangle(v00.pos, v11.pos, v01.pos, v00.n, v11.n, v01.n, material);
          }
        }
      }
    }
    // A covered button at each tuft, sunk in its hollow, where the face is well inside its rim.
    for (const { puff, up, va } of faces) {
      if (!puff.tufted) continue;
      for (const [u, v] of tuftButtons(h[0] - rr, h[va] - rr)) {
        const p: Vec3 = [0, 0, 0];
        const out: Vec3 = [0, 0, 0];
        p[up] = h[up];
        out[up] = 1;
        p[0] = u;
        p[va] = v;
        const at = shape(p, out).pos;
        const rad: Vec3 = [TUFT_BUTTON, TUFT_BUTTON, TUFT_BUTTON];
        rad[up] = TUFT_BUTTON * 0.5;
        this.ellipsoid(at, rad, material, 3, 6);
      }
    }
    // Piping along a welted face's seam, half way round its rounded edges (45 degrees from the
    // face) and round its corners as quarter circles at that height; each point goes through
    // `shape`, so the cord follows the face's rise. `shape` only reads a point's offset from the
    // inner box, so a point that offset from the box's inner edge or corner stands for it.
    const slant = rr * Math.SQRT1_2;
    for (const { puff, up, va } of faces) {
      if (!puff.welt || rr < 1e-4) continue;
      const lu = h[0] - rr;
      const lv = h[va] - rr;
      const seam = (cu: number, cv: number, theta: number): Vec3 => {
        const p: Vec3 = [0, 0, 0];
        p[up] = h[up] - rr + slant;
        p[0] = cu + slant * Math.cos(theta);
        p[va] = cv + slant * Math.sin(theta);
        return p;
      };
      const corners: Array<[number, number]> = [
        [lu, lv],
        [-lu, lv],
        [-lu, -lv],
        [lu, -lv],
      ];
      const loop: Array<{ pos: Vec3; n: Vec3 }> = [];
      for (let q = 0; q < 4; q++) {
        const [cu, cv] = corners[q]!;
        for (let k = 0; k < WELT_ARC; k++) loop.push(shape(seam(cu, cv, ((q + k / WELT_ARC) * Math.PI) / 2), [0, 0, 0]));
        // The straight run to the next corner.
        const [nu, nv] = corners[(q + 1) % 4]!;
        const a = seam(cu, cv, ((q + 1) * Math.PI) / 2);
        const b = seam(nu, nv, ((q + 1) * Math.PI) / 2);
        const steps = Math.ceil(Math.hypot(b[0] - a[0], b[va] - a[va]) / WELT_STEP);
        for (let i = 0; i < steps; i++) {
          const t = i / steps;
          loop.push(shape([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t], [0, 0, 0]));
        }
      }
      this.tube(loop, WELT_RADIUS, material);
    }
    this.grain = 0;
  }

  /** A closed tube of round section along a loop of surface points, standing on the surface (`n` its normal there). */
  private tube(loop: Array<{ pos: Vec3; n: Vec3 }>, radius: number, material: number): void {
    const sides = 6;
    const rings = loop.map((q, i) => {
      const prev = loop[(i + loop.length - 1) % loop.length]!.pos;
      const next = loop[(i + 1) % loop.length]!.pos;
      const t = normalize([next[0] - prev[0], next[1] - prev[1], next[2] - prev[2]]);
      const b = normalize(cross(t, q.n));
      const n = cross(b, t);
      return Array.from({ length: sides }, (_, k) => {
        const a = (k / sides) * 2 * Math.PI;
        const dir: Vec3 = [n[0] * Math.cos(a) + b[0] * Math.sin(a), n[1] * Math.cos(a) + b[1] * Math.sin(a), n[2] * Math.cos(a) + b[2] * Math.sin(a)];
        return { pos: [q.pos[0] + dir[0] * radius, q.pos[1] + dir[1] * radius, q.pos[2] + dir[2] * radius] as Vec3, n: dir };
      });
    });
    for (let i = 0; i < rings.length; i++) {
      const r0 = rings[i]!;
      const r1 = rings[(i + 1) % rings.length]!;
      for (let k = 0; k < sides; k++) {
        const a = r0[k]!;
        const b = r0[(k + 1) % sides]!;
        const c = r1[(k + 1) % sides]!;
        const d = r1[k]!;
        this.triangle(a.pos, b.pos, c.pos, a.n, b.n, c.n, material);
        this.triangle(a.pos, c.pos, d.pos, a.n, c.n, d.n, material);
      }
    }
  }

  box(c: Vec3, h: Vec3, material: number): void {
    this.roundedBox(c, h, 0, material);
  }

  /**
   * A surface of revolution about the vertical axis through (x, z): profile points are
   * (radius, height) from bottom to top. Caps close the ends when their radius is non-zero.
   */
  lathe(x: number, z: number, profile: Array<[number, number]>, segments: number, material: number, caps = true): void {
    const ys = profile.map((p) => p[1]);
    this.grain = Math.max(...ys) - Math.min(...ys) > 2 * Math.max(...profile.map((p) => p[0])) ? 1 : 0;
    this.turned(x, z, profile, segments, material, caps);
    this.grain = 0;
  }

  private turned(x: number, z: number, profile: Array<[number, number]>, segments: number, material: number, caps: boolean): void {
    const ring = (k: number) => {
      const t = (k / segments) * Math.PI * 2;
      return [Math.cos(t), Math.sin(t)] as const;
    };
    for (let i = 0; i + 1 < profile.length; i++) {
      const [r0, y0] = profile[i]!;
      const [r1, y1] = profile[i + 1]!;
      const dr = r1 - r0;
      const dy = y1 - y0;
      const len = Math.hypot(dr, dy) || 1;
      // Outward normal of the profile segment: (dy, -dr) in (radial, vertical).
      const nr = dy / len;
      const ny = -dr / len;
      for (let k = 0; k < segments; k++) {
        const [c0, s0] = ring(k);
        const [c1, s1] = ring(k + 1);
        const p00: Vec3 = [x + c0 * r0, y0, z + s0 * r0];
        const p10: Vec3 = [x + c1 * r0, y0, z + s1 * r0];
        const p01: Vec3 = [x + c0 * r1, y1, z + s0 * r1];
        const p11: Vec3 = [x + c1 * r1, y1, z + s1 * r1];
        const n0: Vec3 = [c0 * nr, ny, s0 * nr];
        const n1: Vec3 = [c1 * nr, ny, s1 * nr];
        this.triangle(p00, p10, p11, n0, n1, n1, material);
        this.triangle(p00, p11, p01, n0, n1, n0, material);
      }
    }
    if (!caps) return;
    const first = profile[0];
    const last = profile[profile.length - 1];
    for (const [end, up] of [
      [first, -1],
      [last, 1],
    ] as const) {
      if (!end || end[0] < 1e-4) continue;
      const [r, y] = end;
      const n: Vec3 = [0, up, 0];
      for (let k = 0; k < segments; k++) {
        const [c0, s0] = ring(k);
        const [c1, s1] = ring(k + 1);
        this.triangle([x, y, z], [x + c0 * r, y, z + s0 * r], [x + c1 * r, y, z + s1 * r], n, n, n, material);
      }
    }
  }

  /**
   * A surface turned about the vertical axis through (x, z) whose section may change as it turns
   * (pleats, folds): `shape(angle, t)` gives the radius and height at `angle` round the axis and
   * `t` from 0 (its lower rim) to 1 (its upper one). Normals come from the surface itself.
   */
  revolve(x: number, z: number, shape: (angle: number, t: number) => [number, number], rings: number, segments: number, material: number): void {
    const point = (a: number, t: number): Vec3 => {
      const [r, y] = shape(a, t);
      return [x + Math.cos(a) * r, y, z + Math.sin(a) * r];
    };
    // From the surface's own tangents, taken just inside the rims: a rim may close to the axis.
    const e = 1e-3;
    const normal = (a: number, t: number): Vec3 => {
      const tt = Math.min(1 - e, Math.max(e, t));
      return normalize(cross(sub(point(a, tt + e), point(a, tt - e)), sub(point(a + e, tt), point(a - e, tt))));
    };
    const angle = (k: number) => (k / segments) * 2 * Math.PI;
    const grid = Array.from({ length: rings + 1 }, (_, i) => Array.from({ length: segments + 1 }, (_, k) => ({ p: point(angle(k), i / rings), n: normal(angle(k), i / rings) })));
    for (let i = 0; i < rings; i++) {
      for (let k = 0; k < segments; k++) {
        const [a, b, c, d] = [grid[i]![k]!, grid[i]![k + 1]!, grid[i + 1]![k + 1]!, grid[i + 1]![k]!];
        this.triangle(a.p, b.p, c.p, a.n, b.n, c.n, material);
        this.triangle(a.p, c.p, d.p, a.n, c.n, d.n, material);
      }
    }
  }

  cylinder(x: number, z: number, r: number, y0: number, y1: number, material: number, segments = 12, rTop = r): void {
    this.lathe(x, z, [[r, y0], [rTop, y1]], segments, material);
  }

  /**
   * An upholstered panel: the outline (z, y), a star-shaped polygon seen from its middle, made
   * `2 r` thick across X about `x`, its rim fully rounded (a half round of radius r all round),
   * so it reads as padded cloth, not as a board; its corners are cut twice (Chaikin), so the
   * outline curves. `welt` pipes the rim along its crest. Wings of a wingback chair.
   */
  panel(x: number, corners: Array<[number, number]>, r: number, material: number, welt = false): void {
    const outline = cutCorners(corners, 2, true);
    const n = outline.length;
    const cz = outline.reduce((s, p) => s + p[0], 0) / n;
    const cy = outline.reduce((s, p) => s + p[1], 0) / n;
    const normals = outwardNormals(outline);
    const steps = 6;
    // Ring k of the rim at angle -90..90 degrees: x = x + r sin(t); the outline pushed out by r cos(t).
    const ring = (i: number, k: number): { pos: Vec3; n: Vec3 } => {
      const t = (k / steps - 0.5) * Math.PI;
      const [nz, ny] = normals[i]!;
      const [pz, py] = outline[i]!;
      const c = Math.cos(t);
      return { pos: [x + r * Math.sin(t), py - ny * r + ny * r * c, pz - nz * r + nz * r * c], n: [Math.sin(t), ny * c, nz * c] };
    };
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      this.rim(ring, i, j, steps, material);
      // The two flat faces, fans from the middle of the inset outline.
      for (const side of [-1, 1]) {
        const k = side < 0 ? 0 : steps;
        const a = ring(i, k).pos;
        const b = ring(j, k).pos;
        const f: Vec3 = [side, 0, 0];
        this.triangle([x + side * r, cy, cz], a, b, f, f, f, material);
      }
    }
    if (welt) this.tube(outline.map((_, i) => ring(i, steps / 2)), WELT_RADIUS, material);
  }

  /**
   * An upholstered arm: the outline (x, y) of its front, corners cut twice (Chaikin), run back
   * along Z from `z1` to `z0`; its front edge rounded over `r` and piped half way round, as a
   * scroll arm's front panel is. The front is a fan from `hub`, a point that sees the whole
   * outline (a roll curling over the side is not seen from the outline's middle). The back end
   * is closed flat (it stands in the chair's back).
   */
  scrollArm(corners: Array<[number, number]>, hub: [number, number], z0: number, z1: number, r: number, material: number): void {
    const outline = cutCorners(corners, 2, true);
    const n = outline.length;
    const normals = outwardNormals(outline);
    const steps = 4;
    // Ring k of the front edge at angle 0..90 degrees from the side: the outline pulled in by r (1 - cos t), brought forward by r sin(t).
    const ring = (i: number, k: number): { pos: Vec3; n: Vec3 } => {
      const t = (k / steps) * (Math.PI / 2);
      const [nx, ny] = normals[i]!;
      const [px, py] = outline[i]!;
      const c = Math.cos(t);
      const inset = r * (1 - c);
      return { pos: [px - nx * inset, py - ny * inset, z1 - r + r * Math.sin(t)], n: [nx * c, ny * c, Math.sin(t)] };
    };
    const front: Vec3 = [0, 0, 1];
    const back: Vec3 = [0, 0, -1];
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const [ax, ay] = outline[i]!;
      const [bx, by] = outline[j]!;
      const na: Vec3 = [normals[i]![0], normals[i]![1], 0];
      const nb: Vec3 = [normals[j]![0], normals[j]![1], 0];
      this.triangle([ax, ay, z0], [bx, by, z0], [bx, by, z1 - r], na, nb, nb, material);
      this.triangle([ax, ay, z0], [bx, by, z1 - r], [ax, ay, z1 - r], na, nb, na, material);
      this.rim(ring, i, j, steps, material);
      this.triangle([hub[0], hub[1], z1], ring(i, steps).pos, ring(j, steps).pos, front, front, front, material);
      this.triangle([hub[0], hub[1], z0], [bx, by, z0], [ax, ay, z0], back, back, back, material);
    }
    this.tube(outline.map((_, i) => ring(i, steps / 2)), WELT_RADIUS, material);
  }

  /** The band of a rounded rim between outline points i and j: `steps` quads across, ring k's points given by `ring(point, k)`. */
  private rim(ring: (i: number, k: number) => { pos: Vec3; n: Vec3 }, i: number, j: number, steps: number, material: number): void {
    for (let k = 0; k < steps; k++) {
      const a = ring(i, k);
      const b = ring(j, k);
      const c = ring(j, k + 1);
      const d = ring(i, k + 1);
      this.triangle(a.pos, b.pos, c.pos, a.n, b.n, c.n, material);
      this.triangle(a.pos, c.pos, d.pos, a.n, c.n, d.n, material);
    }
  }

  /** An ellipsoid (leaves, bulbs, pillows seen from afar). */
  ellipsoid(c: Vec3, rad: Vec3, material: number, rings = 6, segments = 10): void {
    for (let i = 0; i < rings; i++) {
      const t0 = (i / rings) * Math.PI - Math.PI / 2;
      const t1 = ((i + 1) / rings) * Math.PI - Math.PI / 2;
      for (let k = 0; k < segments; k++) {
        const p0 = (k / segments) * Math.PI * 2;
        const p1 = ((k + 1) / segments) * Math.PI * 2;
        const at = (t: number, p: number): { pos: Vec3; n: Vec3 } => {
          const u: Vec3 = [Math.cos(t) * Math.cos(p), Math.sin(t), Math.cos(t) * Math.sin(p)];
          return {
            pos: [c[0] + u[0] * rad[0], c[1] + u[1] * rad[1], c[2] + u[2] * rad[2]],
            n: normalize([u[0] / rad[0], u[1] / rad[1], u[2] / rad[2]]),
          };
        };
        const a = at(t0, p0);
        const b = at(t0, p1);
        const cc = at(t1, p1);
        const d = at(t1, p0);
        this.triangle(a.pos, b.pos, cc.pos, a.n, b.n, cc.n, material);
        this.triangle(a.pos, cc.pos, d.pos, a.n, cc.n, d.n, material);
      }
    }
  }

  /**
   * A throw pillow centred at c, `hw` x `hh` half size and `thick` thick at its middle, leaning
   * back (towards -Z) by `lean` radians, its top chopped by `chop` (0..1): two faces puffed
   * towards the middle and pinched to a seam at the edges, the sides drawn in a little as a
   * stuffed cover's are.
   */
  pillow(c: Vec3, hw: number, hh: number, thick: number, lean: number, material: number, chop = 0): void {
    const n = 10;
    const cl = Math.cos(lean);
    const sl = Math.sin(lean);
    const at = (u: number, v: number, side: number): Vec3 => {
      // The chop a stager gives a pillow: its top's middle pressed down and thinner, its corners left as ears.
      const press = chop * (1 - u * u) ** 2 * Math.max(0, v) ** 2;
      const x = hw * u * (1 - 0.07 * (1 - v * v));
      const y = hh * v * (1 - 0.07 * (1 - u * u)) - hh * 0.22 * press;
      const z = side * (thick / 2) * Math.pow(Math.max(0, (1 - u * u) * (1 - v * v)), 0.45) * (1 - 0.35 * press);
      return [c[0] + x, c[1] + y * cl + z * sl, c[2] - y * sl + z * cl];
    };
    const normal = (u: number, v: number, side: number): Vec3 => {
      const e = 1e-3;
      // Inside the rim, where the surface is smooth, from its tangents; at the seam, outwards.
      const uu = Math.max(-1 + 2 * e, Math.min(1 - 2 * e, u));
      const vv = Math.max(-1 + 2 * e, Math.min(1 - 2 * e, v));
      const p = at(uu, vv, side);
      const pu = at(uu + e, vv, side);
      const pv = at(uu, vv + e, side);
      const tu: Vec3 = [pu[0] - p[0], pu[1] - p[1], pu[2] - p[2]];
      const tv: Vec3 = [pv[0] - p[0], pv[1] - p[1], pv[2] - p[2]];
      const nn: Vec3 = [tu[1] * tv[2] - tu[2] * tv[1], tu[2] * tv[0] - tu[0] * tv[2], tu[0] * tv[1] - tu[1] * tv[0]];
      return normalize([nn[0] * side, nn[1] * side, nn[2] * side]);
    };
    for (const side of [1, -1]) {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const u0 = -1 + (2 * i) / n;
          const u1 = -1 + (2 * (i + 1)) / n;
          const v0 = -1 + (2 * j) / n;
          const v1 = -1 + (2 * (j + 1)) / n;
          const a = at(u0, v0, side);
          const b = at(u1, v0, side);
          const cc = at(u1, v1, side);
          const d = at(u0, v1, side);
          const [na, nb, nc, nd] = [normal(u0, v0, side), normal(u1, v0, side), normal(u1, v1, side), normal(u0, v1, side)];
          if (side > 0) {
            this.triangle(a, b, cc, na, nb, nc, material);
            this.triangle(a, cc, d, na, nc, nd, material);
          } else {
            this.triangle(a, cc, b, na, nc, nb, material);
            this.triangle(a, d, cc, na, nd, nc, material);
          }
        }
      }
    }
  }

  /**
   * A sling of leather or canvas hung across a frame from x0 to x1: a sheet `thick` thick whose
   * cross-section follows `profile` ((z, y) points, its corners rounded off), and
   * which sags by `sag` in its middle away from the side it is sat on (on the left of the
   * profile's direction: a seat drawn front to back is sat on from above). Hung cloth or hide is
   * never a flat plane: shallow folds run across it, between the rails that pull it taut, dying
   * out towards them; they catch the light along their crests and leave a shade in each trough.
   */
  sling(x0: number, x1: number, profile: Array<[number, number]>, thick: number, sag: number, material: number): void {
    const line = cutCorners(profile, 3, false);
    const m = line.length;
    // The sat-on side at each point of the curve: its tangent turned a quarter.
    const up = line.map((_, i) => {
      const a = line[Math.max(0, i - 1)]!;
      const b = line[Math.min(m - 1, i + 1)]!;
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      return [(b[1] - a[1]) / len, -(b[0] - a[0]) / len] as const;
    });
    // Distance along the curve, where the folds are laid out.
    const along = [0];
    for (let i = 1; i < m; i++) along.push(along[i - 1]! + Math.hypot(line[i]![0] - line[i - 1]![0], line[i]![1] - line[i - 1]![1]));
    const cols = 16;
    const across = (k: number) => -1 + (2 * k) / cols;
    // Two fold trains of unequal wavelength, one a little skewed, so the folds neither repeat nor run square.
    const fold = (i: number, k: number) => {
      const t = along[i]!;
      const s = across(k);
      const wave = 0.6 * Math.sin((2 * Math.PI * t) / SLING_FOLD + 1.3) + 0.4 * Math.sin((2 * Math.PI * (t + 0.03 * s)) / (0.61 * SLING_FOLD) + 0.4);
      return SLING_FOLD_DEPTH * wave * (1 - s * s);
    };
    const grid = (side: number): Vec3[][] =>
      line.map((p, i) =>
        Array.from({ length: cols + 1 }, (_, k) => {
          const s = across(k);
          const off = (side * thick) / 2 - sag * (1 - s * s) + fold(i, k);
          return [x0 + ((x1 - x0) * k) / cols, p[1] + up[i]![1] * off, p[0] + up[i]![0] * off];
        }),
      );
    const faces = { [1]: grid(1), [-1]: grid(-1) };
    for (const side of [1, -1] as const) {
      const at = faces[side];
      // Normals from the folded sheet itself, turned to the side being drawn.
      const normals = at.map((row, i) =>
        row.map((_, k) => {
          const di = sub(at[Math.min(m - 1, i + 1)]![k]!, at[Math.max(0, i - 1)]![k]!);
          const dk = sub(row[Math.min(cols, k + 1)]!, row[Math.max(0, k - 1)]!);
          const n = normalize(cross(dk, di));
          return side * (n[1] * up[i]![1] + n[2] * up[i]![0]) < 0 ? ([-n[0], -n[1], -n[2]] as Vec3) : n;
        }),
      );
      for (let i = 0; i + 1 < m; i++) {
        for (let k = 0; k < cols; k++) {
          this.triangle(at[i]![k]!, at[i]![k + 1]!, at[i + 1]![k + 1]!, normals[i]![k]!, normals[i]![k + 1]!, normals[i + 1]![k + 1]!, material);
          this.triangle(at[i]![k]!, at[i + 1]![k + 1]!, at[i + 1]![k]!, normals[i]![k]!, normals[i + 1]![k + 1]!, normals[i + 1]![k]!, material);
        }
      }
    }
    // The cut edges along each side of the sheet.
    const [top, bottom] = [faces[1], faces[-1]];
    for (const [k, nx] of [
      [0, -1],
      [cols, 1],
    ] as const) {
      for (let i = 0; i + 1 < m; i++) this.quad(top[i]![k]!, top[i + 1]![k]!, bottom[i + 1]![k]!, bottom[i]![k]!, [nx, 0, 0], material);
    }
  }

  /**
   * A thin slanted leg or rod between two points: square in section, or `round` (a metal tube,
   * which a flat face would show as a flat band of colour where a tube shows a highlight
   * running along it).
   */
  rod(a: Vec3, b: Vec3, half: number, material: number, round = false): void {
    const d = normalize([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
    const ref: Vec3 = Math.abs(d[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    const u = normalize([d[1] * ref[2] - d[2] * ref[1], d[2] * ref[0] - d[0] * ref[2], d[0] * ref[1] - d[1] * ref[0]]);
    const v: Vec3 = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]];
    this.grain = this.grained.has(material) ? longest([Math.abs(d[0]), Math.abs(d[1]), Math.abs(d[2])]) : 0;
    const off = (p: Vec3, su: number, sv: number): Vec3 => [
      p[0] + (u[0] * su + v[0] * sv) * half,
      p[1] + (u[1] * su + v[1] * sv) * half,
      p[2] + (u[2] * su + v[2] * sv) * half,
    ];
    if (round) {
      const ring = (k: number): [number, number] => [Math.cos((2 * Math.PI * (k % TUBE_SIDES)) / TUBE_SIDES), Math.sin((2 * Math.PI * (k % TUBE_SIDES)) / TUBE_SIDES)];
      const radial = ([su, sv]: [number, number]): Vec3 => [u[0] * su + v[0] * sv, u[1] * su + v[1] * sv, u[2] * su + v[2] * sv];
      for (let k = 0; k < TUBE_SIDES; k++) {
        const p = ring(k);
        const q = ring(k + 1);
        const [np, nq] = [radial(p), radial(q)];
        this.triangle(off(a, ...p), off(a, ...q), off(b, ...q), np, nq, nq, material);
        this.triangle(off(a, ...p), off(b, ...q), off(b, ...p), np, nq, np, material);
      }
      this.grain = 0;
      return;
    }
    const corners: Array<[number, number]> = [
      [1, 1],
      [-1, 1],
      [-1, -1],
      [1, -1],
    ];
    for (let k = 0; k < 4; k++) {
      const [su0, sv0] = corners[k]!;
      const [su1, sv1] = corners[(k + 1) % 4]!;
      const n = normalize([
        u[0] * (su0 + su1) + v[0] * (sv0 + sv1),
        u[1] * (su0 + su1) + v[1] * (sv0 + sv1),
        u[2] * (su0 + su1) + v[2] * (sv0 + sv1),
      ]);
      this.quad(off(a, su0, sv0), off(a, su1, sv1), off(b, su1, sv1), off(b, su0, sv0), n, material);
    }
    this.grain = 0;
  }

  build(): Mesh {
    const locals = this.locals.copy();
    const faces = new Uint8Array(this.triangles);
    for (let t = 0; t < faces.length; t++) {
      // The triangle's normal in texture space; only its largest axis counts, so not its sign.
      const o = t * 9;
      const ax = locals[o + 3]! - locals[o]!;
      const ay = locals[o + 4]! - locals[o + 1]!;
      const az = locals[o + 5]! - locals[o + 2]!;
      const bx = locals[o + 6]! - locals[o]!;
      const by = locals[o + 7]! - locals[o + 1]!;
      const bz = locals[o + 8]! - locals[o + 2]!;
      const nx = Math.abs(ay * bz - az * by);
      const ny = Math.abs(az * bx - ax * bz);
      const nz = Math.abs(ax * by - ay * bx);
      faces[t] = ny >= nx && ny >= nz ? 1 : nz >= nx ? 2 : 0;
    }
    return {
      positions: this.positions.copy(),
      normals: this.normals.copy(),
      locals,
      materials: this.materials.slice(0, this.triangles),
      faces,
    };
  }
}

/** How a cushion's face is stuffed (MeshBuilder.roundedBox). */
export interface Puff {
  /** How far the face's middle rises (metres). */
  crown: number;
  /** The face puffed: 1 the top (a seat, a mattress), 2 the front (a back cushion). */
  face?: 1 | 2;
  /** A hollow where someone sat: its centre across the face (fractions of the half sizes, -1..1), depth (metres) and radius (fraction). */
  dent?: [number, number, number, number];
  /** Piping (a welt) along the face's seam, as on a tailored cushion. */
  welt?: boolean;
  /** Buttoned in a diamond lattice, each diamond a pillow between creases running button to button (a tufted back). */
  tufted?: boolean;
  /**
   * Cloth hanging over the box's sides (a duvet): its lower rim falls up to this much further
   * (metres) in soft waves along the edge, so the hem is not a ruled line.
   */
  hem?: number;
  /**
   * Loose cloth (a duvet, a throw): soft wrinkles this deep (metres) across the face, and folds
   * down the sides it hangs over, deepening towards the hem. The wrinkles follow the piece's own
   * coordinates, so two layers of cloth with the same depth ripple together.
   */
  rumple?: number;
}

/** Soft wrinkles of loose cloth at a point of the piece (-1..1): broad, uneven swells crossed by a few longer creases. */
function wrinkle(x: number, z: number): number {
  const swell = Math.sin(7.3 * x + 2.1 * Math.sin(3.1 * z + 0.5)) * Math.cos(5.7 * z + 1.2 * Math.sin(2.3 * x));
  const crease = Math.sin(11 * x - 8.5 * z + 1.3) * Math.cos(3.7 * x + 4.1 * z);
  return 0.65 * swell + 0.35 * crease;
}

/** How far a hanging side bellies out (-1..1) at a point along its edge: folds 15-30 cm apart. */
function sideFold(along: number): number {
  return 0.6 * Math.sin(23 * along + 0.8) + 0.4 * Math.sin(37 * along + 2.9 * Math.sin(5 * along));
}

/**
 * How far down (0..1) a hanging hem falls at a point of its rim, in piece-local metres: two
 * incommensurate waves along each side, 15-25 cm apart, as folds fall.
 */
function hemWave(x: number, z: number): number {
  return Math.min(1, Math.max(0, 0.5 + 0.3 * Math.sin(29 * x + 1.3) * Math.cos(11 * x) + 0.3 * Math.sin(31 * z + 0.4) * Math.cos(13 * z + 2)));
}

/** Radius of a welt's cord (metres), the spacing of its rings along a straight run, and its rings round a corner. */
const WELT_RADIUS = 0.004;
const WELT_STEP = 0.02;
const WELT_ARC = 4;

/** Spacing (metres) of a puffed face's tessellation. */
const PUFF_STEP = 0.04;
/**
 * Tufting: buttons TUFT_U apart along a row and rows TUFT_V apart, each row set half a step over
 * from the last; the fabric sinks TUFT_DEPTH into the creases and buttons, and the tufted face
 * is tessellated every TUFT_STEP so a crease is a fold, not a smear between far vertices.
 */
const TUFT_U = 0.17;
const TUFT_V = 0.13;
const TUFT_DEPTH = 0.04;
const TUFT_STEP = 0.02;
const TUFT_BUTTON = 0.011;
/** A button's dimple: its reach in the creases' own units (1 is half way to the next crease) and its depth over a crease's. */
const TUFT_DIMPLE = 0.45;
const TUFT_DIMPLE_DEPTH = 0.6;

/**
 * How far a point of a tufted face stands up in its diamond (0 on a crease, 1 at the diamond's
 * middle, rising quickly off the crease as stuffing does; below 0 in a button's dimple). The creases are the
 * two families of lines through the buttons, a = 2u/TUFT_U - v/TUFT_V and b = 2u/TUFT_U + v/TUFT_V
 * at even values.
 */
function tuftPillow(u: number, v: number): number {
  const a = (2 * u) / TUFT_U - v / TUFT_V;
  const b = (2 * u) / TUFT_U + v / TUFT_V;
  const da = Math.abs(a - 2 * Math.round(a / 2));
  const db = Math.abs(b - 2 * Math.round(b / 2));
  const h = Math.min(da, db);
  // Round each button the cloth is drawn into a dimple, deeper than the creases between them.
  const dimple = Math.max(0, 1 - Math.max(da, db) / TUFT_DIMPLE) ** 2;
  return 1 - (1 - h) ** 3 - TUFT_DIMPLE_DEPTH * dimple;
}

/** The buttons of a face whose flat part spans +-lu by +-lv: on the lattice, a tuft's width inside the flat part. */
function tuftButtons(lu: number, lv: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const rows = Math.floor((lv - TUFT_V / 2) / TUFT_V);
  for (let j = -rows; j <= rows; j++) {
    const shift = Math.abs(j) % 2 === 1 ? TUFT_U / 2 : 0;
    for (let u = shift - Math.floor((lu - TUFT_U / 2 + shift) / TUFT_U) * TUFT_U; u <= lu - TUFT_U / 2; u += TUFT_U) out.push([u, j * TUFT_V]);
  }
  return out;
}

/** Sides of a round rod's section: enough for its highlight to run smooth along it at a chair's size in a photo. */
const TUBE_SIDES = 10;
/** Wavelength of a sling's folds, along the sheet (metres). */
const SLING_FOLD = 0.09;
/** Depth of a sling's folds at the sheet's middle (metres): shallow, as a sheet pulled taut keeps them. */
const SLING_FOLD_DEPTH = 0.005;

/**
 * A polyline's corners cut off `passes` times (Chaikin): each span keeps its middle half, so the
 * line turns by small steps and comes out smooth. An open line keeps its two ends.
 */
function cutCorners(points: Array<[number, number]>, passes: number, closed: boolean): Array<[number, number]> {
  let line = points;
  for (let pass = 0; pass < passes; pass++) {
    const spans = closed ? line.length : line.length - 1;
    const cut: Array<[number, number]> = [];
    for (let i = 0; i < spans; i++) {
      const p = line[i]!;
      const q = line[(i + 1) % line.length]!;
      cut.push([0.75 * p[0] + 0.25 * q[0], 0.75 * p[1] + 0.25 * q[1]], [0.25 * p[0] + 0.75 * q[0], 0.25 * p[1] + 0.75 * q[1]]);
    }
    line = closed ? cut : [line[0]!, ...cut, line.at(-1)!];
  }
  return line;
}

/** Outward unit normal at each point of a closed outline (either winding, convex or not): the mean of its two edges' normals. */
function outwardNormals(outline: Array<[number, number]>): Array<readonly [number, number]> {
  const n = outline.length;
  let area = 0;
  for (let i = 0; i < n; i++) {
    const p = outline[i]!;
    const q = outline[(i + 1) % n]!;
    area += p[0] * q[1] - q[0] * p[1];
  }
  // Counter-clockwise, an edge's outward normal is its direction turned clockwise.
  const turn = area > 0 ? 1 : -1;
  return outline.map((_, i) => {
    const prev = outline[(i + n - 1) % n]!;
    const next = outline[(i + 1) % n]!;
    const na = turn * (next[1] - prev[1]);
    const nb = -turn * (next[0] - prev[0]);
    const len = Math.hypot(na, nb) || 1;
    return [na / len, nb / len] as const;
  });
}

/** The axis of a vector's largest component (its entries taken as non-negative sizes). */
function longest(h: Vec3): 0 | 1 | 2 {
  return h[1] > h[0] && h[1] >= h[2] ? 1 : h[2] > h[0] ? 2 : 0;
}

export interface Mesh {
  /** 9 floats per triangle. */
  positions: Float32Array;
  normals: Float32Array;
  locals: Float32Array;
  materials: Uint16Array;
  /** Per triangle, the texture axis it faces most (0 X, 1 Y, 2 Z): which way wood is cut there. */
  faces: Uint8Array;
}
