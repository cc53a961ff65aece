import { leafId } from './materials.ts';
import type { MeshBuilder } from './mesh.ts';
import { hash3 } from './prng.ts';
import { clamp, cross, normalize, smoothstep, sub, type Vec3 } from './vec.ts';
import type { Role, StyleDef } from './styles.ts';

export type PieceKind =
  | 'rug'
  | 'sofa'
  | 'coffeeTable'
  | 'armchair'
  | 'slingChair'
  | 'pouf'
  | 'sideTable'
  | 'floorLamp'
  | 'plant'
  | 'art'
  | 'bed'
  | 'nightstand'
  | 'bench'
  | 'diningTable'
  | 'roundTable'
  | 'chair'
  | 'pendant'
  | 'sideboard'
  | 'desk'
  | 'officeChair'
  | 'shelf'
  | 'barStool'
  | 'bowl';

export interface Size {
  /** Width (local X), depth (local Z) and height in metres. */
  w: number;
  d: number;
  h: number;
}

const BASE_SIZES: Record<PieceKind, Size> = {
  rug: { w: 2.4, d: 1.7, h: 0.015 },
  sofa: { w: 2.1, d: 0.92, h: 0.8 },
  coffeeTable: { w: 1.15, d: 0.6, h: 0.42 },
  armchair: { w: 0.8, d: 0.82, h: 0.82 },
  slingChair: { w: 0.64, d: 0.72, h: 0.78 },
  pouf: { w: 0.58, d: 0.58, h: 0.38 },
  sideTable: { w: 0.46, d: 0.46, h: 0.55 },
  floorLamp: { w: 0.45, d: 0.45, h: 1.6 },
  plant: { w: 0.5, d: 0.5, h: 1.35 },
  art: { w: 1.0, d: 0.04, h: 0.7 },
  bed: { w: 1.65, d: 2.12, h: 1.1 },
  nightstand: { w: 0.5, d: 0.4, h: 0.55 },
  bench: { w: 1.2, d: 0.42, h: 0.46 },
  diningTable: { w: 1.8, d: 0.95, h: 0.75 },
  roundTable: { w: 0.85, d: 0.85, h: 0.75 },
  chair: { w: 0.48, d: 0.52, h: 0.88 },
  pendant: { w: 0.45, d: 0.45, h: 0.3 },
  sideboard: { w: 1.6, d: 0.45, h: 0.78 },
  desk: { w: 1.3, d: 0.65, h: 0.75 },
  officeChair: { w: 0.6, d: 0.6, h: 0.95 },
  shelf: { w: 0.9, d: 0.35, h: 1.8 },
  // Counter stool: seat at 0.65 m for a 0.9 m worktop; the layout sets the height per counter.
  barStool: { w: 0.42, d: 0.42, h: 0.65 },
  bowl: { w: 0.3, d: 0.3, h: 0.12 },
};

/** Backrest height above a bar stool's seat, per shape (modern and minimalist stools have none). */
export function barStoolBack(style: StyleDef): number {
  return style.shape === 'rolled' ? 0.3 : style.shape === 'curved' ? 0.22 : 0;
}

/** Height of a bed's headboard top, per shape: curved and rolled headboards rise above the bed's height. */
export function headboardTop(bedHeight: number, style: StyleDef): number {
  return bedHeight + (style.shape === 'curved' ? 0.3 : style.shape === 'rolled' ? 0.15 : 0);
}

export function pieceSize(kind: PieceKind, style: StyleDef): Size {
  const base = BASE_SIZES[kind];
  // Only width/depth scale for the luxury look; heights stay ergonomic.
  const scale = kind === 'art' || kind === 'rug' || kind === 'pendant' ? style.scale : Math.sqrt(style.scale);
  const size = { w: base.w * scale, d: base.d * scale, h: kind === 'plant' || kind === 'floorLamp' ? base.h * style.scale : base.h };
  if (kind === 'sofa') size.w *= style.pieces.sofa.width;
  // Round coffee tables are square in plan and no wider than a metre.
  if (kind === 'coffeeTable' && style.pieces.coffeeTable === 'round') size.w = size.d = Math.min(1, size.w * 0.85);
  return size;
}

export interface BuildContext {
  b: MeshBuilder;
  style: StyleDef;
  mat: (r: Role) => number;
  rng: () => number;
  /** Ceiling height and the piece's own lift, for pendants. */
  ceiling: number;
  lift: number;
}

type Builder = (c: BuildContext, s: Size) => void;

/** Four legs at the corners of a rectangle, styled per shape. */
function legs(c: BuildContext, halfW: number, halfD: number, top: number, inset = 0.06): void {
  const { b, style, mat } = c;
  for (const signX of [-1, 1]) {
    for (const signZ of [-1, 1]) {
      const x = signX * (halfW - inset);
      const z = signZ * (halfD - inset);
      switch (style.shape) {
        case 'square':
          b.cylinder(x, z, 0.012, 0, top, mat('metal'), 8, 0.016);
          break;
        case 'rolled':
          b.lathe(x, z, [[0.018, 0], [0.026, 0.03], [0.02, top * 0.4], [0.03, top * 0.65], [0.022, top * 0.85], [0.028, top]], 10, mat('wood'));
          break;
        case 'soft':
          b.cylinder(x, z, 0.022, 0, top, mat('woodLight'), 10, 0.026);
          break;
        default:
          b.cylinder(x, z, 0.011, 0, top, mat('metal'), 10, 0.02);
      }
    }
  }
}

/** How far a scroll arm's roll stands out past the side below it, and the roll's radius (metres). */
const ROLL_OVERHANG = 0.045;
const ROLL_RADIUS = 0.06;

/**
 * A scroll arm on side `sign` (as a wingback's or a rolled sofa's): an upright side rising from
 * `bottom` to a roll whose top is at `top` and whose outside touches `edge` (|x|), curling
 * ROLL_OVERHANG out past the side below it, so a shade runs under it; its inside flares from
 * `inner` up to the roll. It runs from `z0` back to the front `z1`, where it is a flat panel
 * piped round its outline (MeshBuilder.scrollArm).
 */
function scrollArm(c: BuildContext, sign: number, inner: number, edge: number, bottom: number, top: number, z0: number, z1: number, material: number): void {
  const x = (v: number) => sign * v;
  const outer = edge - ROLL_OVERHANG;
  const rollX = edge - ROLL_RADIUS;
  const rollY = top - ROLL_RADIUS;
  const outline: Array<[number, number]> = [
    [x(inner), bottom],
    [x(outer), bottom],
    [x(outer), rollY - ROLL_RADIUS * 1.1],
    ...[-60, -25, 10, 45, 80, 115, 150, 185].map((deg): [number, number] => {
      const a = (deg * Math.PI) / 180;
      return [x(rollX + ROLL_RADIUS * Math.cos(a)), rollY + ROLL_RADIUS * Math.sin(a)];
    }),
    [x(inner), rollY - 0.07],
  ];
  c.b.scrollArm(outline, [x(rollX), rollY], z0, z1, 0.02, material);
}

