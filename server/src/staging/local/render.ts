import type { RoomType, Style } from '@roomstager/contracts';
import type { Opening, RoomModel } from './analyze.ts';
import type { Camera } from './camera.ts';
import { cavityOcclusion } from './cavity.ts';
import { BUILDERS } from './furniture.ts';
import { footprint, onCounter, type Placement } from './layout.ts';
import { evalSh, inOpening, mirrorLight, radianceCentre, reflectedLight, type RoomRadiance } from './light.ts';
import { albedo, leatherSheen, pileLean, prepare, relief, texturePixel, toLinear, type PreparedMaterial } from './materials.ts';
import { MeshBuilder, type Mesh } from './mesh.ts';
import { hashString, mulberry32 } from './prng.ts';
import { blurInWindow, blurWindow } from './lines.ts';
import { emptyLayer, everyTileRow, GLASS_OPACITY, rasterizeInto, type Fragment, type RenderLayer, type Shader } from './raster.ts';
import { ShadowMap } from './shadowmap.ts';
import { floorShadows, openingLights, shadowCaster, wallShadows, type FloorRows, type FloorShadows, type LightSample, type RugOutline, type ShadeGrid, type ShadowCaster } from './shadows.ts';
import { inPatch, litThreshold, patchBrightness, SUNLIT, sunByPatches, sunThrough } from './sun.ts';
import { ROLES, type Role, type StyleDef } from './styles.ts';
import { clamp, luminance, normalize, smoothstep, type Vec3 } from './vec.ts';

export interface Lighting {
  radiance: RoomRadiance;
  /** Direction towards the daylight (unit) for the furniture's own shadows; from above when none is seen. */
  key: Vec3;
  /** Mean linear colour of the walls and of the floor: what a glossy floor reflected before the furniture stood there. */
  wall: Vec3;
  floor: Vec3;
  /** Radiance of a white matte surface facing up: what a lit lamp shade glows against. */
  level: Vec3;
  /** Direct sun, when the photo shows sun patches. */
  sun: SunLight | null;
}

export interface SunLight {
  /** Unit, towards the sun. */
  dir: Vec3;
  /** Radiance of a white matte surface facing the sun, from the sun alone (linear RGB). */
  white: Vec3;
  /** The windows it shines through: a point is in the sun only if its ray to the sun passes one. Null when they are out of frame. */
  windows: Opening[] | null;
  /**
   * The floor's light its patches are read from: the photo's, or only the stripes when its
   * windows are out of frame, where a point is in the sun as much as the floor is where its ray
   * lands (`sunByPatches`).
   */
  floor: ShadeGrid;
  /**
   * The floor's light (as `floor`) from which a point counts as wholly in the sun: beside a
   * window the photo's floor is bright without sun too (litThreshold), and a table there cast a
   * hard sun shadow on its rug that the photo could not have.
   */
  sunlit: number;
}

/** The sun and the depth map of the furniture seen from it. */
export interface SunShadow {
  light: SunLight;
  map: ShadowMap;
}

/** The sun with the depth map of the scene's casting pieces seen from it. */
export function sunShadow(light: SunLight, scene: Scene): SunShadow {
  return { light, map: new ShadowMap(scene.mesh, scene.casts, light.dir, SUN_PENUMBRA.least, SUN_PENUMBRA.spread) };
}

/**
 * What is left of the floor's light at (x, y, z), on or just above it, where the furniture
 * stands in the sun's way: 1 outside the photo's sun patches; in one, down to the light of the
 * floor round the patch (a quarter at least) where the furniture's depth map seen from the sun
 * hides the point, with the sun's narrow penumbra. Traced per point, a chair's open frame casts
 * its bars and sling; read off the floor's 5 cm grid, it cast a smudge.
 */
export function sunCut(sun: SunShadow, x: number, y: number, z: number): number {
  const sunlit = sun.light.floor.at(x, z);
  const share = inPatch(sunlit, sun.light.sunlit);
  if (share === 0) return 1;
  const hidden = 1 - sun.map.visibility(x, y, z, 0, 1, 0);
  return 1 - share * hidden * (1 - Math.max(0.25, 1 / sunlit));
}

/** The light the furniture is shaded with: the room's own radiance (light.ts), seen from the floor's middle. */
export function estimateLighting(room: RoomModel): Lighting {
  const walls = room.walls.length ? room.walls : [{ color: [0.8, 0.8, 0.8] as Vec3 }];
  const avg: Vec3 = [0, 0, 0];
  for (const w of walls) for (let k = 0; k < 3; k++) avg[k]! += (w.color[k] ?? 0) / walls.length;
  const level: Vec3 = [0, 0, 0];
  const day: Vec3 = [0, 0, 0];
  evalSh(room.radiance.ambient, 0, 1, 0, level);
  evalSh(room.radiance.sun, 0, 1, 0, day);
  for (let k = 0; k < 3; k++) level[k]! += day[k]!;
  let sun: SunLight | null = null;
  if (room.sun && room.floorLight) {
    // A sun patch is (brightness - 1) times the floor's light brighter; the floor takes the sun at a slant.
    const { dir, patches } = room.sun;
    const floor = patches ?? room.floorLight;
    const k = (patchBrightness(floor) - 1) / Math.max(0.15, dir[1]);
    // Stripes read off a hidden sun's bands are patches already; the whole floor's light also holds the window's glow.
    sun = { dir, white: [level[0] * k, level[1] * k, level[2] * k], windows: patches ? null : room.openings.filter((o) => o.daylight), floor, sunlit: patches ? SUNLIT : litThreshold(floor.factor) };
  }
  return {
    radiance: room.radiance,
    key: room.radiance.key ?? normalize([-0.35, 0.85, -0.6]),
    wall: toLinear(avg),
    floor: toLinear(room.floorColor),
    level,
    sun,
  };
}

