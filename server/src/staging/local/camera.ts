import type { Vec3 } from './vec.ts';

/**
 * A pinhole camera standing in the room. World frame: X right along the room's width, Y up,
 * Z along the room's depth, floor at Y = 0. The camera stands at (0, height, 0), level (listing
 * photos keep verticals vertical, so pitch and roll are taken as zero and the principal point's
 * row is the horizon), and is turned by `yaw` about Y: positive yaw looks towards +X.
 */
export interface CameraParams {
  width: number;
  height: number;
  /** Focal length in pixels. */
  focal: number;
  /** Principal point column. */
  cx: number;
  /** Horizon row (principal point row). */
  horizon: number;
  yaw: number;
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
  readonly cosYaw: number;
  readonly sinYaw: number;
  constructor(readonly p: CameraParams) {
    this.cosYaw = Math.cos(p.yaw);
    this.sinYaw = Math.sin(p.yaw);
  }

  /** The same camera for an image scaled by `s` (pixels only; metres unchanged). */
  scaled(width: number, height: number): Camera {
    const s = width / this.p.width;
    return new Camera({
      ...this.p,
      width,
      height,
      focal: this.p.focal * s,
      cx: this.p.cx * s,
      horizon: this.p.horizon * s,
    });
  }

  toCamera(p: Vec3): Vec3 {
    const rx = p[0];
    const ry = p[1] - this.p.eyeHeight;
    const rz = p[2];
    return [this.cosYaw * rx - this.sinYaw * rz, ry, this.sinYaw * rx + this.cosYaw * rz];
  }

  project(p: Vec3): Projected {
    const c = this.toCamera(p);
    const z = c[2];
    return { u: this.p.cx + (this.p.focal * c[0]) / z, v: this.p.horizon - (this.p.focal * c[1]) / z, depth: z };
  }

  /** World direction of the ray through pixel (u, v). */
  rayDir(u: number, v: number): Vec3 {
    const xc = (u - this.p.cx) / this.p.focal;
    const yc = -(v - this.p.horizon) / this.p.focal;
    return [this.cosYaw * xc + this.sinYaw, yc, -this.sinYaw * xc + this.cosYaw];
  }

  /** The floor point seen at pixel (u, v), or null at or above the horizon. */
  floorPoint(u: number, v: number): Vec3 | null {
    if (v <= this.p.horizon + 1e-6) return null;
    const d = this.rayDir(u, v);
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

  /** Image column of the vanishing point of the room's depth axis (world Z). */
  depthVanishingU(): number {
    return this.p.cx - this.p.focal * Math.tan(this.p.yaw);
  }
}