const sofa: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const shape = style.shape;
  const legH = shape === 'soft' ? 0.05 : shape === 'square' ? 0.15 : 0.11;
  const armW = (shape === 'square' ? 0.13 : shape === 'rolled' ? 0.17 : shape === 'soft' ? 0.2 : 0.22) * style.pieces.sofa.arms;
  const backD = shape === 'soft' ? 0.26 : 0.22;
  const seatTop = shape === 'soft' ? 0.41 : 0.45;
  const baseTop = seatTop - 0.14;
  const armTop = shape === 'square' ? 0.6 : shape === 'rolled' ? 0.62 : 0.56;
  const round = shape === 'square' ? 0.03 : shape === 'rolled' ? 0.03 : 0.08;
  const fabric = mat('upholstery');
  // Under scroll arms the base stands inside their sides, which stand in from the rolls.
  const baseW = shape === 'rolled' ? w / 2 - ROLL_OVERHANG - 0.005 : w / 2 - 0.01;
  b.roundedBox([0, (legH + baseTop) / 2, 0.01], [baseW, (baseTop - legH) / 2, d / 2 - 0.01], Math.min(0.04, round), fabric);
  b.roundedBox([0, (baseTop + h) / 2, -d / 2 + backD / 2], [w / 2 - (shape === 'rolled' ? 0.06 : 0.01), (h - baseTop) / 2, backD / 2], round, fabric);
  for (const signX of [-1, 1]) {
    if (shape === 'rolled') scrollArm(c, signX, w / 2 - armW, w / 2, legH, armTop, -d / 2 + 0.02, d / 2, fabric);
    else b.roundedBox([signX * (w / 2 - armW / 2), (legH + armTop) / 2, 0], [armW / 2, (armTop - legH) / 2, d / 2], round, fabric);
  }
  const inner = w - 2 * armW;
  // Fewer across on a short sofa: a cushion narrower than 45 cm reads as a chair's.
  const cushions = Math.max(1, Math.min(style.pieces.sofa.cushions, Math.floor(inner / 0.45)));
  const cushionW = inner / cushions;
  const seatD = d - backD;
  for (let i = 0; i < cushions; i++) {
    const x = -inner / 2 + cushionW * (i + 0.5);
    // Cushions that have been sat on: each seat hollowed a little before its middle, each back
    // where a back leant, none the same. Identical crowned boxes read as a showroom model.
    // Its front (boxed, as a seat cushion's band is) bellies out a little too.
    b.roundedBox(
      [x, baseTop + 0.07, -d / 2 + backD + seatD / 2 + 0.015],
      [cushionW / 2 - 0.006, 0.07, seatD / 2],
      0.045,
      fabric,
      { crown: 0.022, dent: [(c.rng() - 0.5) * 0.5, 0.15 + (c.rng() - 0.5) * 0.3, 0.012 + 0.012 * c.rng(), 0.45 + 0.2 * c.rng()], welt: true },
      { crown: 0.012, face: 2 },
    );
    const backTop = h + (shape === 'square' ? -0.04 : 0.02);
    b.roundedBox([x, (seatTop + backTop) / 2, -d / 2 + backD + 0.07], [cushionW / 2 - 0.01, (backTop - seatTop) / 2, 0.085], 0.07, fabric, {
      crown: 0.025,
      face: 2,
      dent: [(c.rng() - 0.5) * 0.5, -0.2 + (c.rng() - 0.5) * 0.3, 0.01 + 0.012 * c.rng(), 0.5 + 0.2 * c.rng()],
      welt: true,
    });
  }
  const pillowRoles: Role[] = ['pillowA', 'pillowB'];
  for (const signX of [-1, 1]) {
    const role = pillowRoles[signX < 0 ? 0 : 1]!;
    // Each chopped and leaning back by its own amount, as a stager leaves them; two alike read as a catalogue's.
    b.pillow([signX * (inner / 2 - 0.24), seatTop + 0.2, -d / 2 + backD + 0.2], 0.22, 0.2, 0.16, 0.18 + 0.1 * c.rng(), mat(role), 0.6 + 0.4 * c.rng());
  }
  if (shape === 'soft') b.box([0, legH / 2, 0], [w / 2 - 0.06, legH / 2, d / 2 - 0.06], mat('dark'));
  else legs(c, w / 2, d / 2, legH, 0.07);
};

const coffeeTable: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  if (style.pieces.coffeeTable === 'round') {
    const r = w / 2;
    const topMat = style.shape === 'curved' ? mat('top') : mat('woodLight');
    b.lathe(0, 0, [[r - 0.01, h - 0.045], [r, h - 0.04], [r, h - 0.005], [r - 0.01, h]], 40, topMat);
    if (style.shape === 'curved') {
      b.lathe(0, 0, [[r * 0.55, 0], [r * 0.55, 0.02], [r * 0.3, 0.1], [r * 0.22, h - 0.1], [r * 0.5, h - 0.045]], 32, mat('metal'));
      b.lathe(0.15, 0.05, [[0.11, h], [0.13, h + 0.03], [0.14, h + 0.07]], 24, mat('metal'), false);
    } else {
      for (let k = 0; k < 3; k++) {
        const a = (k / 3) * Math.PI * 2 + 0.5;
        b.cylinder(Math.cos(a) * r * 0.6, Math.sin(a) * r * 0.6, 0.03, 0, h - 0.04, mat('woodLight'), 12, 0.035);
      }
      b.lathe(-0.1, 0.05, [[0.04, h], [0.07, h + 0.08], [0.05, h + 0.2], [0.035, h + 0.24]], 18, mat('ceramic'));
    }
    return;
  }
  if (style.pieces.coffeeTable === 'glass') glassTable(c, w, d, h);
  else rectTable(c, w, d, h);
  // A small stack of books and a bowl, so the table reads as styled.
  b.box([w * 0.18, h + 0.02, 0], [0.14, 0.02, 0.1], mat('bookB'));
  b.box([w * 0.18, h + 0.055, 0.01], [0.12, 0.015, 0.09], mat('bookC'));
  b.lathe(-w * 0.2, -0.02, [[0.03, h], [0.1, h + 0.05], [0.12, h + 0.07]], 24, mat('ceramic'), false);
};

/** A solid top on legs: turned legs and an apron (rolled), or a steel frame. */
function rectTable(c: BuildContext, w: number, d: number, h: number): void {
  const { b, style, mat } = c;
  const topMat = mat('top');
  b.roundedBox([0, h - 0.022, 0], [w / 2, 0.022, d / 2], style.shape === 'rolled' ? 0.012 : 0.004, topMat);
  if (style.shape === 'rolled') {
    b.box([0, h - 0.08, 0], [w / 2 - 0.06, 0.035, d / 2 - 0.06], mat('wood'));
    b.box([0, 0.12, 0], [w / 2 - 0.05, 0.012, d / 2 - 0.05], mat('wood'));
    legs(c, w / 2, d / 2, h - 0.044, 0.05);
  } else {
    for (const signX of [-1, 1]) {
      const x = signX * (w / 2 - 0.05);
      for (const signZ of [-1, 1]) b.rod([x, 0, signZ * (d / 2 - 0.05)], [x, h - 0.044, signZ * (d / 2 - 0.05)], 0.01, mat('metal'));
      b.rod([x, 0.01, -(d / 2 - 0.05)], [x, 0.01, d / 2 - 0.05], 0.01, mat('metal'));
    }
  }
}

/**
 * A glass top set into a frame on four square legs, over a shelf: the frame is the style's
 * light wood, or its metal where the style's tables are metal (luxury brass, over a marble shelf).
 */
function glassTable(c: BuildContext, w: number, d: number, h: number): void {
  const { b, style, mat } = c;
  const metal = style.shape === 'curved';
  const frame = metal ? mat('metal') : mat('woodLight');
  const leg = metal ? 0.014 : 0.022;
  const rail = metal ? 0.012 : 0.02;
  for (const signX of [-1, 1]) {
    for (const signZ of [-1, 1]) b.box([signX * (w / 2 - leg), (h - 0.012) / 2, signZ * (d / 2 - leg)], [leg, (h - 0.012) / 2, leg], frame);
  }
  // The frame round the glass, flush with its top, and the rails carrying the shelf.
  for (const signZ of [-1, 1]) {
    b.box([0, h - 0.03, signZ * (d / 2 - rail)], [w / 2 - 2 * leg, 0.03, rail], frame);
    b.box([0, 0.14, signZ * (d / 2 - rail)], [w / 2 - 2 * leg, 0.015, rail], frame);
  }
  for (const signX of [-1, 1]) {
    b.box([signX * (w / 2 - rail), h - 0.03, 0], [rail, 0.03, d / 2 - 2 * leg], frame);
    b.box([signX * (w / 2 - rail), 0.14, 0], [rail, 0.015, d / 2 - 2 * leg], frame);
  }
  b.box([0, h - 0.006, 0], [w / 2 - 2 * rail, 0.006, d / 2 - 2 * rail], mat('glass'));
  b.box([0, 0.165, 0], [w / 2 - leg, 0.01, d / 2 - leg], metal ? mat('top') : frame);
}