export interface Scene {
  mesh: Mesh;
  materials: PreparedMaterial[];
  /** Per triangle: whether it shades the floor (rugs lie on it, art and pendants are far above; glass lets the light through). */
  casts: Uint8Array;
  /** Per triangle: glass, which the rasteriser lays over what is behind it (raster.ts). */
  glass: Uint8Array;
  /**
   * Per triangle: whether it fills the cells of the room's occlusion and window shadows (shadows.ts):
   * what casts, less a crown's leaves. Those are mostly gaps; marked solid in the cells, a plant
   * by a wall drew a dark blot on it. They still cast their dappled shadow in the shadow maps.
   */
  solid: Uint8Array;
}

/** The scene of a style's pieces, built with the furniture set `def` (set.ts); `style` and `roomType` seed the builders' jitter. */
export function buildScene(placements: Placement[], style: Style, def: StyleDef, roomType: RoomType, ceiling: number): Scene {
  const b = new MeshBuilder();
  const roles: Role[] = [...ROLES];
  const materials: PreparedMaterial[] = roles.map((r) => prepare(def.materials[r]));
  materials.forEach((pm, i) => pm.m.kind === 'wood' && b.grained.add(i));
  // Rugs get their own material so the pattern's border follows that rug's size.
  const rng = mulberry32(hashString(`${style}:${roomType}`));
  const noShadow: Array<[number, number]> = [];
  for (const p of placements) {
    let mat = (r: Role) => roles.indexOf(r);
    if (p.kind === 'rug') {
      const idx = materials.length;
      materials.push(prepare({ ...def.materials.rug, half: [p.size.w / 2, p.size.d / 2] }));
      roles.push('rug');
      mat = (r: Role) => (r === 'rug' ? idx : roles.indexOf(r));
    }
    b.setTransform(p.x, p.z, p.yaw, p.lift);
    const first = b.triangleCount;
    BUILDERS[p.kind]({ b, style: def, mat, rng, ceiling, lift: p.lift }, p.size);
    // Worktop pieces would cast onto the floor under the counter, which the photo hides.
    if (p.kind === 'rug' || p.kind === 'art' || p.kind === 'pendant' || onCounter(p)) noShadow.push([first, b.triangleCount]);
  }
  const mesh = b.build();
  const casts = new Uint8Array(mesh.materials.length).fill(1);
  for (const [a, e] of noShadow) casts.fill(0, a, e);
  const glass = mesh.materials.map((m) => (materials[m]?.m.kind === 'glass' ? 1 : 0));
  for (let t = 0; t < glass.length; t++) if (glass[t]) casts[t] = 0;
  const solid = casts.map((c, t) => (c && materials[mesh.materials[t]!]!.m.kind !== 'leaf' ? 1 : 0));
  return { mesh, materials, casts, glass: Uint8Array.from(glass), solid };
}

/** The rugs among `placements`, as outlines on the floor (their edges' line, shadows.ts). */
export function rugOutlines(placements: Placement[]): RugOutline[] {
  return placements.filter((p) => p.kind === 'rug').map((p) => ({ x: p.x, z: p.z, cos: Math.cos(p.yaw), sin: Math.sin(p.yaw), halfW: p.size.w / 2, halfD: p.size.d / 2 }));
}

/**
 * The furniture's own shadow edges: the least radius (metres), and how much it grows per metre
 * from receiver to blocker (ShadowMap's spread). The windows are area lights a metre or two
 * across, seen from the room about 40 degrees wide, so their shadows soften over a hand's width
 * under an arm; the sun's hardly do.
 */
const DAYLIGHT_PENUMBRA = { least: 0.02, spread: 0.35 };
const SUN_PENUMBRA = { least: 0.012, spread: 0.02 };

/** Nearer than this (metres, squared) to a window's light sample, the sample counts as this far: a piece by the glass is lit, not blown out. */
const NEAR_WINDOW = 0.5;
const FALLOFF_RANGE: [number, number] = [0.55, 1.8];

/**
 * The daylight a point gets relative to the point the room's radiance was measured from
 * (light.ts): the openings are area lights whose light falls off with distance, so the end of a
 * sofa by the window is brighter than its far end, and a big surface is not lit evenly. 1
 * everywhere when the photo shows no daylight opening.
 */
export function daylightFalloff(samples: LightSample[], box: RoomModel['box']): (x: number, y: number, z: number) => number {
  const received = (x: number, y: number, z: number) => {
    let e = 0;
    for (const s of samples) {
      const dx = x - s.p[0];
      const dy = y - s.p[1];
      const dz = z - s.p[2];
      const r2 = dx * dx + dy * dy + dz * dz;
      const cos = (dx * s.n[0] + dy * s.n[1] + dz * s.n[2]) / Math.sqrt(r2 || 1e-9);
      if (cos > 0) e += (s.w * cos) / Math.max(r2, NEAR_WINDOW);
    }
    return e;
  };
  const c = radianceCentre(box);
  const ref = received(c[0], c[1], c[2]);
  if (!(ref > 0)) return () => 1;
  return (x, y, z) => Math.min(FALLOFF_RANGE[1], Math.max(FALLOFF_RANGE[0], received(x, y, z) / ref));
}

/**
 * How much of a mirror's rise in reflection towards a grazing view a satin finish (oiled or
 * waxed wood, matte paint) keeps: its rough surface scatters the grazing reflection away, where
 * gloss does not. With all of it, a walnut top seen from a low camera reflected the white room
 * over its colour and read as pink laminate.
 */
const SATIN_GRAZING = 0.4;

