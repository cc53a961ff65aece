import type { Vec3 } from './vec.ts';

/**
 * A pinhole camera standing in the room. World frame: X right along the room's width, Y up,
 * Z along the room's depth, floor at Y = 0. The camera stands at (0, eyeHeight, 0), is turned
 * by `yaw` about Y (positive looks towards +X), then tilted by `pitch` (positive looks up), then
 * rotated by `roll` about its optical axis (positive turns the camera counter-clockwise, so the
 * room's verticals lean to the right at the top of the photo).
 */
export interface CameraParams {
  width: number;
  height: number;
  /** Focal length in pixels. */
  focal: number;
  /** Principal point column. */
  cx: number;
  /**
   * Principal point row: the image centre, except for level photos whose horizon is off centre
   * (shift lens, vertical correction or cropping), where it is the horizon row.
   */
  cy: number;
  yaw: number;
  pitch: number;
  roll: number;
  /** Eye height above the floor in metres. */
  eyeHeight: number;
}

export interface Projected {
  u: number;
  v: number;
  /** Depth along the optical axis in metres (positive in front of the camera). */
  depth: number;
}

export class Camera {
  /**
   * World-to-camera rotation, row-major: its rows are the camera's right, up and forward axes
   * in world coordinates (precomputed: the rasteriser and per-pixel loops rely on it).
   */
  readonly rot: Float64Array;
  constructor(readonly p: CameraParams) {
    const cw = Math.cos(p.yaw);
    const sw = Math.sin(p.yaw);
    const cp = Math.cos(p.pitch);
    const sp = Math.sin(p.pitch);
    const cr = Math.cos(p.roll);
    const sr = Math.sin(p.roll);
    // Axes after yaw and pitch; the roll then turns right and up about forward.
    const right0 = [cw, 0, -sw];
    const up0 = [-sw * sp, cp, -cw * sp];
    const fwd = [sw * cp, sp, cw * cp];
    this.rot = new Float64Array(9);
    for (let k = 0; k < 3; k++) {
      this.rot[k] = cr * right0[k]! + sr * up0[k]!;
      this.rot[3 + k] = -sr * right0[k]! + cr * up0[k]!;
      this.rot[6 + k] = fwd[k]!;
    }
  }

  /** The same camera for an image scaled by `s` (pixels only; metres and angles unchanged). */
  scaled(width: number, height: number): Camera {
    const s = width / this.p.width;
    return new Camera({ ...this.p, width, height, focal: this.p.focal * s, cx: this.p.cx * s, cy: this.p.cy * s });
  }

  toCamera(p: Vec3): Vec3 {
    const r = this.rot;
    const x = p[0];
    const y = p[1] - this.p.eyeHeight;
    const z = p[2];
    return [r[0]! * x + r[1]! * y + r[2]! * z, r[3]! * x + r[4]! * y + r[5]! * z, r[6]! * x + r[7]! * y + r[8]! * z];
  }

  project(p: Vec3): Projected {
    const c = this.toCamera(p);
    const z = c[2];
    return { u: this.p.cx + (this.p.focal * c[0]) / z, v: this.p.cy - (this.p.focal * c[1]) / z, depth: z };
  }

  /** World direction of the ray through pixel (u, v), scaled to unit depth along the optical axis. */
  rayDir(u: number, v: number): Vec3 {
    const r = this.rot;
    const xc = (u - this.p.cx) / this.p.focal;
    const yc = -(v - this.p.cy) / this.p.focal;
    return [r[0]! * xc + r[3]! * yc + r[6]!, r[1]! * xc + r[4]! * yc + r[7]!, r[2]! * xc + r[5]! * yc + r[8]!];
  }

  /** Row of the horizon (the image of every horizontal direction) at column u. */
  horizonAt(u: number): number {
    const r = this.rot;
    const xc = (u - this.p.cx) / this.p.focal;
    // The ray through (u, v) is horizontal when its world Y is zero.
    const yc = -(r[1]! * xc + r[7]!) / r[4]!;
    return this.p.cy - this.p.focal * yc;
  }

  /** Image point of world direction d (where lines along d converge), or null when d is parallel to the image. */
  vanishingPoint(d: Vec3): { u: number; v: number } | null {
    const r = this.rot;
    const z = r[6]! * d[0] + r[7]! * d[1] + r[8]! * d[2];
    if (Math.abs(z) < 1e-12) return null;
    const x = r[0]! * d[0] + r[1]! * d[1] + r[2]! * d[2];
    const y = r[3]! * d[0] + r[4]! * d[1] + r[5]! * d[2];
    return { u: this.p.cx + (this.p.focal * x) / z, v: this.p.cy - (this.p.focal * y) / z };
  }

  /** The floor point seen at pixel (u, v), or null at or above the horizon. */
  floorPoint(u: number, v: number): Vec3 | null {
    const d = this.rayDir(u, v);
    if (d[1] > -1e-6 / this.p.focal) return null;
    const t = this.p.eyeHeight / -d[1];
    return [d[0] * t, 0, d[2] * t];
  }

  /** The point on the vertical plane X = x (a side wall) seen at pixel (u, v), or null. */
  planeXPoint(u: number, v: number, x: number): Vec3 | null {
    const d = this.rayDir(u, v);
    if (Math.abs(d[0]) < 1e-9) return null;
    const t = x / d[0];
    if (t <= 0) return null;
    return [x, this.p.eyeHeight + d[1] * t, d[2] * t];
  }

  /** The point on the vertical plane Z = z (the back wall) seen at pixel (u, v), or null. */
  planeZPoint(u: number, v: number, z: number): Vec3 | null {
    const d = this.rayDir(u, v);
    if (d[2] < 1e-9) return null;
    const t = z / d[2];
    return [d[0] * t, this.p.eyeHeight + d[1] * t, z];
  }
}