const armchair: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const fabric = mat('chairFabric');
  if (style.shape === 'rolled') {
    // A wingback on scroll arms, their fronts piped, and its wings' crests piped: the piping's
    // lines are what tell tailored upholstery from a moulded block.
    const inner = w / 2 - 0.15;
    const top = 0.64;
    const deck = 0.13;
    const front = d / 2 - 0.01;
    const seatBack = -d / 2 + 0.2;
    for (const signX of [-1, 1]) scrollArm(c, signX, inner, w / 2, deck, top, -d / 2 + 0.1, front, fabric);
    // The deck between the arms, its front rail under the seat cushion.
    b.roundedBox([0, (deck + 0.42) / 2, 0.0], [inner, (0.42 - deck) / 2, d / 2 - 0.03], 0.03, fabric);
    b.roundedBox([0, 0.48, (seatBack + d / 2 - 0.02) / 2], [inner - 0.005, 0.06, (d / 2 - 0.02 - seatBack) / 2], 0.04, fabric, { crown: 0.015, welt: true });
    // The back rises to about 1.1 m, its inside buttoned; a wing on each side sweeps forward from
    // it and curves down into the arm's roll.
    const backTop = 0.66 + h * 0.55;
    b.roundedBox([0, (0.21 + backTop) / 2, -d / 2 + 0.1], [w / 2 - 0.04, (backTop - 0.21) / 2, 0.1], 0.04, fabric, { crown: 0.02, face: 2, tufted: true });
    const wing: Array<[number, number]> = [
      [seatBack - 0.08, top - 0.04],
      [seatBack - 0.08, backTop - 0.02],
      [seatBack + 0.06, backTop - 0.01],
      [seatBack + 0.17, backTop - 0.05],
      [seatBack + 0.25, backTop - 0.13],
      [seatBack + 0.28, backTop - 0.24],
      [seatBack + 0.25, top + 0.16],
      [seatBack + 0.17, top + 0.06],
      [seatBack + 0.08, top],
    ];
    for (const signX of [-1, 1]) b.panel(signX * (w / 2 - 0.06), wing, 0.04, fabric, true);
    legs(c, w / 2, d / 2, deck, 0.06);
    return;
  }
  if (style.shape === 'curved') {
    tubChair(c, Math.min(w, d) / 2, h);
    return;
  }
  if (style.shape === 'soft') {
    // Body and back stand a little inside the arms' outer faces: coplanar faces of differently
    // rounded boxes would fight for the same pixels and leave a ragged seam.
    b.roundedBox([0, 0.26, 0], [w / 2 - 0.02, 0.16, d / 2], 0.12, fabric);
    b.roundedBox([0, 0.47, 0.05], [w / 2 - 0.14, 0.06, d / 2 - 0.14], 0.05, fabric, { crown: 0.015, welt: true });
    b.roundedBox([0, (0.3 + h) / 2, -d / 2 + 0.12], [w / 2 - 0.02, (h - 0.3) / 2, 0.12], 0.12, fabric);
    // Piping round each arm's front, as a tailored cover has: a plain rounded block reads as clay.
    for (const signX of [-1, 1]) b.roundedBox([signX * (w / 2 - 0.1), 0.48, -0.02], [0.1, 0.16, d / 2 - 0.02], 0.1, fabric, { crown: 0.004, face: 2, welt: true });
    b.box([0, 0.05, 0], [w / 2 - 0.1, 0.05, d / 2 - 0.1], mat('metal'));
    return;
  }
  // Modern lounge chair: leather cushions on a slim frame with wooden arms.
  legs(c, w / 2, d / 2, 0.2, 0.05);
  b.roundedBox([0, 0.23, 0], [w / 2 - 0.02, 0.03, d / 2 - 0.02], 0.01, mat('wood'));
  // Leather cushions stuffed full, worn a little where sat on and leant against.
  b.roundedBox([0, 0.33, 0.03], [w / 2 - 0.1, 0.07, d / 2 - 0.09], 0.04, fabric, { crown: 0.02, dent: [(c.rng() - 0.5) * 0.4, 0.15, 0.015, 0.5], welt: true });
  b.roundedBox([0, 0.6, -d / 2 + 0.1], [w / 2 - 0.1, 0.22, 0.07], 0.05, fabric, { crown: 0.02, face: 2, dent: [(c.rng() - 0.5) * 0.4, -0.1, 0.012, 0.55], welt: true });
  for (const signX of [-1, 1]) {
    b.roundedBox([signX * (w / 2 - 0.04), 0.55, 0], [0.035, 0.02, d / 2 - 0.04], 0.01, mat('wood'));
    b.rod([signX * (w / 2 - 0.04), 0.26, d / 2 - 0.08], [signX * (w / 2 - 0.04), 0.54, d / 2 - 0.08], 0.012, mat('wood'));
  }
};

/** Piping: a cord of the cover, `cord` thick, round a seam of radius `radius` at height `y` about the piece's axis. */
function piping(c: BuildContext, radius: number, y: number, cord: number, segments: number, material: number): void {
  const ring = Array.from({ length: 9 }, (_, k): [number, number] => {
    const a = -Math.PI / 2 + (k / 8) * 2 * Math.PI;
    return [radius + cord * Math.cos(a), y + cord * Math.sin(a)];
  });
  c.b.lathe(0, 0, ring, segments, material, false);
}

/** Channels round a tub chair's inside, a hand's width each at the seat's edge. */
const TUB_CHANNELS = 7;

/**
 * A tub chair: back and arms one curved wall round a seat cushion, sewn in vertical channels on
 * its inside and scalloped along its rolled top, standing on four tapered legs clear of the
 * floor. The wall falls from the back over the arms to the seat's height at the front, so it
 * closes on itself with no cut ends. A stuffed block on a plinth read as clay; a shell, channels
 * and the floor seen under it are what a camera shows of an upholstered chair.
 */
function tubChair(c: BuildContext, radius: number, h: number): void {
  const { b, mat } = c;
  const cover = mat('chairFabric');
  const bottom = 0.14;
  const seat = 0.4;
  const flare = 0.02;
  const depth = 0.014 + 0.008 * c.rng();
  // A (0 at the front, pi at the back): the wall's top, and its thickness.
  const top = (A: number) => seat + 0.02 + (0.6 + (h - 0.04 - 0.6) * smoothstep(1.4, Math.PI, A) - seat - 0.02) * smoothstep(0.5, 0.95, A);
  const thick = (A: number) => 0.05 + 0.08 * smoothstep(0.5, 0.95, A);
  const outer = (y: number) => radius - flare + (flare * (y - bottom)) / (h - bottom);
  // Section: up the outside (t to 0.4), over the rolled top (to 0.7), down the inside to the seat.
  b.revolve(
    0,
    0,
    (a, t) => {
      const phi = Math.atan2(Math.sin(a - Math.PI / 2), Math.cos(a - Math.PI / 2));
      const A = Math.abs(phi);
      const roll = thick(A) / 2;
      const yc = top(A) - roll;
      const rc = outer(yc) - roll;
      const channel = depth * Math.abs(Math.sin(TUB_CHANNELS * phi)) ** 0.6 * smoothstep(0.8, 1.3, A);
      if (t <= 0.4) {
        const s = t / 0.4;
        const y = bottom + (yc - bottom) * s;
        // Soft folds down the outside, strongest halfway up, where the cover hangs free.
        return [outer(y) + 0.004 * Math.sin(5 * a + 2 * Math.sin(3 * a)) * Math.sin(Math.PI * s), y];
      }
      if (t <= 0.7) {
        const th = (Math.PI * (t - 0.4)) / 0.3;
        const push = roll + channel * smoothstep(Math.PI / 3, Math.PI, th);
        return [rc + push * Math.cos(th), yc + push * Math.sin(th)];
      }
      const y = yc + (Math.min(seat, yc) - yc) * ((t - 0.7) / 0.3);
      return [rc - roll - channel, y];
    },
    30,
    TUB_CHANNELS * 20,
    cover,
  );
  b.lathe(0, 0, [[0, bottom], [radius - flare, bottom]], 40, cover, false);
  // Piping round the bottom edge, as a tailored cover has.
  piping(c, radius - flare, bottom + 0.007, 0.007, 60, cover);
  tubCushion(c, radius - 0.06, seat - 0.01, seat + 0.12, cover);
  for (const k of [0.25, 0.75, 1.25, 1.75]) {
    const a = k * Math.PI;
    b.cylinder(Math.cos(a) * (radius - 0.1), Math.sin(a) * (radius - 0.1), 0.011, 0, bottom + 0.005, mat('metal'), 12, 0.019);
  }
}