/** How far velvet's leaning pile (pileLean) shifts the angle its sheen is seen at, in cosine. */
const PILE_LEAN = 0.4;

/** What a pane's two faces reflect face on (4 % each), what it absorbs, and the share of the room's light it scatters in its tint. */
const GLASS_REFLECTANCE = 0.08;
const GLASS_ABSORBED = GLASS_OPACITY - GLASS_REFLECTANCE;
const GLASS_SCATTER = 0.03;
/**
 * A pane mirrors the furniture beyond it where that stands in the way (the sofa behind a coffee
 * table), not the bright room the photo shows: along this reach (metres), and then it mirrors a
 * surface in shade, about this share of the light round the pane.
 */
const GLASS_MIRROR_REACH = 4;
const MIRRORED_FURNITURE = 0.2;
/**
 * The brightest a pane mirrors, in the photo's white: the openings are taken many times brighter
 * than their clipped pixels to light the room (light.ts), and mirrored at that a whole tabletop
 * turned into a white board hiding the shelf under it. At twice the white, a top before the
 * portrait room's balcony door still read as milky plastic; a listing photo, its windows held
 * near white, shows a clipped window's mirror no brighter than the window itself.
 */
const GLASS_MIRROR_CAP = 1;

/** Where a pane's eight mirror rays start, across a unit square: no two share a row or a column. */
const MIRROR_RAYS = Float32Array.from([-0.44, -0.19, -0.31, 0.31, -0.19, -0.44, -0.06, 0.06, 0.06, 0.44, 0.19, -0.31, 0.31, 0.19, 0.44, -0.06]);

/** A rotated grid of four offsets in a unit square: no two share a row or a column. */
const FOOTPRINT = Float32Array.from([-0.75, -0.25, 0.25, -0.75, 0.75, 0.25, -0.25, 0.75]);

/**
 * Shades one fragment with the room's radiance: the ambient part occluded near the floor and
 * under overhangs, the daylight part by the furniture's shadow map, a glossy reflection of the
 * room's environment weighted by Fresnel.
 */