/**
 * A tub chair's round seat cushion, from `bottom` to `top`: a boxed side bellied a little,
 * rounded over into a welted top edge, and a top crowned, sunk a little where one sits and
 * creased softly towards its middle. A turned disc read as a hard lid.
 */
function tubCushion(c: BuildContext, r: number, bottom: number, top: number, material: number): void {
  const edge = 0.025;
  const shoulder = top - edge;
  // Section: up the side (t to 0.4), over the edge (to 0.55), in across the top to the middle.
  c.b.revolve(
    0,
    0,
    (a, t) => {
      if (t <= 0.4) {
        const s = t / 0.4;
        return [r - 0.012 * (1 - s) ** 4 + 0.005 * Math.sin(Math.PI * s), bottom + s * (shoulder - bottom)];
      }
      if (t <= 0.55) {
        const th = ((t - 0.4) / 0.15) * (Math.PI / 2);
        return [r - edge + edge * Math.cos(th), shoulder + edge * Math.sin(th)];
      }
      const u = (t - 0.55) / 0.45;
      const out = 1 - u;
      const crease = 0.004 * Math.sin(9 * a + 1.7 * Math.sin(2 * a + 0.4)) * smoothstep(0.15, 0.6, u) * smoothstep(0, 0.3, out);
      const sunk = 0.012 * Math.exp(-((out / 0.5) ** 2));
      return [(r - edge) * out, top + 0.02 * (1 - out * out) - sunk + crease];
    },
    36,
    90,
    material,
  );
  piping(c, r - edge * 0.3, top - edge * 0.3, 0.005, 60, material);
}

/**
 * An open-frame chair with a sling seat and back (the style's chair leather or cloth hung from
 * the frame's bars): light enough to stand in a photo's foreground, where a stuffed armchair
 * would be a block before the room. Its frame is the style's legs' material.
 */
const slingChair: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const frame = style.shape === 'rolled' ? mat('wood') : style.shape === 'soft' ? mat('woodLight') : style.shape === 'square' ? mat('dark') : mat('metal');
  const half = style.shape === 'curved' ? 0.012 : 0.016;
  // The curved style's frame is brass tube; the others' are square steel or wood.
  const round = style.shape === 'curved';
  const x = w / 2 - 0.03;
  const front = d / 2 - 0.05;
  const back = -d / 2 + 0.08;
  const arm = h - 0.16;
  const seat = 0.42;
  for (const signX of [-1, 1]) {
    const sx = signX * x;
    b.rod([sx, 0, front + 0.01], [sx, arm, front - 0.01], half, frame, round);
    // The back legs lean back as they rise to carry the back.
    b.rod([sx, 0, back + 0.03], [sx, h, back - 0.06], half, frame, round);
    b.rod([sx, arm, front - 0.03], [sx, arm + 0.02, back - 0.035], half, frame, round);
    b.rod([sx, seat, front - 0.01], [sx, seat - 0.02, back + 0.01], half * 0.85, frame, round);
  }
  b.rod([-x, 0.16, back + 0.025], [x, 0.16, back + 0.025], half * 0.8, frame, round);
  // The seat hangs between the side rails and the back between the back legs, each sagging in its middle.
  const s = x - half;
  const cover = mat('chairFabric');
  b.sling(-s, s, [[front + 0.01, seat - 0.02], [front - 0.01, seat + 0.005], [front - 0.1, seat - 0.005], [back + 0.06, seat - 0.03], [back + 0.02, seat - 0.01]], 0.006, 0.045, cover);
  b.sling(-s, s, [[back + 0.005, seat + 0.08], [back - 0.03, seat + 0.2], [back - 0.05, h - 0.04], [back - 0.07, h + 0.005], [back - 0.09, h - 0.02]], 0.006, 0.035, cover);
  // Each sling's edge is sewn into a sleeve round the bar it hangs from: a rolled edge of the
  // cover along the seat's rails and up the back legs, where a sheet cut off at the bar reads as card.
  const sleeve = half + 0.006;
  const leg = (y: number): Vec3 => [0, y, back + 0.03 - (0.09 * y) / h];
  for (const signX of [-1, 1]) {
    const sx = signX * x;
    b.rod([sx, seat - 0.003, front - 0.025], [sx, seat - 0.018, back + 0.025], sleeve, cover, true);
    const [lo, hi] = [leg(seat + 0.09), leg(h - 0.03)];
    b.rod([sx, lo[1], lo[2]], [sx, hi[1], hi[2]], sleeve, cover, true);
  }
};

/** How many pleats gather a pouf's top into its button. */
const POUF_PLEATS = 12;
/** How many panels its side is sewn from, and how deep (metres) each seam draws the cover in. */
const POUF_PANELS = 8;
const POUF_SEAM = 0.012;

/**
 * A round upholstered pouf in the chair's cover: a drum bellied a little at its middle, its top
 * rolled over at the seam, crowned, and drawn down into a button in pleats that deepen towards it;
 * piping round the seam, and its side sewn from panels. A cover is never a ruled solid: soft folds run down the side, and
 * the pleats are not quite even. The curved style's stands on a brass band.
 */
const pouf: Builder = (c, { w, h }) => {
  const { b, style, mat } = c;
  const cover = mat('chairFabric');
  // The side's folds stand out up to `fold` from the body.
  const fold = 0.007;
  const r = w / 2 - fold;
  const base = style.shape === 'curved' ? 0.03 : 0;
  if (base) b.lathe(0, 0, [[r * 0.86, 0], [r * 0.86, base]], 40, mat('metal'));
  const seam = h - 0.05;
  const rim = r * 0.95;
  // The side's share of the section; the rest is the top, from the seam in to the button.
  const side = 0.4;
  const crown = (u: number) => 0.045 * Math.sqrt(1 - (1 - u) ** 2) - 0.03 * smoothstep(0.5, 1, u);
  b.revolve(
    0,
    0,
    (a, t) => {
      if (t <= side) {
        const s = t / side;
        const belly = 0.93 + 0.07 * Math.sin(Math.PI * Math.min(1, s / 1.1)) - 0.03 * smoothstep(0.85, 1, s);
        // Each panel pillows out between the seams that draw it in.
        const panel = Math.abs(Math.sin((POUF_PANELS * a) / 2)) ** 0.3 - 1;
        return [r * belly + (fold * Math.sin(7 * a + 2 * Math.sin(3 * a)) + POUF_SEAM * panel) * Math.sin(Math.PI * s), base + s * (seam - base)];
      }
      const u = (t - side) / (1 - side);
      const ridge = Math.abs(Math.sin((POUF_PLEATS * a) / 2 + 0.35 * Math.sin(3 * a + 0.7)));
      const pleat = 0.016 * smoothstep(0.15, 0.85, u) * (ridge - 0.6);
      return [rim * (1 - u), seam + crown(u) + pleat];
    },
    40,
    POUF_PLEATS * 10,
    cover,
  );
  piping(c, rim, seam, 0.006, 48, cover);
  b.ellipsoid([0, seam + crown(1), 0], [0.02, 0.012, 0.02], cover, 4, 8);
};

const sideTable: Builder = (c, { w, h }) => {
  const { b, style, mat } = c;
  const r = w / 2;
  const topMat = style.shape === 'curved' || style.shape === 'square' ? mat('top') : mat('wood');
  b.lathe(0, 0, [[r - 0.01, h - 0.03], [r, h - 0.025], [r, h], [0, h]], 28, topMat);
  const baseMat = style.shape === 'rolled' ? mat('wood') : mat('metal');
  b.lathe(0, 0, [[r * 0.6, 0], [r * 0.6, 0.02], [0.03, 0.06], [0.022, h * 0.5], [0.03, h - 0.03]], 20, baseMat);
  b.lathe(0.05, 0, [[0.04, h], [0.06, h + 0.07], [0.03, h + 0.16], [0.035, h + 0.2]], 16, mat('ceramic'));
};

const floorLamp: Builder = (c, { h }) => {
  const { b, style, mat } = c;
  const stemMat = style.shape === 'rolled' || style.shape === 'curved' ? mat('metal') : style.shape === 'soft' ? mat('woodLight') : mat('metal');
  // The luxury drum is a little larger, yet within the lamp's footprint (47 cm at the luxury scale): at 60 cm it dwarfed the sofa beside it.
  const scale = style.shape === 'curved' ? 1.07 : 1;
  b.lathe(0, 0, [[0.15 * scale, 0], [0.15 * scale, 0.02], [0.04, 0.04]], 24, stemMat);
  b.cylinder(0, 0, 0.012, 0.03, h - 0.2, stemMat, 8);
  const shadeMat = mat('shade');
  if (style.shape === 'rolled') b.lathe(0, 0, [[0.25, h - 0.32], [0.2, h - 0.15], [0.14, h - 0.04]], 28, shadeMat, false);
  else if (style.shape === 'soft') b.ellipsoid([0, h - 0.18, 0], [0.2, 0.2, 0.2], shadeMat, 10, 16);
  else b.lathe(0, 0, [[0.22 * scale, h - 0.36 * scale], [0.22 * scale, h]], 32, shadeMat, false);
};

/**
 * One leaf: a blade from `base` along `dir`, `width` across where it is widest (`widest` of its
 * length along), with a smooth outline, folded along its midrib and arching over to droop at
 * its tip. Its texture coordinates are its own frame (see leafColour in materials.ts): along the
 * blade 0..1, across it -1..1 from the midrib, and `id` (the leaf's number plus its shade in the
 * canopy) so every leaf has its own tone. A kite of four flat triangles read as a cut-out polygon
 * at full size; a long leaf takes more stations along it than a small one.
 */
export function leaf(b: MeshBuilder, base: Vec3, dir: Vec3, len: number, width: number, material: number, id: number, widest = 0.4): void {
  const axis = normalize(dir);
  const side = normalize(cross(axis, [0, 1, 0]));
  const up = cross(side, axis);
  // Half-width along the blade: zero at the stalk and the tip, fullest at `widest`.
  const power = Math.log(0.5) / Math.log(widest);
  const shape = (t: number) => Math.sin(Math.PI * t ** power) ** 0.7;
  // A point of the blade at `t` along it and `a` across it (-1..1): the midrib arches up and droops to the tip, the halves fold down from it.
  const at = (t: number, a: number): Vec3 => {
    const half = (width / 2) * shape(t);
    const lift = width * 0.12 * Math.sin(Math.PI * t) - len * 0.1 * t * t - width * 0.17 * shape(t) * Math.abs(a);
    const across = a * half;
    return [base[0] + axis[0] * len * t + side[0] * across + up[0] * lift, base[1] + axis[1] * len * t + side[1] * across + up[1] * lift, base[2] + axis[2] * len * t + side[2] * across + up[2] * lift];
  };
  // Each half's normal at a point, from the blade's slopes along and across it, on the upper side.
  const normalAt = (t: number, a: number, sign: number): Vec3 => {
    const dt = 1e-3;
    const tt = clamp(t, dt, 1 - dt);
    const aa = sign * clamp(Math.abs(a), 0, 1 - dt);
    const n = normalize(cross(sub(at(tt + dt, aa), at(tt - dt, aa)), sub(at(tt, aa + sign * dt), at(tt, aa))));
    const k = sign * (n[0] * up[0] + n[1] * up[1] + n[2] * up[2]) < 0 ? -1 : 1;
    return [n[0] * k * sign, n[1] * k * sign, n[2] * k * sign];
  };
  const stations = len > 0.15 ? 6 : 4;
  const uv = (t: number, a: number): Vec3 => [t, a, id];
  for (const sign of [-1, 1]) {
    for (let k = 0; k < stations; k++) {
      const t0 = k / stations;
      const t1 = (k + 1) / stations;
      const p = [at(t0, 0), at(t0, sign), at(t1, sign), at(t1, 0)];
      const n = [normalAt(t0, 0, sign), normalAt(t0, sign, sign), normalAt(t1, sign, sign), normalAt(t1, 0, sign)];
      const q = [uv(t0, 0), uv(t0, sign), uv(t1, sign), uv(t1, 0)];
      // The stalk's and the tip's stations are single points: one triangle there, two elsewhere.
      if (k > 0) b.triangle(p[0]!, p[1]!, p[2]!, n[0]!, n[1]!, n[2]!, material, [q[0]!, q[1]!, q[2]!]);
      if (k < stations - 1) b.triangle(p[0]!, p[2]!, p[3]!, n[0]!, n[2]!, n[3]!, material, [q[0]!, q[2]!, q[3]!]);
    }
  }
}

/** A potted plant: trunk, a few branches and leaves whose size and count depend on the style. */
const plant: Builder = (c, { h }) => {
  const { b, style, mat, rng } = c;
  const potH = style.shape === 'curved' ? 0.42 : 0.34;
  const potR = style.shape === 'curved' ? 0.2 : 0.18;
  b.lathe(0, 0, [[potR * 0.7, 0], [potR * 0.92, 0.03], [potR, potH - 0.02], [potR * 1.04, potH]], 28, mat('pot'));
  b.cylinder(0, 0, potR * 0.95, potH - 0.03, potH - 0.02, mat('dark'), 20);
  const leafMat = mat('leaf');
  // Leaf length, width and count per species.
  const species = style.pieces.plant;
  const [leafLen, leafWidth, count] = species === 'fig' ? [0.22, 0.14, 110] : species === 'ficus' ? [0.13, 0.065, 240] : species === 'olive' ? [0.1, 0.03, 380] : [0.4, 0.13, 60];
  // A fiddle-leaf fig's blade is fullest towards its tip; the others' below their middle.
  const widest = species === 'fig' ? 0.62 : 0.4;
  const trunkTop = h * 0.62;
  b.rod([0, potH - 0.03, 0], [0.015, trunkTop, 0.01], 0.012, mat('trunk'));
  const branches = 4;
  const tips: Vec3[] = [];
  for (let k = 0; k < branches; k++) {
    const a = (k / branches) * Math.PI * 2 + rng() * 0.8;
    const branchFrom = trunkTop * (0.75 + 0.2 * rng());
    const tip: Vec3 = [Math.cos(a) * (0.18 + 0.1 * rng()), h * (0.82 + 0.15 * rng()), Math.sin(a) * (0.18 + 0.1 * rng())];
    b.rod([0.01, branchFrom, 0.005], tip, 0.007, mat('trunk'));
    tips.push(tip);
  }
  tips.push([0, h, 0]);
  for (let i = 0; i < count; i++) {
    const branchTip = tips[i % tips.length]!;
    const spread = species === 'palm' ? 0.15 : 0.3;
    const base: Vec3 = [branchTip[0] + (rng() - 0.5) * spread, branchTip[1] - rng() * (h - trunkTop) * 0.7, branchTip[2] + (rng() - 0.5) * spread];
    const a = rng() * Math.PI * 2;
    const droop = species === 'palm' ? 0.3 + 0.5 * rng() : -0.2 + 0.7 * rng();
    const dir: Vec3 = [Math.cos(a), droop, Math.sin(a)];
    const scale = 0.75 + 0.5 * rng();
    // Leaves deep in the crown are shaded by the ones around them: the nearer the trunk, the darker.
    const outer = clamp(Math.hypot(base[0], base[2]) / (spread + 0.3), 0, 1);
    leaf(b, base, dir, leafLen * scale, leafWidth * scale * (0.85 + 0.3 * rng()), leafMat, leafId(i, outer), widest);
  }
};