function makeShader(scene: Scene, light: Lighting, cam: Camera, shadows: FloorShadows, shadowMap: ShadowMap, room: RoomModel, sun: SunShadow | null, occ: ShadowCaster['occ']) {
  const { floorLight, box } = room;
  const tex: Vec3 = [0, 0, 0];
  const sub: Vec3 = [0, 0, 0];
  const amb: Vec3 = [0, 0, 0];
  const day: Vec3 = [0, 0, 0];
  const env: Vec3 = [0, 0, 0];
  const refl: Vec3 = [0, 0, 0];
  const at: Vec3 = [0, 0, 0];
  const bump: Vec3 = [0, 0, 0];
  const back: Vec3 = [0, 0, 0];
  const eye: Vec3 = [0, cam.p.eyeHeight, 0];
  const [lx, ly, lz] = light.key;
  const { radiance } = light;
  const falloff = daylightFalloff(openingLights(box, room.openings), box);
  return (f: Fragment, out: Float32Array): void => {
    const pm = scene.materials[f.material];
    if (!pm) {
      out.fill(0);
      return;
    }
    const m = pm.m;
    let vx = eye[0] - f.px;
    let vy = eye[1] - f.py;
    let vz = eye[2] - f.pz;
    const vl = Math.hypot(vx, vy, vz) || 1;
    vx /= vl;
    vy /= vl;
    vz /= vl;
    let { nx, ny, nz } = f;
    let ndv = nx * vx + ny * vy + nz * vz;
    if (m.kind === 'glass') {
      // A pane gives only what its two faces reflect of the room, more at a slant; what lies
      // behind it shows through (raster.ts), and a little light scattered in its tint.
      const side = ndv < 0 ? -1 : 1;
      const c = Math.abs(ndv);
      refl[0] = 2 * c * side * nx - vx;
      refl[1] = 2 * c * side * ny - vy;
      refl[2] = 2 * c * side * nz - vz;
      evalSh(radiance.ambient, side * nx, side * ny, side * nz, amb);
      at[0] = f.px;
      at[1] = f.py;
      at[2] = f.pz;
      mirrorLight(radiance, room.camera, room.box, room.openings, at, refl, env);
      const peak = Math.max(env[0], env[1], env[2]);
      if (peak > GLASS_MIRROR_CAP) for (let ch = 0; ch < 3; ch++) env[ch] = (env[ch]! * GLASS_MIRROR_CAP) / peak;
      // The mirror rays leave the pane on the viewer's side, clear of its own frame; eight of them
      // spread over two cells give a piece's outline in the pane a soft edge, not the grid's steps.
      const r = GLASS_MIRROR_REACH;
      const spread = 2 * occ.cell;
      let met = 0;
      for (let k = 0; k < MIRROR_RAYS.length; k += 2) {
        const qx = f.px + side * nx * 0.01 + refl[0] * 0.02 + MIRROR_RAYS[k]! * spread;
        const qy = f.py + side * ny * 0.01 + refl[1] * 0.02;
        const qz = f.pz + side * nz * 0.01 + refl[2] * 0.02 + MIRROR_RAYS[k + 1]! * spread;
        if (occ.blocked(qx, qy, qz, qx + refl[0] * r, qy + refl[1] * r, qz + refl[2] * r)) met++;
      }
      const share = (2 * met) / MIRROR_RAYS.length;
      for (let ch = 0; ch < 3; ch++) env[ch] = env[ch]! + share * (amb[ch]! * MIRRORED_FURNITURE - env[ch]!);
      const k = GLASS_REFLECTANCE + (1 - GLASS_REFLECTANCE) * (1 - c) ** 5;
      for (let ch = 0; ch < 3; ch++) out[ch] = env[ch]! * k + pm.c1[ch]! * amb[ch]! * GLASS_SCATTER;
      // What it reflects does not pass through: at a slant the pane mirrors more and shows less
      // of what lies behind. Passing as much at every angle, it laid its reflection over the
      // shelf below as a pale wash, brighter than the light that reached it.
      out[3] = k + GLASS_ABSORBED;
      return;
    }
    if (m.kind === 'rug' || m.kind === 'art') {
      // Woven and painted patterns have sharp steps: averaged over the pixel's footprint on the
      // surface (longer where it is seen at a slant), they do not alias into stairs.
      const r = (0.35 * vl) / cam.p.focal / Math.max(0.25, Math.abs(ndv));
      tex.fill(0);
      for (let k = 0; k < 4; k++) {
        const du = FOOTPRINT[2 * k]! * r;
        const dv = FOOTPRINT[2 * k + 1]! * r;
        // The rug's pattern lies in its local X-Z plane, a canvas's in X-Y.
        if (m.kind === 'rug') albedo(pm, f.lx + du, f.ly, f.lz + dv, f.material * 7919, sub);
        else albedo(pm, f.lx + du, f.ly + dv, f.lz, f.material * 7919, sub);
        tex[0] += sub[0] / 4;
        tex[1] += sub[1] / 4;
        tex[2] += sub[2] / 4;
      }
      // A rug's cut side is its backing and the roots of the pile, darker than its face.
      if (m.kind === 'rug' && Math.abs(f.ny) < 0.5) {
        tex[0] *= 0.5;
        tex[1] *= 0.5;
        tex[2] *= 0.5;
      }
    } else {
      albedo(pm, f.lx, f.ly, f.lz, f.material * 7919, tex, f.face, texturePixel(vl, cam.p.focal, ndv), 1 / Math.max(0.25, Math.abs(ndv)));
    }
    const fromBehind = ndv < 0;
    if (fromBehind) {
      // Seen from behind (thin parts): light the visible side.
      nx = -nx;
      ny = -ny;
      nz = -nz;
      ndv = -ndv;
    }
    if (relief(m.kind, f.lx, f.ly, f.lz, f.material * 7919, bump, m.drape, f.face)) {
      nx += bump[0];
      ny += bump[1];
      nz += bump[2];
      const nl = Math.hypot(nx, ny, nz) || 1;
      nx /= nl;
      ny /= nl;
      nz /= nl;
      ndv = Math.max(0.02, nx * vx + ny * vy + nz * vz);
    }
    evalSh(radiance.ambient, nx, ny, nz, amb);
    evalSh(radiance.sun, nx, ny, nz, day);
    // A rug's light is the photo's floor under it (onFloor below), which already falls off.
    if (m.kind !== 'rug') {
      const k = falloff(f.px, f.py, f.pz);
      day[0] *= k;
      day[1] *= k;
      day[2] *= k;
    }
    const ao = 0.5 + 0.5 * smoothstep(0, 0.4, f.py);
    // Smooth steps, not thresholds: on a bumped normal a threshold leaves a ragged line along rounded edges.
    const under = 1 - 0.45 * smoothstep(0.35, 0.65, -ny);
    // A rug shows the contact shadows around what stands on it; a foot or base is lit as the floor around it.
    const floorShade = f.py < 0.05 ? (m.kind === 'rug' ? shadows.floor : shadows.pieces).at(f.px, f.pz) * (sun ? sunCut(sun, f.px, f.py, f.pz) : 1) : 1;
    // Rugs take the floor's shadow grid; everything else the light's depth map.
    const ndl = nx * lx + ny * ly + nz * lz;
    const facingKey = smoothstep(-0.45, -0.25, ndl);
    const keyVis = f.py < 0.05 ? 1 : facingKey > 0 ? facingKey * shadowMap.visibility(f.px, f.py, f.pz, nx, ny, nz) : 0;
    // A rug is lit as the photo's floor under it was: sun patches run on across it.
    const onFloor = m.kind === 'rug' && f.py < 0.05 && floorLight ? floorLight.at(f.px, f.pz) : 1;
    const occluded = ao * under * floorShade * onFloor;
    const sunlit = ao * keyVis * floorShade * onFloor;
    let r = tex[0] * (amb[0] * occluded + day[0] * sunlit);
    let g = tex[1] * (amb[1] * occluded + day[1] * sunlit);
    let b = tex[2] * (amb[2] * occluded + day[2] * sunlit);
    if (sun && f.py >= 0.05) {
      const { dir, white, windows, floor } = sun.light;
      const ns = nx * dir[0] + ny * dir[1] + nz * dir[2];
      const through = ns <= 0 ? 0 : windows ? sunThrough(box, windows, f.px, f.py, f.pz, dir) : sunByPatches(floor, f.px, f.py, f.pz, dir);
      if (through > 0) {
        const k = ns * through * sun.map.visibility(f.px, f.py, f.pz, nx, ny, nz);
        r += tex[0] * white[0] * k;
        g += tex[1] * white[1] * k;
        b += tex[2] * white[2] * k;
      }
    }
    if (m.kind === 'leaf') {
      // A leaf is thin: light reaching its far side shines through it, yellower than it reflects,
      // so leaves against the window glow instead of reading as cut-outs.
      evalSh(radiance.sun, -nx, -ny, -nz, back);
      const through = 0.35 * occluded;
      r += tex[0] * back[0] * through * 1.1;
      g += tex[1] * back[1] * through * 1.2;
      b += tex[2] * back[2] * through * 0.6;
    }
    if (m.kind === 'fabric' || m.kind === 'linen') {
      // Loose fibres catch light at a grazing view: woven cloth brightens towards its outline
      // where clay or plastic would not, a mild version of velvet's sheen.
      const sheen = 0.94 + 0.45 * (1 - ndv) ** 3;
      r *= sheen;
      g *= sheen;
      b *= sheen;
    } else if (m.kind === 'velvet') {
      // Face on, the eye looks down into the pile and sees it dark; along a grazing view the
      // fibres' sides catch the light as a lustre paler than the dyed body, not a brighter dye.
      const s = (1 - clamp(ndv - PILE_LEAN * pileLean(f.lx, f.ly, f.lz, f.material * 7919), 0, 1)) ** 2.5;
      const body = 0.65 + 0.7 * s;
      const lustre = 0.45 * s * luminance(r, g, b);
      r = r * body + lustre;
      g = g * body + lustre;
      b = b * body + lustre;
    }
    refl[0] = 2 * ndv * nx - vx;
    refl[1] = 2 * ndv * ny - vy;
    refl[2] = 2 * ndv * nz - vz;
    const glossy = m.shininess >= 50;
    // Polished brass and chrome mirror the room, the photo's own pixels where the reflection
    // meets the room in view: blurred like lacquer they showed no reflection at all, a flat
    // yellow. Brushed, rubbed and antiqued metals and matte black legs keep the blur.
    if (m.kind === 'metal' && m.polished) {
      at[0] = f.px;
      at[1] = f.py;
      at[2] = f.pz;
      mirrorLight(radiance, room.camera, box, room.openings, at, refl, env, true);
    } else reflectedLight(radiance, refl, glossy ? 'glossy' : 'satin', env);
    const fres = (1 - ndv) ** 5;
    if (m.kind === 'metal') {
      const k = (0.55 + 0.45 * fres) * ao;
      // A dark finish (matte black) is paint over the metal: it reflects the room as any
      // coating does, so a black base shows its form instead of a flat silhouette. Matte paint
      // is rough, which keeps its grazing reflection weak: thin black legs stay black.
      const coat = (1 - smoothstep(0.01, 0.1, Math.max(tex[0], tex[1], tex[2]))) * (0.05 + 0.25 * fres) * ao;
      r = r * 0.25 + env[0] * (tex[0] * k + coat);
      g = g * 0.25 + env[1] * (tex[1] * k + coat);
      b = b * 0.25 + env[2] * (tex[2] * k + coat);
    } else if (m.spec > 0) {
      const patchy = m.kind === 'leather' ? leatherSheen(f.lx, f.ly, f.lz, f.material * 7919) : 1;
      const k = m.spec * (0.04 + 0.96 * fres * (glossy ? 1 : SATIN_GRAZING)) * ao * patchy;
      r += env[0] * k;
      g += env[1] * k;
      b += env[2] * k;
    }
    if (m.glow) {
      // A lit shade's outside passes the bulb's light through its cloth, less towards its outline,
      // where the eye meets the cloth at a slant; its inside, seen through its open end, is lit by
      // the bulb itself. Glowing evenly, a shade was a flat pale cut-out.
      const k = m.glow * (fromBehind ? 2 : 0.7 + 0.3 * ndv);
      r += tex[0] * k * light.level[0];
      g += tex[1] * k * light.level[1];
      b += tex[2] * k * light.level[2];
    }
    out[0] = r;
    out[1] = g;
    out[2] = b;
  };
}