/** A framed print: a moulding standing proud of a mat board, the picture a little behind the mat's window. */
const art: Builder = (c, { w, h }) => {
  const { b, mat } = c;
  const moulding = 0.025;
  const matWidth = Math.min(0.07, 0.08 * Math.min(w, h));
  const front = 0.04;
  // Back board (its face behind the picture), then the four sides of the moulding, 1 cm proud of the mat.
  const board = front - 0.005;
  b.roundedBox([0, 0, board / 2], [w / 2, h / 2, board / 2], 0.003, mat('frame'));
  for (const sy of [-1, 1]) b.roundedBox([0, sy * (h / 2 - moulding / 2), front + 0.005], [w / 2, moulding / 2, 0.005], 0.003, mat('frame'));
  for (const sx of [-1, 1]) b.roundedBox([sx * (w / 2 - moulding / 2), 0, front + 0.005], [moulding / 2, h / 2 - moulding, 0.005], 0.003, mat('frame'));
  const face = (x0: number, y0: number, x1: number, y1: number, z: number, role: Parameters<typeof mat>[0]) =>
    b.quad([x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z], [0, 0, 1], mat(role));
  const inner = moulding + matWidth;
  const wx = w / 2 - moulding;
  const hy = h / 2 - moulding;
  const z = front + 0.0005;
  // The mat as four strips around its window, and the picture 3 mm behind it.
  face(-wx, hy - matWidth, wx, hy, z, 'mat');
  face(-wx, -hy, wx, -hy + matWidth, z, 'mat');
  face(-wx, -hy + matWidth, -wx + matWidth, hy - matWidth, z, 'mat');
  face(wx - matWidth, -hy + matWidth, wx, hy - matWidth, z, 'mat');
  face(-w / 2 + inner, -h / 2 + inner, w / 2 - inner, h / 2 - inner, front - 0.0025, 'art');
};

const rug: Builder = (c, { w, d }) => {
  c.b.roundedBox([0, 0.005, 0], [w / 2, 0.005, d / 2], 0.004, c.mat('rug'));
  if (c.style.materials.rug.fringe) fringe(c, w, d);
};

/**
 * A knotted rug's warp ends, bundled in tassels past each short end (local X), lying on the floor
 * as they fell: the tell of a woven rug over a printed one. Each tassel varies in length and lean
 * by a hash of its place, not by the scene's generator, so the pieces after the rug keep their jitter.
 */
const FRINGE = { length: 0.07, pitch: 0.012, width: 0.009 };

function fringe(c: BuildContext, w: number, d: number): void {
  const n = Math.floor(d / FRINGE.pitch);
  const up: Vec3 = [0, 1, 0];
  for (const side of [-1, 1]) {
    for (let i = 0; i < n; i++) {
      const z = -d / 2 + ((i + 0.5) * d) / n;
      const length = FRINGE.length * (0.8 + 0.4 * hash3(i, side, 1, 0));
      const lean = (hash3(i, side, 2, 0) - 0.5) * 0.35;
      // From under the rug's edge (hidden by it) out to the tip, narrowing as the bundle's yarns spread and thin.
      const x0 = side * (w / 2 - 0.005);
      const x1 = side * (w / 2 + length * Math.cos(lean));
      const z1 = z + length * Math.sin(lean);
      const base = FRINGE.width / 2;
      const tip = base * 0.6;
      c.b.quad([x0, 0.002, z - base], [x1, 0.002, z1 - tip], [x1, 0.002, z1 + tip], [x0, 0.002, z + base], up, c.mat('rug'));
    }
  }
}

const nightstand: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const legH = style.shape === 'soft' ? 0 : 0.12;
  const body = style.shape === 'curved' ? mat('wood') : style.shape === 'soft' ? mat('woodLight') : mat('wood');
  b.roundedBox([0, (legH + h) / 2, 0], [w / 2, (h - legH) / 2, d / 2], 0.008, body);
  const gap = 0.006;
  const drawers = 2;
  const drawerH = (h - legH - 0.04) / drawers;
  for (let i = 0; i < drawers; i++) {
    const y = legH + 0.02 + drawerH * (i + 0.5);
    b.roundedBox([0, y, d / 2 + 0.004], [w / 2 - 0.025, drawerH / 2 - gap, 0.006], 0.003, body);
    b.ellipsoid([0, y, d / 2 + 0.016], [0.015, 0.015, 0.01], mat('metal'), 4, 8);
  }
  if (legH > 0) legs(c, w / 2, d / 2, legH, 0.04);
  // Table lamp on top.
  const lampX = -0.05;
  b.lathe(lampX, -0.02, [[0.07, h], [0.1, h + 0.06], [0.1, h + 0.18], [0.05, h + 0.28], [0.015, h + 0.32]], 20, mat('ceramic'));
  if (style.shape === 'rolled') b.lathe(lampX, -0.02, [[0.2, h + 0.3], [0.11, h + 0.55]], 24, mat('shade'), false);
  else b.lathe(lampX, -0.02, [[0.17, h + 0.3], [0.17, h + 0.55]], 24, mat('shade'), false);
  b.box([0.12, h + 0.015, 0.05], [0.1, 0.015, 0.07], mat('bookB'));
};

/** How deep the bedding's wrinkles and folds run (metres). */
const RUMPLE = 0.014;

const bed: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const frameMat = style.shape === 'rolled' ? mat('wood') : style.shape === 'soft' ? mat('woodLight') : mat('upholstery');
  const legH = style.shape === 'soft' ? 0.02 : 0.1;
  b.roundedBox([0, (legH + 0.32) / 2, 0.02], [w / 2, (0.32 - legH) / 2, d / 2 - 0.02], 0.02, frameMat);
  if (legH > 0.05) legs(c, w / 2, d / 2, legH, 0.08);
  else b.box([0, legH / 2, 0], [w / 2 - 0.1, legH / 2, d / 2 - 0.1], mat('dark'));
  b.roundedBox([0, 0.44, 0.02], [w / 2 - 0.03, 0.12, d / 2 - 0.05], 0.06, mat('bedding'));
  b.roundedBox([0, 0.43, 0.22], [w / 2 + 0.02, 0.145, d / 2 - 0.2], 0.06, mat('bedding'), { crown: 0.03, hem: 0.03, rumple: RUMPLE });
  // The throw lies over the duvet's foot, rumpled with it, and hangs over the sides in its own folds.
  b.roundedBox([0, 0.455, d / 2 - 0.3], [w / 2 + 0.035, 0.14, 0.3], 0.05, mat('throw'), { crown: 0.02, hem: 0.025, rumple: RUMPLE });
  const pillowW = w / 4 - 0.03;
  for (const signX of [-1, 1]) {
    // A sleeping pillow propped against the headboard, plump and a little squashed where it leans.
    b.pillow([signX * (w / 4), 0.66, -d / 2 + 0.2], pillowW, 0.2, 0.17, 1.05 + 0.1 * c.rng(), mat('bedding'), 0.15 + 0.2 * c.rng());
    if (style.shape !== 'soft') b.pillow([signX * (w / 4 - 0.02), 0.78, -d / 2 + 0.15], pillowW - 0.04, 0.2, 0.17, 0.3 + 0.1 * c.rng(), mat(signX < 0 ? 'pillowA' : 'pillowB'), 0.5 + 0.4 * c.rng());
  }
  const headboardH = headboardTop(h, style);
  const headboardZ = -d / 2 - 0.04;
  if (style.shape === 'curved') {
    const panels = 9;
    const panelW = (w + 0.1) / panels;
    for (let i = 0; i < panels; i++) {
      b.roundedBox([-(w + 0.1) / 2 + panelW * (i + 0.5), headboardH / 2 + 0.05, headboardZ], [panelW / 2 - 0.004, headboardH / 2 - 0.05, 0.06], 0.05, mat('upholstery'));
    }
  } else if (style.shape === 'rolled') {
    b.roundedBox([0, (0.3 + headboardH) / 2, headboardZ], [w / 2, (headboardH - 0.3) / 2, 0.035], 0.02, mat('wood'));
    for (const signX of [-1, 1]) b.lathe(signX * (w / 2 + 0.04), headboardZ, [[0.045, 0], [0.045, headboardH], [0.06, headboardH + 0.03], [0.0, headboardH + 0.1]], 12, mat('wood'));
  } else {
    b.roundedBox([0, headboardH / 2, headboardZ], [w / 2 + 0.05, headboardH / 2, 0.05], style.shape === 'soft' ? 0.04 : 0.02, frameMat);
  }
};

const bench: Builder = (c, { w, d, h }) => {
  const { b, mat } = c;
  b.roundedBox([0, h - 0.06, 0], [w / 2, 0.06, d / 2], 0.03, mat('chairFabric'), { crown: 0.01 });
  legs(c, w / 2, d / 2, h - 0.11, 0.05);
};

const diningTable: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  b.roundedBox([0, h - 0.025, 0], [w / 2, 0.025, d / 2], 0.008, mat('top'));
  if (style.shape === 'curved') {
    for (const signX of [-1, 1]) b.lathe(signX * w * 0.28, 0, [[0.25, 0], [0.25, 0.03], [0.07, 0.1], [0.06, h - 0.1], [0.2, h - 0.05]], 24, mat('metal'));
  } else {
    legs(c, w / 2, d / 2, h - 0.05, 0.08);
    if (style.shape !== 'square') b.box([0, h - 0.09, 0], [w / 2 - 0.06, 0.04, d / 2 - 0.06], mat('wood'));
  }
  // Centrepiece: a vase of leafy branches, each a twig bending out of the vase's mouth with
  // small leaves along it (leaves without twigs floated over the vase as a ring of green dots).
  const mouth = h + 0.26;
  b.lathe(0, 0, [[0.05, h], [0.09, h + 0.1], [0.05, h + 0.22], [0.04, mouth]], 18, mat('ceramic'));
  for (let i = 0; i < 5; i++) {
    const a = (i / 5) * Math.PI * 2 + c.rng() * 0.6;
    const reach = 0.1 + 0.06 * c.rng();
    const rise = 0.22 + 0.14 * c.rng();
    const at = (t: number): Vec3 => [Math.cos(a) * reach * t * t, mouth - 0.04 + rise * t, Math.sin(a) * reach * t * t];
    const points = [0, 0.35, 0.7, 1].map(at);
    for (let k = 0; k + 1 < points.length; k++) b.rod(points[k]!, points[k + 1]!, 0.003, mat('trunk'), true);
    // Leaves on alternate sides of the twig, across its way out; long along X or Z, whichever is nearer that.
    const [ox, oz] = [-Math.sin(a), Math.cos(a)];
    const leaf: Vec3 = Math.abs(ox) > Math.abs(oz) ? [0.022, 0.007, 0.009] : [0.009, 0.007, 0.022];
    for (const [j, t] of [0.45, 0.6, 0.75, 0.9, 1].entries()) {
      const [x, y, z] = at(t);
      const side = j % 2 === 0 ? 0.018 : -0.018;
      b.ellipsoid([x + ox * side, y, z + oz * side], leaf, mat('leaf'), 3, 6);
    }
  }
};

const roundTable: Builder = (c, { w, h }) => {
  const { b, style, mat } = c;
  const r = w / 2;
  b.lathe(0, 0, [[r - 0.01, h - 0.035], [r, h - 0.03], [r, h], [0, h]], 36, mat('top'));
  b.lathe(0, 0, [[0.24, 0], [0.24, 0.025], [0.05, 0.08], [0.045, h - 0.1], [0.15, h - 0.035]], 24, style.shape === 'rolled' || style.shape === 'soft' ? mat('wood') : mat('metal'));
  b.lathe(0.05, 0.02, [[0.04, h], [0.12, h + 0.06], [0.14, h + 0.08]], 24, mat('ceramic'), false);
  for (let i = 0; i < 4; i++) b.ellipsoid([0.05 + 0.04 * Math.cos(i * 1.7), h + 0.06, 0.02 + 0.04 * Math.sin(i * 1.7)], [0.035, 0.035, 0.035], mat('pillowB'), 5, 8);
};

const chair: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const seat = 0.46;
  b.roundedBox([0, seat - 0.03, 0.01], [w / 2, 0.035, d / 2 - 0.01], 0.02, mat('chairFabric'), { crown: 0.008, welt: true });
  legs(c, w / 2, d / 2, seat - 0.06, 0.04);
  const padded = style.shape === 'curved' || style.shape === 'rolled';
  const backMat = padded ? mat('chairFabric') : mat('wood');
  const backH = padded ? h : h - 0.05;
  // An upholstered back is padded and piped on its face, where a board of cloth read as a slab.
  const back = padded ? [{ crown: 0.015, face: 2 as const, welt: true }] : [];
  b.roundedBox([0, (seat + backH) / 2 + 0.03, -d / 2 + 0.03], [w / 2 - 0.02, (backH - seat) / 2 - 0.03, 0.025], 0.02, backMat, ...back);
  for (const signX of [-1, 1]) b.rod([signX * (w / 2 - 0.04), seat, -d / 2 + 0.04], [signX * (w / 2 - 0.04), seat + 0.1, -d / 2 + 0.035], 0.012, backMat);
};

/** Built from its rim (local y 0, lifted by the layout) up to the ceiling. */
const pendant: Builder = (c, { w, h }) => {
  const { b, style, mat, ceiling, lift } = c;
  const bottom = 0;
  b.cylinder(0, 0, 0.004, bottom + h - 0.02, ceiling - lift, mat('dark'), 6);
  const r = w / 2;
  if (style.shape === 'soft') b.ellipsoid([0, bottom + r, 0], [r, r, r], mat('shade'), 10, 18);
  else b.lathe(0, 0, [[r, bottom], [r * 0.85, bottom + h * 0.5], [0.05, bottom + h]], 28, style.shape === 'rolled' ? mat('shade') : mat('metal'));
};

const sideboard: Builder = (c, { w, d, h }) => {
  const { b, style, mat } = c;
  const legH = 0.14;
  const body = style.shape === 'soft' ? mat('woodLight') : mat('wood');
  b.roundedBox([0, (legH + h) / 2, 0], [w / 2, (h - legH) / 2, d / 2], 0.008, body);
  const doors = 4;
  const doorW = w / doors;
  for (let i = 0; i < doors; i++) {
    b.roundedBox([-w / 2 + doorW * (i + 0.5), (legH + h) / 2, d / 2 + 0.004], [doorW / 2 - 0.006, (h - legH) / 2 - 0.025, 0.006], 0.003, body);
  }
  legs(c, w / 2, d / 2, legH, 0.05);
  b.lathe(-w * 0.3, 0, [[0.06, h], [0.1, h + 0.12], [0.05, h + 0.3], [0.06, h + 0.34]], 18, mat('ceramic'));
  b.lathe(w * 0.2, 0, [[0.04, h], [0.14, h + 0.06], [0.16, h + 0.08]], 24, mat('metal'), false);
};

/**
 * The desk's lamp: its middle `inset` in from the desk's left end (local -X) and `back` from its
 * back edge, its shade `radius` across at the rim and `top` above the worktop.
 */
export const DESK_LAMP = { inset: 0.18, back: 0.15, radius: 0.13, top: 0.5 };