export interface RenderResult {
  layer: RenderLayer;
  /** Multiplier for the photo's floor (shadows), per render pixel. */
  shadow: Float32Array;
  /**
   * What the furniture changes in a glossy floor's reflection (linear, may be negative: the
   * piece replaces the brighter room it hides), at half the render size; null on matte floors.
   */
  reflection: { width: number; height: number; color: Float32Array } | null;
}

/** What every part of one variation's render needs, made once per thread: the scene, its light, the room's shadows and the shader. */
export interface RenderSetup {
  room: RoomModel;
  cam: Camera;
  scene: Scene;
  light: Lighting;
  caster: ShadowCaster;
  floor: FloorShadows;
  /** The sun's depth map, when the photo shows sun patches: the shadows the furniture casts in them. */
  sun: SunShadow | null;
  shadowMap: ShadowMap;
  shade: Shader;
  width: number;
  height: number;
}

/** Sets up rendering the placed furniture at the given resolution; `floorRows` shares the floor's shadow grid out with another thread. */
export function setUpRender(
  room: RoomModel,
  placements: Placement[],
  style: Style,
  def: StyleDef,
  roomType: RoomType,
  width: number,
  height: number,
  floorRows?: FloorRows,
): RenderSetup {
  const cam = room.camera.scaled(width, height);
  const scene = buildScene(placements, style, def, roomType, room.box.ceiling);
  const light = estimateLighting(room);
  let x0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let z1 = -Infinity;
  for (const p of placements) {
    for (const [x, z] of footprint(p)) {
      x0 = Math.min(x0, x);
      z0 = Math.min(z0, z);
      x1 = Math.max(x1, x);
      z1 = Math.max(z1, z);
    }
  }
  const { left, right, back } = room.box;
  const bounds = {
    x0: Math.max(left, x0 - 1.5),
    z0: Math.max(0.3, z0 - 1.5),
    x1: Math.min(right, x1 + 1.5),
    z1: Math.min(back, z1 + 1.5),
  };
  if (!(bounds.x1 > bounds.x0) || !(bounds.z1 > bounds.z0)) Object.assign(bounds, { x0: left, z0: 0.3, x1: right, z1: back });
  const caster = shadowCaster(scene.mesh, scene.solid, room.box, openingLights(room.box, room.openings), bounds, rugOutlines(placements));
  const floor = floorShadows(caster, floorRows);
  const shadowMap = new ShadowMap(scene.mesh, scene.casts, light.key, DAYLIGHT_PENUMBRA.least, DAYLIGHT_PENUMBRA.spread);
  const sun = light.sun ? sunShadow(light.sun, scene) : null;
  const shade = makeShader(scene, light, cam, floor, shadowMap, room, sun, caster.occ);
  return { room, cam, scene, light, caster, floor, sun, shadowMap, shade, width, height };
}