const desk: Builder = (c, { w, d, h }) => {
  const { b, mat } = c;
  b.roundedBox([0, h - 0.02, 0], [w / 2, 0.02, d / 2], 0.006, mat('top'));
  legs(c, w / 2, d / 2, h - 0.04, 0.05);
  b.box([w / 2 - 0.25, h - 0.1, 0], [0.2, 0.06, d / 2 - 0.04], mat('wood'));
  const lx = -w / 2 + DESK_LAMP.inset;
  const lz = -d / 2 + DESK_LAMP.back;
  b.lathe(lx, lz, [[0.08, h], [0.08, h + 0.02], [0.012, h + 0.03], [0.012, h + 0.42]], 16, mat('metal'));
  b.lathe(lx, lz, [[DESK_LAMP.radius, h + 0.36], [0.04, h + DESK_LAMP.top]], 20, mat('shade'), false);
  b.box([0.05, h + 0.01, -0.05], [0.18, 0.01, 0.12], mat('dark'));
  b.box([0.25, h + 0.02, -d / 2 + 0.15], [0.12, 0.02, 0.09], mat('bookA'));
};

const officeChair: Builder = (c, { w, d, h }) => {
  const { b, mat } = c;
  for (let k = 0; k < 5; k++) {
    const a = (k / 5) * Math.PI * 2;
    b.rod([0, 0.09, 0], [Math.cos(a) * w * 0.45, 0.04, Math.sin(a) * w * 0.45], 0.018, mat('metal'));
    b.ellipsoid([Math.cos(a) * w * 0.45, 0.025, Math.sin(a) * w * 0.45], [0.025, 0.025, 0.025], mat('dark'), 4, 6);
  }
  b.cylinder(0, 0, 0.025, 0.09, 0.42, mat('metal'), 10);
  b.roundedBox([0, 0.46, 0.02], [w / 2 - 0.05, 0.05, d / 2 - 0.05], 0.04, mat('chairFabric'), { crown: 0.01 });
  b.roundedBox([0, (0.55 + h) / 2 + 0.02, -d / 2 + 0.07], [w / 2 - 0.07, (h - 0.55) / 2, 0.04], 0.04, mat('chairFabric'));
};

const shelf: Builder = (c, { w, d, h }) => {
  const { b, mat, rng } = c;
  const wood = mat('woodLight');
  const thickness = 0.022;
  for (const signX of [-1, 1]) b.box([signX * (w / 2 - thickness / 2), h / 2, 0], [thickness / 2, h / 2, d / 2], wood);
  const levels = 5;
  for (let i = 0; i <= levels; i++) {
    const y = i === 0 ? 0.05 : (h - thickness / 2) * (i / levels);
    b.box([0, y, 0], [w / 2 - thickness, thickness / 2, d / 2], wood);
    if (i === levels) continue;
    let x = -w / 2 + thickness + 0.02;
    const roles: Role[] = ['bookA', 'bookB', 'bookC'];
    const stop = w / 2 - thickness - (rng() < 0.5 ? 0.25 : 0.05);
    while (x < stop) {
      const bookW = 0.02 + rng() * 0.025;
      const bookH = 0.18 + rng() * 0.08;
      b.box([x + bookW / 2, y + thickness / 2 + bookH / 2, 0.02], [bookW / 2 - 0.001, bookH / 2, d / 2 - 0.06], mat(roles[Math.floor(rng() * 3)]!));
      x += bookW;
    }
  }
};

/** Legs with a footrest, a seat, and a back for some styles (the size's height includes it). */
const barStool: Builder = (c, { w, h: total }) => {
  const { b, style, mat } = c;
  const h = total - barStoolBack(style);
  const r = w / 2;
  const foot = 0.3;
  switch (style.shape) {
    case 'square': {
      // Black steel frame, round leather-look seat.
      for (const [signX, signZ] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) b.rod([signX * r * 0.82, 0, signZ * r * 0.82], [signX * r * 0.55, h - 0.04, signZ * r * 0.55], 0.011, mat('metal'));
      b.lathe(0, 0, [[r * 0.72, foot - 0.008], [r * 0.74, foot], [r * 0.72, foot + 0.008]], 24, mat('metal'), false);
      b.lathe(0, 0, [[0, h - 0.05], [r * 0.9, h - 0.05], [r * 0.95, h - 0.02], [r * 0.9, h], [0, h + 0.005]], 28, mat('chairFabric'));
      break;
    }
    case 'rolled': {
      // Turned wooden legs, upholstered square seat, spindle back.
      for (const [signX, signZ] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
        b.lathe(signX * (r - 0.04), signZ * (r - 0.04), [[0.016, 0], [0.022, 0.05], [0.018, h * 0.45], [0.026, h * 0.6], [0.02, h - 0.05]], 10, mat('wood'));
      }
      for (const signZ of [-1, 1]) b.rod([-(r - 0.04), foot, signZ * (r - 0.04)], [r - 0.04, foot, signZ * (r - 0.04)], 0.01, mat('wood'));
      b.roundedBox([0, h - 0.03, 0], [r, 0.035, r], 0.02, mat('chairFabric'), { crown: 0.01 });
      const back = barStoolBack(style);
      for (const signX of [-1, 1]) b.rod([signX * (r - 0.04), h - 0.02, -(r - 0.04)], [signX * (r - 0.045), h + back, -(r - 0.03)], 0.014, mat('wood'));
      b.roundedBox([0, h + back - 0.04, -(r - 0.035)], [r - 0.02, 0.045, 0.018], 0.01, mat('wood'));
      break;
    }
    case 'soft': {
      // Light oak: four splayed round legs with rungs, round timber seat.
      for (const [signX, signZ] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) b.rod([signX * r * 0.8, 0, signZ * r * 0.8], [signX * r * 0.5, h - 0.03, signZ * r * 0.5], 0.016, mat('woodLight'));
      for (const [a, e] of [[[-1, -1], [1, -1]], [[1, 1], [-1, 1]]] as const) b.rod([a[0] * r * 0.7, foot, a[1] * r * 0.7], [e[0] * r * 0.7, foot, e[1] * r * 0.7], 0.01, mat('woodLight'));
      b.lathe(0, 0, [[0, h - 0.035], [r * 0.85, h - 0.035], [r * 0.88, h - 0.015], [r * 0.85, h], [0, h]], 28, mat('woodLight'));
      break;
    }
    default: {
      // Velvet tub seat on a gold pedestal.
      b.lathe(0, 0, [[r * 0.8, 0], [r * 0.8, 0.015], [0.04, 0.04], [0.03, h - 0.1], [0.1, h - 0.07]], 28, mat('metal'));
      b.lathe(0, 0, [[r * 0.62, foot - 0.01], [r * 0.64, foot], [r * 0.62, foot + 0.01]], 24, mat('metal'), false);
      b.roundedBox([0, h - 0.03, 0.01], [r, 0.045, r - 0.01], 0.04, mat('upholstery'), { crown: 0.015 });
      const back = barStoolBack(style);
      b.roundedBox([0, h + back / 2, -(r - 0.05)], [r - 0.01, back / 2 + 0.02, 0.05], 0.045, mat('upholstery'), { crown: 0.01 });
    }
  }
};

/** A shallow bowl with a few fruit, standing on whatever lifts it (a worktop). */
const bowl: Builder = (c, { w, h }) => {
  const { b, mat } = c;
  const r = w / 2;
  b.lathe(0, 0, [[0.06, 0], [0.07, 0.01], [r * 0.8, h * 0.55], [r, h * 0.75]], 28, mat('ceramic'), false);
  for (let i = 0; i < 5; i++) {
    const a = i * 1.3;
    const fromCentre = i === 0 ? 0 : r * 0.42;
    b.ellipsoid([Math.cos(a) * fromCentre, h * 0.55 + (i === 0 ? 0.05 : 0), Math.sin(a) * fromCentre], [0.04, 0.038, 0.04], mat(i % 2 ? 'pillowA' : 'pillowB'), 6, 10);
  }
};

export const BUILDERS: Record<PieceKind, Builder> = {
  rug,
  sofa,
  coffeeTable,
  armchair,
  slingChair,
  pouf,
  sideTable,
  floorLamp,
  plant,
  art,
  bed,
  nightstand,
  bench,
  diningTable,
  roundTable,
  chair,
  pendant,
  sideboard,
  desk,
  officeChair,
  shelf,
  barStool,
  bowl,
};