/** The furniture's tile rows that `nextTileRow` hands out, rasterised into `layer` (every row by default). */
export function rasterizeFurniture(s: RenderSetup, layer: RenderLayer, nextTileRow?: () => number): void {
  rasterizeInto(s.scene.mesh, s.cam, layer, s.shade, nextTileRow, s.scene.glass);
}

/**
 * A post standing before a piece (a pipe stub before a sofa) hides part of it: over the post's
 * pixels (its matte, obstacles.ts) the photo shows wherever the render has only something
 * deeper than the post. With `shadow`, the photo's shadow there is lifted instead: it is the
 * floor's behind the post, not the post's. The two are done apart, as the shadow may be ready
 * later (pipeline.ts). Each matte pixel of the analysis becomes the render pixels whose centres
 * fall in it, so the post keeps its width.
 */
export function uncoverPosts(room: RoomModel, layer: RenderLayer, shadow: Float32Array | null): void {
  const { width, height } = layer;
  const s = width / room.camera.p.width;
  for (const o of room.obstacles) {
    if (!o.matte) continue;
    const post = room.camera.project([(o.left + o.right) / 2, (o.height ?? 0) / 2, (o.near + o.far) / 2]).depth + POST_BEHIND;
    for (let k = 0; k < o.matte.length; k += 3) {
      const [v, u0, u1] = [o.matte[k]!, o.matte[k + 1]!, o.matte[k + 2]!];
      for (let y = Math.ceil(v * s - 0.5); y < Math.ceil((v + 1) * s - 0.5) && y < height; y++) {
        for (let x = Math.ceil(u0 * s - 0.5); x < Math.ceil(u1 * s - 0.5) && x < width; x++) {
          const i = y * width + x;
          if (y < 0 || x < 0) continue;
          if (shadow) shadow[i] = 1;
          else if (layer.depth[i]! > post) {
            layer.alpha[i] = 0;
            layer.color[i * 3] = 0;
            layer.color[i * 3 + 1] = 0;
            layer.color[i * 3 + 2] = 0;
          }
        }
      }
    }
  }
}

/** How much deeper than a post's middle (metres) a surface must be for the post to hide it: pieces keep clear of a post's footprint. */
const POST_BEHIND = 0.05;

/** Darkens the furniture's creases and corners (cavity.ts), once every tile row is in. */
export function applyCavity(s: RenderSetup, layer: RenderLayer): void {
  const cavity = cavityOcclusion(layer, s.cam, luminance(s.light.level[0], s.light.level[1], s.light.level[2]));
  for (let i = 0; i < cavity.length; i++) {
    const k = cavity[i]!;
    if (k >= 1) continue;
    layer.color[i * 3] = layer.color[i * 3]! * k;
    layer.color[i * 3 + 1] = layer.color[i * 3 + 1]! * k;
    layer.color[i * 3 + 2] = layer.color[i * 3 + 2]! * k;
  }
}

/** A lit lamp's shade: a drum of cloth open at both ends, in metres. */
export interface LampGlow {
  x: number;
  z: number;
  bottom: number;
  top: number;
  radius: number;
  /** The cloth's glow, relative to the light on a white surface facing up (materials.ts). */
  glow: number;
}

/** Glowing triangles this close (metres, across the floor) to a shade's middle are that shade's. */
const SHADE_JOIN = 0.5;
/** Farther than this (metres) from a shade's middle, its light on the room is lost in the daylight. */
const LAMP_REACH = 2.5;
/**
 * The share of the room's light on a white surface facing up that reaches a wall, and the floor:
 * what a lamp's light on them is measured against.
 */
const WALL_SHARE = 0.5;

/** The lit shades among the scene's pieces: each cluster of triangles whose material glows. */
export function lampGlows(scene: Scene): LampGlow[] {
  const out: Array<LampGlow & { x0: number; x1: number; z0: number; z1: number }> = [];
  const { positions: P, materials: M } = scene.mesh;
  for (let t = 0; t < M.length; t++) {
    const glow = scene.materials[M[t]!]!.m.glow ?? 0;
    if (!(glow > 0)) continue;
    const o = 9 * t;
    const cx = (P[o]! + P[o + 3]! + P[o + 6]!) / 3;
    const cz = (P[o + 2]! + P[o + 5]! + P[o + 8]!) / 3;
    let lamp = out.find((l) => Math.hypot(l.x - cx, l.z - cz) < SHADE_JOIN);
    if (!lamp) {
      lamp = { x: cx, z: cz, bottom: Infinity, top: -Infinity, radius: 0, glow, x0: Infinity, x1: -Infinity, z0: Infinity, z1: -Infinity };
      out.push(lamp);
    }
    for (let k = 0; k < 9; k += 3) {
      lamp.x0 = Math.min(lamp.x0, P[o + k]!);
      lamp.x1 = Math.max(lamp.x1, P[o + k]!);
      lamp.z0 = Math.min(lamp.z0, P[o + k + 2]!);
      lamp.z1 = Math.max(lamp.z1, P[o + k + 2]!);
      lamp.bottom = Math.min(lamp.bottom, P[o + k + 1]!);
      lamp.top = Math.max(lamp.top, P[o + k + 1]!);
    }
    lamp.x = (lamp.x0 + lamp.x1) / 2;
    lamp.z = (lamp.z0 + lamp.z1) / 2;
    lamp.radius = Math.max(lamp.x1 - lamp.x0, lamp.z1 - lamp.z0) / 2;
  }
  return out.map(({ x, z, bottom, top, radius, glow }) => ({ x, z, bottom, top, radius, glow }));
}

/**
 * The light lit shades add to a point of the photo's walls or floor with normal (nx, ny, nz),
 * relative to the room's light there. The cloth glows as a sphere of the shade's radius would;
 * the bulb shines out of each open end, lit inside at twice the cloth's glow as the shader has
 * it, within the cone the rim allows, so a wall shows the bright scallop above a shade. The
 * furniture is not tested in between: past a piece, the light is a few per cent.
 */
export function lampLight(lamps: LampGlow[], px: number, py: number, pz: number, nx: number, ny: number, nz: number): number {
  let e = 0;
  for (const l of lamps) {
    const mid = (l.bottom + l.top) / 2;
    const dx = l.x - px;
    const dy = mid - py;
    const dz = l.z - pz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > LAMP_REACH * LAMP_REACH) continue;
    const r2 = l.radius * l.radius;
    const facing = (dx * nx + dy * ny + dz * nz) / Math.sqrt(d2);
    // The outside's glow falls from 1 face on to 0.7 at the outline: 0.85 on the whole.
    if (facing > 0) e += (0.85 * l.glow * r2 * facing) / Math.max(d2, 1.5 * r2);
    // Out of the end the point faces: the ray from the bulb must pass inside the rim.
    const end = py > l.top ? l.top : py < l.bottom ? l.bottom : NaN;
    if (Number.isNaN(end)) continue;
    const across = Math.hypot(px - l.x, pz - l.z) * Math.abs((end - mid) / (py - mid));
    const inside = smoothstep(1.15, 0.85, across / Math.max(l.radius, 1e-3));
    if (inside <= 0) continue;
    const ex = l.x - px;
    const ey = end - py;
    const ez = l.z - pz;
    const t2 = ex * ex + ey * ey + ez * ez;
    const t = Math.sqrt(t2);
    const out = Math.abs(ey) / t;
    const recv = (ex * nx + ey * ny + ez * nz) / t;
    if (recv > 0) e += (2 * l.glow * r2 * out * recv * inside) / Math.max(t2, r2);
  }
  return e / (ny > 0.5 ? 1 : WALL_SHARE);
}

/**
 * The multiplier for the photo's floor and walls per render pixel, written into `shadow`: the
 * furniture's shadows on them, and the light of its lit shades (above 1 where that outweighs).
 */
export function photoShadow(s: RenderSetup, shadow: Float32Array): void {
  const { cam, width, height, sun } = s;
  const { left, right, back } = s.room.box;
  const floorShadow = s.floor.floor;
  const walls = wallShadows(s.caster);
  // What the photo shows through a door or window (the next room's floor, the view) is not the
  // wall: the furniture's shadow and a lamp's light on the wall stop at the opening, which is
  // sought only where either falls, as this runs per pixel.
  const openings = s.room.openings;
  const lamps = lampGlows(s.scene);
  const ceiling = s.room.box.ceiling;
  shadow.fill(1);
  // Each pixel's ray meets the room box's floor or one of its walls (the camera stands inside
  // the box), with the ray inlined as this runs per pixel.
  const { focal, cx, cy, eyeHeight } = cam.p;
  const r = cam.rot;
  for (let v = 0; v < height; v++) {
    // cam.rayDir split into its per-row part and a per-column step.
    const yc = -(v + 0.5 - cy) / focal;
    const rx = r[3]! * yc + r[6]!;
    const ry = r[4]! * yc + r[7]!;
    const rz = r[5]! * yc + r[8]!;
    for (let u = 0; u < width; u++) {
      const xc = (u + 0.5 - cx) / focal;
      const dx = rx + r[0]! * xc;
      const dy = ry + r[1]! * xc;
      const dz = rz + r[2]! * xc;
      const tf = dy < -1e-9 ? eyeHeight / -dy : Infinity;
      const ts = dx < -1e-9 ? left / dx : dx > 1e-9 ? right / dx : Infinity;
      const tb = dz > 1e-9 ? back / dz : Infinity;
      let f = 1;
      if (tf <= ts && tf <= tb) {
        if (tf < Infinity) {
          f = floorShadow.at(dx * tf, dz * tf);
          if (sun) f *= sunCut(sun, dx * tf, 0, dz * tf);
          if (lamps.length) f += lampLight(lamps, dx * tf, 0, dz * tf, 0, 1, 0);
        }
      } else if (ts <= tb) {
        const g = dx < 0 ? walls.left : walls.right;
        const y = eyeHeight + dy * ts;
        if (g) f = g.at(dz * ts, y);
        if ((f < 1 || lamps.length) && inOpening(openings, dx < 0 ? 'left' : 'right', dz * ts, y)) f = 1;
        else if (lamps.length && y < ceiling) f += lampLight(lamps, dx * ts, y, dz * ts, dx < 0 ? 1 : -1, 0, 0);
      } else if (tb < Infinity) {
        const y = eyeHeight + dy * tb;
        if (walls.back) f = walls.back.at(dx * tb, y);
        if ((f < 1 || lamps.length) && inOpening(openings, 'back', dx * tb, y)) f = 1;
        else if (lamps.length && y < ceiling) f += lampLight(lamps, dx * tb, y, back, 0, 0, -1);
      }
      if (f !== 1) shadow[v * width + u] = f;
    }
  }
}

/** The floor reflection's size for a render size (rendered at half size). */
export function reflectionSize(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width / 2)), height: Math.max(1, Math.round(height / 2)) };
}

/** Whether the floor is glossy enough to show the furniture's reflection. */
export function hasReflection(room: RoomModel): boolean {
  return room.floorGloss > 0.05;
}

/** The furniture's change to a glossy floor's reflection (written into `into` when given); null on a matte floor. */
export function floorReflection(s: RenderSetup, into?: Float32Array): RenderResult['reflection'] {
  return hasReflection(s.room) ? renderReflection(s, into) : null;
}

/** Renders the placed furniture at the given resolution, with the floor shadows it casts, all on this thread. */
export function renderFurniture(room: RoomModel, placements: Placement[], style: Style, def: StyleDef, roomType: RoomType, width: number, height: number): RenderResult {
  const s = setUpRender(room, placements, style, def, roomType, width, height);
  const layer = emptyLayer(width, height);
  rasterizeFurniture(s, layer);
  applyCavity(s, layer);
  const shadow = new Float32Array(width * height);
  photoShadow(s, shadow);
  uncoverPosts(room, layer, shadow);
  uncoverPosts(room, layer, null);
  return { layer, shadow, reflection: floorReflection(s) };
}

/** How fast a reflection fades and blurs with the height of what it mirrors (metres): a glossy floor is not a mirror. */
const REFLECTION_FADE = 0.4;
const REFLECTION_SOFT = 0.3;

/**
 * The furniture mirrored in the floor plane, rendered at half size and masked to the floor. Its
 * value is the change to the floor's reflection, scaled by the floor's gloss and by Fresnel (a
 * floor mirrors more at a grazing view than below the camera); it fades and blurs with the
 * height of the reflected point, sharp only where a piece meets the floor, so it reads as a
 * reflection and not as a stain under dark bases.
 */
function renderReflection({ room, scene, light, cam, floor, shadowMap, caster, width, height }: RenderSetup, into?: Float32Array): NonNullable<RenderResult['reflection']> {
  const { width: w, height: h } = reflectionSize(width, height);
  const half = cam.scaled(w, h);
  const positions = scene.mesh.positions.slice();
  const normals = scene.mesh.normals.slice();
  for (let i = 1; i < positions.length; i += 3) {
    positions[i] = -positions[i]!;
    normals[i] = -normals[i]!;
  }
  // Rugs lie on the floor: they do not show in it. A pane's own reflection is faint beside what
  // it stands on: it only dims what is mirrored behind it (laid over as glass, reflecting nothing).
  const materials = scene.mesh.materials.map((m, t) => (scene.casts[t] ? m : NO_MATERIAL));
  const mirrored: Mesh = { ...scene.mesh, positions, normals, materials };
  // Shaded with the half-size camera it is drawn with: the textures' footprint is its pixel's.
  // (Panes are left out here, so their mirror rays through the occupancy never run mirrored.)
  const shade = makeShader(scene, light, half, floor, shadowMap, room, null, caster.occ);
  const layer = rasterizeInto(mirrored, half, emptyLayer(w, h), (f, out) => {
    if (f.material === NO_MATERIAL) {
      // A pane here keeps its opacity (raster.ts): it dims what is mirrored behind it.
      out.fill(0, 0, 3);
      return;
    }
    f.py = -f.py;
    f.ny = -f.ny;
    shade(f, out);
    for (let c = 0; c < 3; c++) out[c] = (out[c] ?? 0) - (light.wall[c] ?? 0);
  }, everyTileRow(), scene.glass);
  const { left, right, back } = room.box;
  const eye = half.p.eyeHeight;
  // Per pixel: the weight of the reflection there, and how soft it is (0 sharp, 1 soft).
  const weight = new Float32Array(w * h);
  const soft = new Float32Array(w * h);
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      const i = v * w + u;
      const p = half.floorPoint(u + 0.5, v + 0.5);
      const d = layer.depth[i]!;
      if (!p || p[0] < left || p[0] > right || p[2] > back || !Number.isFinite(d)) continue;
      const cos = eye / Math.hypot(p[0], eye, p[2]);
      const above = -(eye + half.rayDir(u + 0.5, v + 0.5)[1] * d);
      weight[i] = 0.45 * room.floorGloss * (0.25 + 0.75 * (1 - cos) ** 2) * Math.exp(-Math.max(0, above) / REFLECTION_FADE);
      soft[i] = smoothstep(0, REFLECTION_SOFT, above);
    }
  }
  const sharpSigma = 1;
  const softSigma = Math.max(2, w / 120);
  const color = into ?? new Float32Array(w * h * 3);
  // Blurred only around what is mirrored (a glossy floor shows a few pieces, not the whole
  // frame); beyond the kernel's reach of it everything is zero, so the result is the same.
  const win = blurWindow(w, h, (i) => weight[i] !== 0, softSigma);
  if (!win) return { width: w, height: h, color };
  // Spread like the blur itself, so the soft reflection is not cut at the sharp one's outline.
  const softness = blurInWindow(win, (i) => soft[i]!, softSigma);
  for (let c = 0; c < 3; c++) {
    const value = (i: number) => (layer.color[i * 3 + c] ?? 0) * weight[i]!;
    const sharp = blurInWindow(win, value, sharpSigma);
    const blurred = blurInWindow(win, value, softSigma);
    for (let y = 0; y < win.height; y++) {
      for (let x = 0; x < win.width; x++) {
        const k = y * win.width + x;
        const i = (y + win.y0) * w + x + win.x0;
        color[i * 3 + c] = sharp[k]! + (blurred[k]! - sharp[k]!) * Math.max(soft[i]!, softness[k]!);
      }
    }
  }
  return { width: w, height: h, color };
}

const NO_MATERIAL = 65535;
