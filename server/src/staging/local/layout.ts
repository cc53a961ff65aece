import type { RoomType } from '@roomstager/contracts';
import type { Opening, RoomModel, WallId } from './analyze.ts';
import type { Counter } from './counters.ts';
import type { Obstacle } from './obstacles.ts';
import { barStoolBack, DESK_LAMP, headboardTop, pieceSize, type PieceKind, type Size } from './furniture.ts';
import { NEAR_FLOOR, wallPoint } from './roombox.ts';
import type { StyleDef } from './styles.ts';
import { clamp, smoothstep } from './vec.ts';

/** One piece placed in the room, in metres. */
export interface Placement {
  kind: PieceKind;
  x: number;
  z: number;
  yaw: number;
  size: Size;
  /** Height of the piece's origin above the floor (wall art). */
  lift: number;
  /**
   * Stands between the group and the camera on purpose (closeForeground): nearer than other
   * pieces may, and it may be cut by the frame's bottom edge.
   */
  foreground?: boolean;
}

type Pt = [number, number];

/** Footprint corners (x, z) of a placement. */
export function footprint(p: Placement): Pt[] {
  const hw = p.size.w / 2;
  const hd = p.size.d / 2;
  return [
    [-hw, -hd],
    [hw, -hd],
    [hw, hd],
    [-hw, hd],
  ].map(([lx, lz]) => planPoint(p, lx!, lz!));
}

/** Where a point of a piece's own plan (lx across it, lz out of its back towards its front) lies on the floor. */
function planPoint(p: Placement, lx: number, lz: number): Pt {
  const c = Math.cos(p.yaw);
  const s = Math.sin(p.yaw);
  return [p.x + c * lx + s * lz, p.z - s * lx + c * lz];
}

/** Small things standing on a worktop rather than on the floor. */
export const onCounter = (p: Placement) => p.lift > 0.3 && (p.kind === 'bowl' || p.kind === 'plant');
const onFloor = (p: Placement) => p.kind !== 'rug' && p.kind !== 'art' && p.kind !== 'pendant' && !onCounter(p);

/** Separating-axis test for two convex polygons. */
export function polygonsOverlap(a: Pt[], b: Pt[], gap = 0): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i]!;
      const q = poly[(i + 1) % poly.length]!;
      const nx = -(q[1] - p[1]);
      const nz = q[0] - p[0];
      const len = Math.hypot(nx, nz) || 1;
      let amin = Infinity;
      let amax = -Infinity;
      let bmin = Infinity;
      let bmax = -Infinity;
      for (const v of a) {
        const d = (v[0] * nx + v[1] * nz) / len;
        amin = Math.min(amin, d);
        amax = Math.max(amax, d);
      }
      for (const v of b) {
        const d = (v[0] * nx + v[1] * nz) / len;
        bmin = Math.min(bmin, d);
        bmax = Math.max(bmax, d);
      }
      if (amax + gap <= bmin || bmax + gap <= amin) return false;
    }
  }
  return true;
}

/** The floor area kept clear in front of an opening, as a polygon. */
export function openingZone(room: RoomModel, o: Opening): Pt[] {
  const depth = o.kind === 'window' ? 0.4 : o.passage ? 0.6 : 0.9;
  const { left, right, back } = room.box;
  // Beside a door its casing, and a hand's width of wall before the next piece.
  const margin = o.kind === 'door' ? 0.2 : 0.1;
  const a = o.from - margin;
  const b = o.to + margin;
  if (o.wall === 'left') return [[left, a], [left + depth, a], [left + depth, b], [left, b]];
  if (o.wall === 'right') return [[right - depth, a], [right, a], [right, b], [right - depth, b]];
  return [[a, back - depth], [b, back - depth], [b, back], [a, back]];
}

/** The floor a counter's cabinets stand on, from the wall behind them to their front. */
export function counterZone(room: RoomModel, c: Counter): Pt[] {
  const back = Math.min(0, c.front - 0.6);
  const at = (along: number, inset: number): Pt => {
    const p = wallPoint(room.box, c.wall, along, 0, inset);
    return [p[0], p[2]];
  };
  return [at(c.from, back), at(c.to, back), at(c.to, c.front), at(c.from, c.front)];
}

/** The floor an obstacle stands on. */
export function obstacleZone(o: Obstacle): Pt[] {
  return [[o.left, o.near], [o.right, o.near], [o.right, o.far], [o.left, o.far]];
}

/** Pixel box of an obstacle at the analysis camera (1 m tall unless it is an island or a post of measured height). */
function obstacleImageBox(room: RoomModel, o: Obstacle): { u0: number; v0: number; u1: number; v1: number } | null {
  return imageBox(room, { kind: 'sideboard', x: (o.left + o.right) / 2, z: (o.near + o.far) / 2, yaw: 0, size: { w: o.right - o.left, d: o.far - o.near, h: o.worktop ?? o.height ?? 1 }, lift: 0 });
}

/** Pixel box of a placement's 3D bounds at the analysis camera. */
type ImageBox = { u0: number; v0: number; u1: number; v1: number };

/** Image bounding box of the piece's local box from `back` to its front, `height` tall. */
function partImageBox(room: RoomModel, p: Placement, back: number, height: number): ImageBox | null {
  let u0 = Infinity;
  let v0 = Infinity;
  let u1 = -Infinity;
  let v1 = -Infinity;
  const hw = p.size.w / 2;
  const hd = p.size.d / 2;
  // Art hangs centred on its lift; everything else stands on it.
  const y0 = p.kind === 'art' ? p.lift - p.size.h / 2 : p.lift;
  for (const lx of [-hw, hw]) {
    for (const lz of [-hd, -hd + back]) {
      const [x, z] = planPoint(p, lx, lz);
      for (const y of [y0, y0 + height]) {
        const q = room.camera.project([x, y, z]);
        if (q.depth < 0.3) return null;
        u0 = Math.min(u0, q.u);
        v0 = Math.min(v0, q.v);
        u1 = Math.max(u1, q.u);
        v1 = Math.max(v1, q.v);
      }
    }
  }
  return { u0, v0, u1, v1 };
}

function imageBox(room: RoomModel, p: Placement): ImageBox | null {
  return partImageBox(room, p, p.size.d, p.size.h);
}

/**
 * How tall a piece is in front of its back (a bed's mattress before its headboard, a sofa's
 * arms before its back), for what it hides: the bounding box of the whole piece would count
 * a headboard's height over the whole bed.
 */
const BODY: Partial<Record<PieceKind, { back: number; height: number }>> = {
  bed: { back: 0.12, height: 0.62 },
  sofa: { back: 0.25, height: 0.62 },
};

/** The parts of a piece as image boxes: its back at full height, and its body in front. */
function silhouette(room: RoomModel, p: Placement): ImageBox[] | null {
  const body = BODY[p.kind];
  if (!body) {
    const whole = imageBox(room, p);
    return whole && [whole];
  }
  const back = partImageBox(room, p, body.back, p.size.h);
  const front = partImageBox(room, p, p.size.d, Math.min(p.size.h, body.height));
  return back && front && [back, front];
}

/** Clutter (analyze.ts) above which a cell of the photo shows a thing with edges every way: a light fitting, a plant. */
const FITTING_CLUTTER = 3e-4;

/** The share of the photo's cells in `box` whose clutter (edges every way) is over `level`. */
function clutteredShare(room: RoomModel, box: ImageBox, level: number): number {
  const { cell, cols, rows, data } = room.clutter;
  const c0 = Math.max(0, Math.floor(box.u0 / cell));
  const c1 = Math.min(cols - 1, Math.floor(box.u1 / cell));
  const r0 = Math.max(0, Math.floor(box.v0 / cell));
  const r1 = Math.min(rows - 1, Math.floor(box.v1 / cell));
  let busy = 0;
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (data[r * cols + c]! > level) busy++;
  return busy / Math.max(1, (r1 - r0 + 1) * (c1 - c0 + 1));
}

/**
 * Whether a pendant, from its shade up to the ceiling, would hang before something the photo
 * shows (the room's own light fitting above the table): a second lamp on the first reads as a
 * paste-up.
 */
function showsFitting(room: RoomModel, p: Placement): boolean {
  const box = partImageBox(room, p, p.size.d, room.box.ceiling - p.lift);
  return box !== null && clutteredShare(room, box, FITTING_CLUTTER) > 0;
}

/**
 * Where a picture may hang: on plain wall, whose cells' clutter stays under `level` but for a
 * `share` of its outline (a corner, a socket). A stone wall, a staircase, shelving or a view is
 * not plain, and a wall the room box places where the photo shows something else (a loft's
 * stairs) is no wall to hang a picture on. A window's soft view of trees is busy at a fifth of
 * a stone wall's level: where the room box misses a window, that is what keeps a picture off it.
 * The wall is judged round the picture, `margin` of its width on every side, as a stager keeps a
 * picture clear of a window's frame: one hung by a missed window's corner had only a sixth of its
 * outline over the view, under `share`.
 */
const PLAIN_WALL = { level: 1e-5, share: 0.15, margin: 0.5 };

/** `box` grown on every side by `margin` of its width. */
function grown(box: ImageBox, margin: number): ImageBox {
  const m = margin * (box.u1 - box.u0);
  return { u0: box.u0 - m, u1: box.u1 + m, v0: box.v0 - m, v1: box.v1 + m };
}

function openingImageBox(room: RoomModel, o: Opening): ImageBox {
  const at = (a: number, y: number) => wallPoint(room.box, o.wall, a, y);
  let u0 = Infinity;
  let v0 = Infinity;
  let u1 = -Infinity;
  let v1 = -Infinity;
  for (const a of [o.from, o.to]) {
    for (const y of [o.bottom, o.top]) {
      const q = room.camera.project(at(a, y));
      const u = q.depth > 0.1 ? q.u : q.u < room.camera.p.cx ? -1e4 : 1e4;
      u0 = Math.min(u0, u);
      v0 = Math.min(v0, q.v);
      u1 = Math.max(u1, u);
      v1 = Math.max(v1, q.v);
    }
  }
  return { u0, v0, u1, v1 };
}

/** Distance of a floor point from a wall, and the position along that wall. */
function wallCoords(room: RoomModel, wall: WallId, x: number, z: number): { dist: number; along: number } {
  const { left, right, back } = room.box;
  if (wall === 'left') return { dist: x - left, along: z };
  if (wall === 'right') return { dist: right - x, along: z };
  return { dist: back - z, along: x };
}

const TABLES: ReadonlyArray<PieceKind> = ['diningTable', 'roundTable', 'desk'];
/** Chairs are tucked under their table, so their footprints may overlap it. */
function tucked(a: PieceKind, b: PieceKind): boolean {
  const chair = (k: PieceKind) => k === 'chair' || k === 'officeChair';
  return (chair(a) && TABLES.includes(b)) || (chair(b) && TABLES.includes(a));
}

/** The share of a piece's outline that hides what is behind it, for an open frame (the rest shows through it). */
const SEE_THROUGH: Partial<Record<PieceKind, number>> = { slingChair: 0.5 };

/**
 * Near evidence (RoomBox.nearEvidence) over which a side wall's place in the photo's foreground is
 * in doubt: fully below the first, not at all above the second.
 */
const FAINT_WALL: [number, number] = [0.15, 0.35];
/**
 * How far (metres) a chair in the foreground keeps from such a wall: its legs would otherwise
 * stand in the photo's wall, or, where that wall's near stretch ends at a doorway, the chair in
 * the doorway behind it, drawn over it (the portrait room's, 21 cm in from the box's wall).
 */
const UNSURE_WALL = 0.25;

/** How far (metres) before a doorway's wall a piece starts and ends to count as standing well in front of it, not before it. */
const FAR_DOOR: [number, number] = [1.5, 3.5];
/** The share of a doorway a piece well in front of it may hide in the photo. */
const FAR_DOOR_HIDDEN = 0.5;

/**
 * Whether a side wall's door, its leaf opened square into the room at either jamb, would stand
 * between the camera and the piece in the photo. The photo may show that leaf (the engine cannot
 * tell a leaf from the wall behind it), and the piece, drawn over the photo, would then stand in
 * front of what hides it. Only the chair closing the group near the camera is held to this: the
 * group stands farther in, where a leaf seldom is, and a bed's nightstand by a door is kept.
 * `orBefore`: or in front of it, where the piece would stand in the door's swing (a reading corner).
 */
function behindDoorLeaf(room: RoomModel, p: Placement, box: ImageBox, orBefore = false): boolean {
  const { left, right } = room.box;
  const depth = room.camera.toCamera([p.x, 0, p.z])[2];
  for (const o of room.openings) {
    if (o.kind !== 'door' || o.passage || o.wall === 'back') continue;
    const w = o.to - o.from;
    const x = o.wall === 'right' ? right - w / 2 : left + w / 2;
    for (const jamb of [o.from, o.to]) {
      const leaf = imageBox(room, { kind: 'sideboard', x, z: jamb, yaw: 0, size: { w, d: 0.04, h: o.top }, lift: 0 });
      if (leaf && overlapArea(box, leaf) > 0 && (orBefore || depth > room.camera.toCamera([x, 0, jamb])[2])) return true;
    }
  }
  return false;
}

/** A rug may reach this share of the frame's width past either side and still be whole in the photo, its edge lost in the corner. */
const RUG_CUT = 0.05;

/** Whether the frame cuts more of a rug than RUG_CUT leaves. */
function rugCut(room: RoomModel, p: Placement): boolean {
  const box = imageBox(room, p);
  const W = room.camera.p.width;
  return !box || box.u0 < -RUG_CUT * W || box.u1 > (1 + RUG_CUT) * W;
}

/** Every rule a placement must satisfy; reasons are for tests and debugging. */
export function violation(room: RoomModel, p: Placement, placed: Placement[]): string | null {
  const { left, right, back } = room.box;
  const fp = footprint(p);
  const W = room.camera.p.width;
  const H = room.camera.p.height;
  const wallPiece = p.kind === 'art';
  // Worktop pieces stand on the cabinets, which may reach past the box's wall plane.
  const raised = wallPiece || onCounter(p);
  if (!raised) {
    // Near the camera, a side wall whose floor line the photo barely shows may stand well inside
    // the box's: a foreground chair keeps off it, and so does a rug's near end, which would run
    // under it.
    const unsure = (side: 'left' | 'right') => 0.02 + (UNSURE_WALL - 0.02) * (1 - smoothstep(FAINT_WALL[0], FAINT_WALL[1], room.box.nearEvidence[side]));
    const [unsureLeft, unsureRight] = [unsure('left'), unsure('right')];
    for (const [x, z] of fp) {
      const near = p.foreground || (p.kind === 'rug' && z < NEAR_FLOOR[1]);
      if (x < left + (near ? unsureLeft : 0.02) || x > right - (near ? unsureRight : 0.02) || z > back - 0.02) return 'outside floor';
      if (z < 0.6) return 'behind camera';
    }
  }
  const box = imageBox(room, p);
  if (!box) return 'behind camera';
  // A chair in the foreground may be cut by a side of the frame too, as a photographer leaves it, up to a quarter of its width; so may a rug.
  const sideMargin = p.kind === 'rug' ? -Math.max(RUG_CUT * W, 0.25 * (box.u1 - box.u0)) : p.foreground ? -0.25 * (box.u1 - box.u0) : 0.02 * W;
  if (box.u0 < sideMargin || box.u1 > W - sideMargin || box.v0 < 0.01 * H) return 'out of frame';
  // A chair in the foreground may be cut by the frame's bottom edge, as a photographer leaves it; its seat stays in.
  if (p.foreground ? box.v0 > 0.8 * H || box.v1 > 1.03 * H : box.v1 > (p.kind === 'rug' ? 1 : 0.985) * H) return 'out of frame';
  if (p.kind === 'pendant' && showsFitting(room, p)) return 'before a light fitting';
  if (wallPiece && clutteredShare(room, grown(box, PLAIN_WALL.margin), PLAIN_WALL.level) > PLAIN_WALL.share) return 'on a busy wall';
  if (p.foreground && behindDoorLeaf(room, p, box)) return 'behind a door leaf';
  if (p.foreground) {
    // Much nearer than the sofa, it towers over the group it belongs to.
    const sofa = placed.find((q) => q.kind === 'sofa');
    const sofaBox = sofa && imageBox(room, sofa);
    if (!sofaBox || box.v1 - box.v0 > 1.5 * (sofaBox.v1 - sofaBox.v0)) return 'camera foreground';
  }
  if (p.kind !== 'rug' && !raised && !p.foreground) {
    // Nothing stands right before the camera but a chair put there on purpose; big pieces keep further back.
    const depth = room.camera.toCamera([p.x, 0, p.z])[2];
    if (depth < (p.size.w > 1.5 ? 2.4 : 1.8)) return 'camera foreground';
  }
  for (const o of room.openings) {
    if (onFloor(p)) {
      const blocks = o.kind === 'door' || p.size.h + p.lift > o.bottom - 0.05;
      if (blocks && polygonsOverlap(fp, openingZone(room, o))) return `in front of ${o.kind}`;
    }
    if (p.kind === 'rug') continue;
    const ob = openingImageBox(room, o);
    const area = Math.max(1, (ob.u1 - ob.u0) * (ob.v1 - ob.v0));
    let hidden = 0;
    for (const part of silhouette(room, p) ?? [box]) hidden += overlapArea(part, ob);
    // A doorway into an unlit hall is no view: a low piece may stand before part of it, its walkway clear.
    const near = o.passage && p.size.h + p.lift < 1.2 ? 0.25 : 0.08;
    // A doorway metres behind the piece is not blocked by it, only partly hidden, as anything in a
    // deep room hides some of its far wall; a window, the room's view, is kept clear at any depth.
    const behind = o.kind === 'door' ? wallCoords(room, o.wall, p.x, p.z).dist - Math.max(p.size.w, p.size.d) / 2 : 0;
    if ((hidden * (SEE_THROUGH[p.kind] ?? 1)) / area > near + (FAR_DOOR_HIDDEN - near) * smoothstep(FAR_DOOR[0], FAR_DOOR[1], behind)) return `hides ${o.kind}`;
  }
  // A rug lies flat: it may run up to a window's wall, and a doorway is kept clear by the openings' rule above.
  for (const wall of onCounter(p) || p.kind === 'rug' ? [] : room.walls) {
    for (const [x, z] of fp) {
      const { dist, along } = wallCoords(room, wall.id, x, z);
      if (dist > 0.35) continue;
      // Cabinets stand between the piece and that wall: what the wall holds is above them.
      if (room.counters.some((c) => c.wall === wall.id && along >= c.from && along <= c.to)) continue;
      if (wall.blocked.some(([a, b]) => along > a - 0.05 && along < b + 0.05)) return 'against blocked wall';
    }
  }
  if (onFloor(p) && room.counters.some((c) => polygonsOverlap(fp, counterZone(room, c), 0.03))) return 'in a counter';
  if (!onCounter(p)) {
    for (const o of room.obstacles) {
      if (!raised && polygonsOverlap(fp, obstacleZone(o), 0.03)) return 'on an obstacle';
      // The photo's object would hide anything deeper that it overlaps, and the renderer cannot.
      const ob = obstacleImageBox(room, o);
      if (!ob || !fp.some(([, z]) => z > o.near)) continue;
      if (box.u0 < ob.u1 && ob.u0 < box.u1 && box.v0 < ob.v1 && ob.v0 < box.v1) return 'behind an obstacle';
    }
  }
  for (const q of placed) {
    if (p.kind === 'rug' || q.kind === 'rug') continue;
    if (wallPiece !== (q.kind === 'art')) continue;
    if (!wallPiece && (!onFloor(p) || !onFloor(q))) continue;
    if (wallPiece) {
      const a = imageBox(room, p);
      const b = imageBox(room, q);
      if (a && b && a.u0 < b.u1 && b.u0 < a.u1 && a.v0 < b.v1 && b.v0 < a.v1) return 'overlaps art';
      continue;
    }
    if (tucked(p.kind, q.kind)) continue;
    if (polygonsOverlap(fp, footprint(q), 0.03)) return `overlaps ${q.kind}`;
  }
  return null;
}

/** A piece of a group, positioned in the anchor's frame: `along` the wall, `out` from it. */
interface Slot {
  kind: PieceKind;
  along: number;
  out: number;
  yaw: number;
  weight: number;
  lift?: number;
  size?: Size;
  /** Other positions along the wall, tried in order when the first is not valid. */
  alternatives?: number[];
  /** A smaller piece tried where this one fits nowhere (a small room's coffee table). */
  fallback?: Slot;
}

interface Group {
  anchor: PieceKind;
  slots: Slot[];
  /** The same pieces arranged otherwise, each tried against every wall and scored beside this one. */
  variants?: Group[];
  /** A piece without which this arrangement is not made: what a variant was arranged for. */
  needs?: PieceKind;
}

/** What a room type's recipe reads: the style, its piece sizes, and the ceiling for wall art. */
interface RecipeContext {
  style: StyleDef;
  size: (kind: PieceKind) => Size;
  /** Height of the centre of art `height` tall hung above `top`, kept clear of the ceiling. */
  artLift: (top: number, height: number) => number;
  /** Which of the recipe's arrangements (a variation's companions): 0 is the recipe's first. */
  arrangement: number;
}

/**
 * A sofa facing a coffee table on a rug, with art above it; around them, per arrangement: an
 * armchair, a side table, lamp and plant (0); a pair of armchairs facing each other across the
 * table, a plant (1); a sideboard along the wall beside the sofa, a lamp at the other end (2).
 */
function livingRoomGroup({ size, artLift, arrangement }: RecipeContext): Group {
  const sofa = size('sofa');
  const coffeeTable = size('coffeeTable');
  const armchair = size('armchair');
  const art = { ...size('art'), w: Math.min(1.3, sofa.w * 0.55) };
  const coffeeTableOut = sofa.d + 0.42 + coffeeTable.d / 2;
  const chairAlong = sofa.w / 2 + 0.2 + armchair.w / 2;
  // Turned towards the coffee table from either side.
  const chair = (along: number, alternatives: number[]): Slot => ({ kind: 'armchair', along, out: coffeeTableOut + 0.1, yaw: -Math.sign(along) * (Math.PI / 2 - 0.25), weight: 2, alternatives });
  const beside = (kind: PieceKind, along: number, out: number): Slot => ({ kind, along, out, yaw: 0, weight: 1, alternatives: [-along] });
  const companions: Slot[][] = [
    [chair(chairAlong, [-chairAlong]), beside('sideTable', -(sofa.w / 2 + 0.3), 0.3), beside('floorLamp', sofa.w / 2 + 0.3, 0.3), beside('plant', -(sofa.w / 2 + 0.85), 0.33)],
    [chair(chairAlong, []), chair(-chairAlong, []), beside('plant', sofa.w / 2 + 0.45, 0.33)],
    [beside('sideboard', -(sofa.w / 2 + 0.35 + size('sideboard').w / 2), size('sideboard').d / 2 + 0.02), beside('floorLamp', sofa.w / 2 + 0.3, 0.3)],
  ];
  return {
    anchor: 'sofa',
    slots: [
      { kind: 'rug', along: 0, out: sofa.d * 0.75 + 0.7, yaw: 0, weight: 2, size: { ...size('rug'), w: Math.min(sofa.w + 0.3, 2.6), d: 1.7 } },
      { kind: 'sofa', along: 0, out: sofa.d / 2 + 0.04, yaw: 0, weight: 10 },
      {
        kind: 'coffeeTable',
        along: 0,
        out: coffeeTableOut,
        yaw: 0,
        weight: 3,
        // A narrow room still gets its table: a fifth smaller, a little nearer the sofa.
        fallback: { kind: 'coffeeTable', along: 0, out: sofa.d + 0.36 + (0.8 * coffeeTable.d) / 2, yaw: 0, weight: 2.5, size: scaleSize(coffeeTable, 0.8) },
      },
      ...companions[arrangement % companions.length]!,
      { kind: 'art', along: 0, out: 0, yaw: 0, weight: 1, lift: artLift(sofa.h, art.h), size: art },
    ],
  };
}

/**
 * A bed between two nightstands, art over the headboard; per arrangement a bench at its foot
 * and a plant (0), an armchair in the corner beside it (1), a bench and a floor lamp (2).
 */
function bedroomGroup({ style, size, artLift, arrangement }: RecipeContext): Group {
  const bed = size('bed');
  const nightstand = size('nightstand');
  const art = { ...size('art'), w: Math.min(1.2, bed.w * 0.7), h: 0.55 };
  const nightstandAlong = bed.w / 2 + 0.1 + nightstand.w / 2;
  // 5 cm clear of the bed's foot: pieces keep 3 cm apart (violation), and at 2 cm the bench was never placed.
  const bench: Slot = { kind: 'bench', along: 0, out: bed.d + 0.15 + size('bench').d / 2, yaw: 0, weight: 1 };
  const corner = bed.w / 2 + 0.95;
  // Beside a nightstand, clear of it (at the corner's 20 cm less it stood in the nightstand and was never placed).
  const lampAlong = nightstandAlong + nightstand.w / 2 + 0.08 + size('floorLamp').w / 2;
  const companions: Slot[][] = [
    [bench, { kind: 'plant', along: corner, out: 0.35, yaw: 0, weight: 1, alternatives: [-corner] }],
    [{ kind: 'armchair', along: corner + 0.1, out: 0.75, yaw: -0.6, weight: 1, alternatives: [-(corner + 0.1)] }],
    [bench, { kind: 'floorLamp', along: lampAlong, out: 0.3, yaw: 0, weight: 1, alternatives: [-lampAlong] }],
  ];
  return {
    anchor: 'bed',
    slots: [
      { kind: 'rug', along: 0, out: bed.d * 0.62, yaw: 0, weight: 2, size: { ...size('rug'), w: bed.w + 1.1, d: 1.9 } },
      { kind: 'bed', along: 0, out: bed.d / 2 + 0.1, yaw: 0, weight: 10 },
      { kind: 'nightstand', along: nightstandAlong, out: nightstand.d / 2 + 0.03, yaw: 0, weight: 2 },
      { kind: 'nightstand', along: -nightstandAlong, out: nightstand.d / 2 + 0.03, yaw: 0, weight: 2 },
      ...companions[arrangement % companions.length]!,
      { kind: 'art', along: 0, out: 0, yaw: 0, weight: 1, lift: artLift(headboardTop(bed.h, style), art.h), size: art },
    ],
  };
}

/**
 * A desk against the wall with its chair turned out, on a rug that runs from under the desk to
 * past the chair (as a stager lays one, so the chair rolls on it and the corner reads as a
 * room, not a desk left against a wall), a shelf and a plant beside it.
 */
function officeGroup({ size, artLift }: RecipeContext): Group {
  const desk = size('desk');
  const shelf = size('shelf');
  const shelfAlong = desk.w / 2 + 0.35 + shelf.w / 2;
  const rugD = desk.d + 0.95;
  return {
    anchor: 'desk',
    slots: [
      {
        kind: 'rug',
        along: 0,
        out: 0.05 + rugD / 2,
        yaw: 0,
        weight: 2,
        size: { ...size('rug'), w: desk.w + 0.7, d: rugD },
        // Where that meets something standing on the floor, one just wider than the desk.
        fallback: { kind: 'rug', along: 0, out: 0.05 + rugD / 2, yaw: 0, weight: 2, size: { ...size('rug'), w: desk.w + 0.3, d: rugD } },
      },
      { kind: 'desk', along: 0, out: desk.d / 2 + 0.03, yaw: 0, weight: 10 },
      { kind: 'officeChair', along: 0.05, out: desk.d + 0.05, yaw: Math.PI + 0.25, weight: 4 },
      { kind: 'shelf', along: shelfAlong, out: shelf.d / 2 + 0.02, yaw: 0, weight: 3, alternatives: [-shelfAlong] },
      // Beside the desk, or past the shelf where it would hide the desk's lamp.
      { kind: 'plant', along: -(desk.w / 2 + 0.4), out: 0.35, yaw: 0, weight: 1, alternatives: [desk.w / 2 + 0.4, shelfAlong + shelf.w / 2 + 0.35, -(shelfAlong + shelf.w / 2 + 0.35)] },
      { kind: 'art', along: 0, out: 0, yaw: 0, weight: 1, lift: artLift(desk.h + 0.45, 0.5), size: { ...size('art'), w: 0.8, h: 0.5 } },
    ],
  };
}

/**
 * A table out in the room on a rug, chairs facing each other across it (`chairsPerSide` for the
 * table's size), a pendant over it: what the dining room and the kitchen share.
 */
function tableWithChairs({ size }: RecipeContext, kind: PieceKind, chairsPerSide: (table: Size) => number): { table: Size; edge: number; slots: Slot[] } {
  const table = size(kind);
  const chair = size('chair');
  // An aisle between the wall and the far chairs.
  const aisle = 1.0;
  const tableOut = table.d / 2 + aisle + 0.2;
  const slots: Slot[] = [
    {
      kind: 'rug',
      along: 0,
      out: tableOut,
      yaw: 0,
      weight: 2,
      size: { ...size('rug'), w: table.w + 1.3, d: table.d + 1.3 },
      // A narrow room's: still under every chair tucked in.
      fallback: { kind: 'rug', along: 0, out: tableOut, yaw: 0, weight: 2, size: { ...size('rug'), w: table.w + 0.9, d: table.d + 0.8 } },
    },
    { kind, along: 0, out: tableOut, yaw: 0, weight: 10 },
  ];
  const perSide = chairsPerSide(table);
  const tuck = chair.d / 2 - 0.08;
  for (const side of [-1, 1]) {
    for (let i = 0; i < perSide; i++) {
      const along = perSide === 1 ? 0 : (i - (perSide - 1) / 2) * (table.w / perSide);
      const slot: Slot = { kind: 'chair', along, out: tableOut + side * (table.d / 2 + tuck), yaw: side > 0 ? Math.PI : 0, weight: 1.5 };
      // Where the room side's end chairs do not fit (a doorway, a narrow room), one stands at that
      // end of the table instead, facing along it: a table with chairs on its wall side only read
      // as a bench against the wall.
      const end = Math.sign(along);
      if (side > 0 && perSide > 1 && end !== 0 && (i === 0 || i === perSide - 1)) {
        slot.fallback = { kind: 'chair', along: end * (table.w / 2 + tuck), out: tableOut, yaw: (-end * Math.PI) / 2, weight: 1.5 };
      }
      slots.push(slot);
    }
  }
  slots.push({ kind: 'pendant', along: 0, out: tableOut, yaw: 0, weight: 0.5, lift: PENDANT_HEIGHT });
  return { table, edge: tableOut - table.d / 2, slots };
}

/**
 * A long dining table with two or three chairs a side, a sideboard and a plant. The sideboard
 * stands against the wall beside the table, or behind it with the whole table drawn out until
 * its edge is SIDEBOARD_AISLE from the sideboard's doors: behind the table where it stood, the
 * far chairs' backs were 29 cm from the doors and could not be pulled out. Where neither fits,
 * the table goes without a sideboard.
 */
function diningRoomGroup(ctx: RecipeContext): Group {
  const { table, edge, slots } = tableWithChairs(ctx, 'diningTable', (t) => (t.w > 1.7 ? 3 : 2));
  const sideboard = ctx.size('sideboard');
  const beside = table.w / 2 + 0.3 + sideboard.w / 2;
  const against = (along: number, alternatives: number[]): Slot => ({ kind: 'sideboard', along, out: sideboard.d / 2 + 0.02, yaw: 0, weight: 1.5, alternatives });
  const plant: Slot = { kind: 'plant', along: table.w / 2 + 0.6, out: 0.35, yaw: 0, weight: 1, alternatives: [-(table.w / 2 + 0.6)] };
  const drawnOut = shrunk({ anchor: 'diningTable', slots }, ctx.style, 1, edge - (sideboard.d + 0.02 + SIDEBOARD_AISLE)).slots;
  return {
    anchor: 'diningTable',
    slots: [...slots, against(beside, [-beside]), plant],
    variants: [{ anchor: 'diningTable', slots: [...drawnOut, against(0, []), plant], needs: 'sideboard' }],
  };
}

/** Between a dining table's edge and the doors of a sideboard behind it (metres): room to pull a chair out and pass behind it. */
const SIDEBOARD_AISLE = 0.95;

/** A round table for two and a plant, for kitchens without an island the stools can face. */
function kitchenGroup(ctx: RecipeContext): Group {
  const { table, slots } = tableWithChairs(ctx, 'roundTable', () => 1);
  slots.push({ kind: 'plant', along: table.w / 2 + 0.5, out: 0.3, yaw: 0, weight: 1, alternatives: [-(table.w / 2 + 0.5)] });
  return { anchor: 'roundTable', slots };
}

/** Every room type's recipe: a Record, so a new room type does not compile until it has one. */
const GROUPS: Record<RoomType, (ctx: RecipeContext) => Group> = {
  living_room: livingRoomGroup,
  bedroom: bedroomGroup,
  office: officeGroup,
  dining_room: diningRoomGroup,
  kitchen: kitchenGroup,
};

function groupFor(roomType: RoomType, style: StyleDef, ceiling: number, arrangement: number): Group {
  return GROUPS[roomType]({
    style,
    size: (kind) => pieceSize(kind, style),
    artLift: (top, height) => Math.min(ceiling - 0.35 - height / 2, top + 0.25 + height / 2),
    arrangement,
  });
}

/** Whether a companion piece, standing nearer the camera, would cover much of the group's main piece. */
function hidesAnchor(room: RoomModel, p: Placement, placed: Placement[], anchor: PieceKind, limit = 0.3): boolean {
  if (['rug', 'art', 'pendant', 'chair', 'officeChair', anchor].includes(p.kind)) return false;
  const main = placed.find((q) => q.kind === anchor);
  return main ? hides(room, p, main, limit) : false;
}

/** Whether p, standing nearer the camera than `main`, covers more than `limit` of main's outline in the photo. */
function hides(room: RoomModel, p: Placement, main: Placement, limit: number): boolean {
  const a = imageBox(room, p);
  const b = imageBox(room, main);
  if (!a || !b) return false;
  if (room.camera.toCamera([p.x, 0, p.z])[2] >= room.camera.toCamera([main.x, 0, main.z])[2]) return false;
  return overlapArea(a, b) / Math.max(1, (b.u1 - b.u0) * (b.v1 - b.v0)) > limit;
}

/** The area (pixels) two image boxes share. */
function overlapArea(a: ImageBox, b: ImageBox): number {
  return Math.max(0, Math.min(a.u1, b.u1) - Math.max(a.u0, b.u0)) * Math.max(0, Math.min(a.v1, b.v1) - Math.max(a.v0, b.v0));
}

/** Pieces lower than this (metres) stand below a seat's height: a coffee table, a bench, a pouf (not a side table, 0.55 m). */
const LOW_PIECE = 0.5;

/** Height of a pendant shade's rim above the floor (over a dining table). */
const PENDANT_HEIGHT = 1.6;

const FAR_SIDE: ReadonlyArray<PieceKind> = ['armchair', 'floorLamp', 'plant', 'shelf'];

/**
 * Whether a tall companion would stand well in front of the group, alone in the foreground (a
 * sideboard beside a sofa at the far wall ends up there: a dark block nearest the camera). The
 * group's front is the nearer of its anchor and the coffee table before it: armchairs drawn up
 * to the table stand as far forward as it does, and belong to the group there.
 */
function standsForward(room: RoomModel, p: Placement, placed: Placement[], anchor: PieceKind): boolean {
  if (!(FAR_SIDE.includes(p.kind) || p.kind === 'sideboard')) return false;
  const depth = (q: Placement) => room.camera.toCamera([q.x, 0, q.z])[2];
  const front = placed.filter((q) => q.kind === anchor || q.kind === 'coffeeTable').map(depth);
  return front.length > 0 && depth(p) < Math.min(...front) - 0.8;
}

/** Wall frames: origin on the wall at `along`, yaw so that local +Z points into the room. */
function wallFrame(room: RoomModel, wall: WallId, along: number): { x: number; z: number; yaw: number } {
  const { left, right, back } = room.box;
  if (wall === 'left') return { x: left, z: along, yaw: Math.PI / 2 };
  if (wall === 'right') return { x: right, z: along, yaw: -Math.PI / 2 };
  return { x: along, z: back, yaw: Math.PI };
}

/** The slot's piece at `along` in a wall frame. */
function place(frame: { x: number; z: number; yaw: number }, slot: Slot, along: number, style: StyleDef): Placement {
  const cos = Math.cos(frame.yaw);
  const sin = Math.sin(frame.yaw);
  const size = slot.size ?? pieceSize(slot.kind, style);
  // A piece moved to the other side of the group turns to face it from there.
  const yaw = slot.along !== 0 && Math.sign(along) !== Math.sign(slot.along) ? -slot.yaw : slot.yaw;
  return {
    kind: slot.kind,
    x: frame.x + cos * along + sin * slot.out,
    z: frame.z - sin * along + cos * slot.out,
    yaw: frame.yaw + yaw,
    size,
    lift: slot.lift ?? 0,
  };
}

function placeGroup(room: RoomModel, group: Group, frame: { x: number; z: number; yaw: number }, style: StyleDef, mirror: number): { placed: Placement[]; score: number } | null {
  const placed: Placement[] = [];
  let score = 0;
  for (const wanted of group.slots) {
    if (style.omit.includes(wanted.kind)) continue;
    let slot = wanted;
    let ok = placeSlot(room, group, slot, frame, style, mirror, placed);
    while (!ok && slot.fallback) {
      slot = slot.fallback;
      ok = placeSlot(room, group, slot, frame, style, mirror, placed);
    }
    if (!ok) {
      if (wanted.kind === group.anchor) return null;
      // The room's own light fitting hangs where the pendant would: it serves the table as well.
      if (wanted.kind === 'pendant' && showsFitting(room, place(frame, wanted, wanted.along * mirror, style))) score += wanted.weight;
      continue;
    }
    placed.push(ok);
    // A rug the frame cuts grounds the group as well, but a whole one shows the room's scale: it counts half.
    score += ok.kind === 'rug' && rugCut(room, ok) ? slot.weight / 2 : slot.weight;
  }
  if (group.needs && !placed.some((p) => p.kind === group.needs)) return null;
  return { placed, score };
}

/** The slot's piece at the first of its positions that breaks no rule and neither hides nor crowds the anchor; null if none. */
function placeSlot(room: RoomModel, group: Group, slot: Slot, frame: { x: number; z: number; yaw: number }, style: StyleDef, mirror: number, placed: Placement[]): Placement | null {
  const sides = [slot.along * mirror, ...(slot.alternatives ?? []).map((a) => a * mirror)];
  const options = sides.map((along) => place(frame, slot, along, style)).filter((p) => !violation(room, p, placed));
  // Tall companions go to the far side, where they frame the group instead of hiding it.
  if (FAR_SIDE.includes(slot.kind)) options.sort((a, b) => room.camera.toCamera([b.x, 0, b.z])[2] - room.camera.toCamera([a.x, 0, a.z])[2]);
  // A low piece before the anchor (a coffee table before a sofa facing the camera) may cover its
  // front up to the seat, as it does in any photo of such a group; a taller one may not.
  const limit = (p: Placement) => (p.size.h + p.lift < LOW_PIECE ? 0.5 : 0.3);
  return options.find((p) => !hidesAnchor(room, p, placed, group.anchor, limit(p)) && !standsForward(room, p, placed, group.anchor) && !hidesDeskLamp(room, p, placed)) ?? null;
}

/**
 * Whether a tall companion standing nearer the camera would cover much of the desk's lamp in the
 * photo: a plant beside the lamp's end of a desk seen along its wall hid the lamp in its crown.
 */
function hidesDeskLamp(room: RoomModel, p: Placement, placed: Placement[]): boolean {
  if (!FAR_SIDE.includes(p.kind)) return false;
  const desk = placed.find((q) => q.kind === 'desk');
  return desk ? hides(room, p, deskLamp(desk), 0.3) : false;
}

/** The desk's lamp (furniture.ts DESK_LAMP) as a piece of its own: where it stands on the worktop, its shade's width and height. */
export function deskLamp(desk: Placement): Placement {
  const [x, z] = planPoint(desk, -desk.size.w / 2 + DESK_LAMP.inset, -desk.size.d / 2 + DESK_LAMP.back);
  const side = 2 * DESK_LAMP.radius;
  return { kind: 'floorLamp', x, z, yaw: desk.yaw, size: { w: side, d: side, h: DESK_LAMP.top }, lift: desk.size.h };
}

/** The layout of one staging: the best of layoutVariations. */
export function layoutRoom(room: RoomModel, roomType: RoomType, style: StyleDef): Placement[] {
  return layoutVariations(room, roomType, [style])[0]!;
}

type Candidate = { placed: Placement[]; score: number };

/** How far a variation's layout may score below the best one and still be offered. */
const VARIATION_SLACK = 3;

/**
 * How different two layouts look, 1 or more meaning at a glance: the main piece (the first
 * standing one) moved a metre or more, or turned to another wall (`main`); or its companions
 * stand elsewhere by 70 cm or more on average, pieces one layout lacks counting as moved 1.5 m
 * (`companions`: the group mirrored, other pieces). Rugs and art follow the main piece.
 */
export function layoutDistance(a: Placement[], b: Placement[]): { main: number; companions: number } {
  const standing = (p: Placement) => p.kind !== 'rug' && p.kind !== 'art';
  const ma = a.find(standing);
  const mb = b.find(standing);
  if (!ma || !mb) return { main: ma === mb ? 0 : 1, companions: 0 };
  const turn = Math.abs(Math.atan2(Math.sin(ma.yaw - mb.yaw), Math.cos(ma.yaw - mb.yaw)));
  const rest = a.filter((p) => p !== ma && standing(p));
  let moved = 0;
  for (const p of rest) {
    const same = b.filter((q) => q.kind === p.kind);
    moved += same.length ? Math.min(...same.map((q) => Math.hypot(q.x - p.x, q.z - p.z))) : 1.5;
  }
  const lacking = b.filter((q) => q !== mb && standing(q) && !a.some((p) => p.kind === q.kind)).length;
  return { main: Math.max(Math.hypot(ma.x - mb.x, ma.z - mb.z), turn > 0.5 ? 1 : 0), companions: (moved + 1.5 * lacking) / Math.max(1, rest.length + lacking) / 0.7 };
}

/**
 * The layout of each variation, one per furniture set (the variations' sets, set.ts), each with
 * its own arrangement of companions. The first is the best layout. Each further one is, among
 * the layouts within VARIATION_SLACK of its own best, the best whose main piece stands
 * elsewhere than in every earlier one (another wall, another place along it); failing that, the
 * best whose companions do (the group mirrored, other pieces); where the room allows neither,
 * the one least like the earlier ones.
 */
export function layoutVariations(room: RoomModel, roomType: RoomType, sets: StyleDef[]): Placement[][] {
  const chosen: Placement[][] = [];
  for (const [k, style] of sets.entries()) {
    const candidates = layoutCandidates(room, roomType, style, k).sort((a, b) => b.score - a.score);
    const best = bestClosed(room, roomType, style, chosen);
    const top = candidates[0]!.score;
    const near = candidates.filter((c) => c.score >= top - VARIATION_SLACK);
    const apart = (c: Candidate, key: 'main' | 'companions') => chosen.every((q) => layoutDistance(c.placed, q)[key] >= 1);
    const least = (c: Candidate) => Math.min(...chosen.map((q) => Math.max(...Object.values(layoutDistance(c.placed, q)))));
    // Failing both, the least like them of the layouts within twice the slack: further down the
    // list are a desk without its chair, a table without its chairs.
    const fair = candidates.filter((c) => c.score >= top - 2 * VARIATION_SLACK);
    const pick =
      best(near.filter((c) => apart(c, 'main'))) ??
      best(near.filter((c) => apart(c, 'companions'))) ??
      best([fair.reduce((most, c) => (least(c) > least(most) + 1e-9 ? c : most))])!;
    chosen.push(pick.placed);
  }
  return chosen;
}

/**
 * An office is a desk against one wall, a bedroom a bed: in a large room the rest of the floor,
 * all the photo's foreground, was left bare. A stager furnishes a second zone there, a reading
 * chair with its floor lamp or side table: the chair nearer the camera than the desk or bed by
 * READING_NEARER or more, with its back to a side wall and turned into the room or partly to the
 * lens, or out on the floor three-quarters to it; in frame and clear of the openings, hiding none
 * of the group; the lamp beside it on the far side (a plant where the style has no lamp). The
 * layout with the corner, or as it is where the foreground is furnished already or the group has
 * its own armchair; null where no chair with its lamp or table fits.
 */
function readingCorner(room: RoomModel, placed: Placement[], style: StyleDef, earlier: Placement[][]): Placement[] | null {
  const main = placed.find((p) => p.kind === 'desk' || p.kind === 'bed');
  if (!main) return null;
  if (placed.some((p) => p.kind === 'armchair' || p.kind === 'slingChair')) return placed;
  const depth = (x: number, z: number) => room.camera.toCamera([x, 0, z])[2];
  const mainDepth = depth(main.x, main.z);
  if (placed.some((p) => onFloor(p) && p.size.w * p.size.d > 0.3 && depth(p.x, p.z) < mainDepth - READING_NEARER)) return placed;
  const kind = !style.omit.includes('armchair') ? 'armchair' : !style.omit.includes('slingChair') ? 'slingChair' : null;
  if (!kind) return null;
  const size = pieceSize(kind, style);
  const ideal = Math.max(READING_DEPTH + 0.4, 0.6 * mainDepth);
  // Seen from the front or the side: a chair turned away reads as left there, not set out to sit in.
  const least = Math.max(MIN_FACING[kind] ?? 0, READING_FACING);
  const { left, right } = room.box;
  const around = placed.filter((q) => onFloor(q)).flatMap((q) => imageBox(room, q) ?? []);
  // Room to walk between the corner and the group: a chair against the bed's foot or the desk read as pushed aside.
  const apart = (p: Placement) => !placed.some((q) => onFloor(q) && polygonsOverlap(footprint(p), footprint(q), READING_CLEAR));
  // Earlier variations' reading chairs: a variation's stands a metre from each or is left out,
  // the variations alike but for it read as one staging.
  const taken = earlier.flatMap((l) => l.filter((q) => q.kind === kind && !placed.includes(q)));
  const repeat = (x: number, z: number) => taken.some((q) => Math.hypot(q.x - x, q.z - z) < 1);
  const poses: Array<{ x: number; z: number; yaw: number; wall: -1 | 0 | 1; cost: number }> = [];
  for (let z = 1.2; z < room.box.back - 0.5; z += 0.1) {
    for (let x = left + 0.4; x < right - 0.4; x += 0.1) {
      const d = depth(x, z);
      if (d > mainDepth - READING_NEARER || d < READING_DEPTH || repeat(x, z)) continue;
      const toLens = Math.atan2(-x, -z);
      // Three-quarters to the camera, turned towards the room's middle rather than a wall.
      for (const yaw of [toLens - 0.7, toLens + 0.7]) {
        const facing = lensFacing(yaw, x, z);
        if (facing < least || Math.sin(yaw) * ((left + right) / 2 - x) < 0) continue;
        poses.push({ x, z, yaw, wall: 0, cost: Math.abs(d - ideal) - FRONT_VIEW_GAIN * facing + READING_FLOATING_COST });
      }
    }
    for (const wall of [-1, 1] as const) {
      // Back to a side wall, facing across the room (+X from the left wall), or turned a quarter
      // or a half of the way to the camera; a hand clear of the wall at its nearest corner.
      const across = (-wall * Math.PI) / 2;
      const toLens = Math.atan2(-(wall < 0 ? left : right), -z);
      for (const yaw of [across, between(across, between(across, toLens)), between(across, toLens)]) {
        const reach = (Math.abs(Math.sin(yaw)) * size.d + Math.abs(Math.cos(yaw)) * size.w) / 2 + 0.1;
        const x = wall < 0 ? left + reach : right - reach;
        const d = depth(x, z);
        const facing = lensFacing(yaw, x, z);
        if (d > mainDepth - READING_NEARER || d < READING_DEPTH || facing < least || repeat(x, z)) continue;
        poses.push({ x, z, yaw, wall, cost: Math.abs(d - ideal) - FRONT_VIEW_GAIN * Math.max(0, facing) });
      }
    }
  }
  poses.sort((a, b) => a.cost - b.cost);
  for (const { x, z, yaw, wall } of poses) {
    const chair: Placement = { kind, x, z, yaw, size, lift: 0 };
    if (violation(room, chair, placed)) continue;
    if (!clearInPhoto(room, chair, around) || !apart(chair)) continue;
    if (placed.some((q) => READING_KEEPS_IN_VIEW.includes(q.kind) && hides(room, chair, q, 0.15))) continue;
    const withChair = [...placed, chair];
    const extra = wall ? wallLamp(room, chair, wall, style) : sideTableBeside(chair, style);
    // Its companion clear of the group in the photo and on the floor too, and not behind the
    // chair. A chair alone reads as left behind, not set out: without one, the next place.
    const fits = (q: Placement) => !violation(room, q, withChair) && clearInPhoto(room, q, around) && apart(q) && !hides(room, chair, q, 0.3);
    const companion = extra.find(fits);
    if (companion) return [...withChair, companion];
  }
  return null;
}

/**
 * Whether a reading corner's piece stands clear in the photo: its outline filling at most
 * READING_AREA of the frame and READING_MARGIN off its sides, sharing at most a tenth with the
 * staged pieces' outlines (`around`), before no more than 5 % of an opening and clear of any
 * door leaf opened into the room, before it or behind. A reviewer found the corners a stager
 * would not have set out against a bench, a desk, a door leaf or a window, or filling 6-15 % of
 * the frame to the eye (8-20 % as outlined here); the good ones 4-5.5 % (6-7.5 %).
 */
function clearInPhoto(room: RoomModel, p: Placement, around: ImageBox[]): boolean {
  const box = imageBox(room, p);
  if (!box) return false;
  const { width, height } = room.camera.p;
  if ((box.u1 - box.u0) * (box.v1 - box.v0) > READING_AREA * width * height || box.u0 < READING_MARGIN * width || box.u1 > (1 - READING_MARGIN) * width) return false;
  if (sharedOutline(box, around) > 0.1) return false;
  const openings = room.openings.map((o) => openingImageBox(room, o));
  return !openings.some((o) => overlapArea(box, o) > 0.05 * (o.u1 - o.u0) * (o.v1 - o.v0)) && !behindDoorLeaf(room, p, box, true);
}

/** Floor kept clear between a reading corner's pieces and the group's (metres). */
const READING_CLEAR = 0.6;
/** The group's pieces a reading corner hides no more than 15 % of. */
const READING_KEEPS_IN_VIEW: ReadonlyArray<PieceKind> = ['desk', 'officeChair', 'shelf', 'plant', 'bed', 'nightstand'];
/** How much nearer the camera than the desk or bed (metres) a reading corner stands: a zone of its own, not the desk's visitor chair. */
const READING_NEARER = 1.2;
/**
 * How far from the camera a reading chair stands at least (metres), how much of the frame its
 * outline may fill, and how far (a share of the width) it keeps off the frame's sides: in the
 * mid-foreground, whole. At 2.6 m a wingback filled half the open-plan room's photo and read as
 * the photo's subject, the desk behind it an afterthought.
 */
const READING_DEPTH = 2.8;
const READING_AREA = 0.08;
const READING_MARGIN = 0.04;
/** How far at least a reading chair turns to the camera (closingChair's facing measure: 1 its front, 0 its side). */
const READING_FACING = 0.1;
/** What a reading chair standing out on the floor costs beside one with its back to a side wall, as metres off its ideal depth. */
const READING_FLOATING_COST = 1;

/**
 * A reading chair's floor lamp against the side wall behind it, past its footprint: at its arm
 * farther from the camera, so the chair does not hide it, or at the nearer one (a plant where
 * the style has no lamp). In the order to try.
 */
function wallLamp(room: RoomModel, chair: Placement, wall: -1 | 1, style: StyleDef): Placement[] {
  const kind = !style.omit.includes('floorLamp') ? 'floorLamp' : 'plant';
  const size = pieceSize(kind, style);
  const ends = footprint(chair).map(([, z]) => z);
  const x = wall < 0 ? room.box.left + size.d / 2 + 0.1 : room.box.right - size.d / 2 - 0.1;
  return [1, -1].map((side) => ({ kind, x, z: (side > 0 ? Math.max(...ends) : Math.min(...ends)) + side * (0.06 + size.w / 2), yaw: 0, size, lift: 0 }));
}

/**
 * A side table at a reading chair's arm out on the floor (a plant where the style has none):
 * the arm farther from the camera first. In the order to try.
 */
function sideTableBeside(chair: Placement, style: StyleDef): Placement[] {
  const kind = !style.omit.includes('sideTable') ? 'sideTable' : 'plant';
  const size = pieceSize(kind, style);
  const reach = chair.size.w / 2 + 0.06 + size.w / 2;
  const arms = [1, -1].map((side) => {
    const [x, z] = planPoint(chair, side * reach, 0);
    return { kind, x, z, yaw: chair.yaw, size, lift: 0 } satisfies Placement;
  });
  return arms.sort((a, b) => b.z - a.z);
}

/** What a foreground chair turned fully away from the camera costs, as metres off its ideal distance. */
const BACK_VIEW_COST = 1.5;
/** What a foreground chair (armchair or sling) turned fully to the camera gains, as metres off its ideal distance: a stager shows a chair's front. */
const FRONT_VIEW_GAIN = 0.4;

/**
 * How far a foreground chair may turn its back to the camera (the facing measure in closingChair:
 * 1 its front, 0 its side, -1 its back). A stuffed armchair's back and side are blank upholstered
 * blocks before the group (a wingback's side most of all), so it shows some of its front; an
 * open sling chair shows its frame either way.
 */
const MIN_FACING: Partial<Record<PieceKind, number>> = { armchair: 0.25 };
/** A chair turned to the table at least this far to the camera stands beside the table, not before it. */
const SIDE_ON = -0.1;

/**
 * The share of the sofa's outline in the photo a foreground chair may cover: its arm. In the
 * Pruna room a wingback before the sofa's end, cut by the frame, hid a third of it and the
 * floor lamp behind, and the photo read as the chair's.
 */
const FOREGROUND_SOFA_COVER = 0.15;

/**
 * The share of a side table's outline in the photo a foreground chair may cover before the table
 * goes (closeForeground). Outlines are boxes, and an open chair's box is mostly air: in the hall
 * the sling chair's box covers a third of the side table's, which shows whole between its bars;
 * in the Pruna room it covered all of it.
 */
const SIDE_TABLE_COVER = 0.6;

/** What a foreground chair cut by a side of the frame costs, per share of its width cut off, as metres off its ideal distance. */
const CUT_COST = 8;

/**
 * What a foreground chair costs per share of its outline in the photo that other standing pieces
 * (the sofa, a lamp, a plant) fill too, as metres off its ideal distance: a chair against the
 * sofa's end under the floor lamp crowds a corner, one on the open side balances the group.
 */
const CLUTTER_COST = 1;

/** How far a chair that closes the group stands from the middle of its table, ideally (metres). */
const CLOSING_DISTANCE = 1.45;

type ClosingKind = 'armchair' | 'slingChair' | 'pouf';

/**
 * How far from the middle of its table a piece closing the group stands, ideally and at least
 * (metres): a chair at a seat's distance with legroom before it, a pouf drawn up nearer, a
 * foot's length from the table's edge.
 */
function closingReach(kind: ClosingKind, table: Size, own: Size): { ideal: number; least: number } {
  const touching = table.d / 2 + own.d / 2;
  return kind === 'pouf' ? { ideal: touching + 0.3, least: touching + 0.2 } : { ideal: CLOSING_DISTANCE, least: touching + 0.35 };
}

/**
 * What a living room's layout gains where its foreground is not left empty (closeForeground), as
 * score: a group set a little deeper, or along another stretch of wall, that leaves a chair
 * its place before the table beats one that leaves the foreground bare.
 */
const CLOSED_FOREGROUND_GAIN = 2;
/** What a layout closed by a pouf gains: less than a chair's, so a layout a chair closes stays the first choice. */
const POUF_CLOSED_GAIN = 1;

/**
 * The best of `ranked` (best first) as staged: a living room's each closed by its foreground
 * chair where one fits, those closed gaining CLOSED_FOREGROUND_GAIN. Candidates are closed in
 * turn only until none left could overtake the best so far: each try walks the floor's places.
 * An office's or bedroom's best is given its reading corner where one fits (readingCorner), away
 * from `earlier` variations' own; its desk or bed stays where it was best, so each variation's
 * still stands elsewhere where the room allows (scored as a living room's, the corner drew them together).
 */
function bestClosed(room: RoomModel, roomType: RoomType, style: StyleDef, earlier: Placement[][]): (ranked: Candidate[]) => Candidate | undefined {
  if (roomType === 'office' || roomType === 'bedroom') return (ranked) => ranked[0] && { ...ranked[0], placed: readingCorner(room, ranked[0].placed, style, earlier) ?? ranked[0].placed };
  if (roomType !== 'living_room') return (ranked) => ranked[0];
  const tried = new Map<Candidate, Candidate>();
  const close = (c: Candidate) => {
    const closed = closeForeground(room, c.placed, style);
    if (!closed) return c;
    const byPouf = closed.length > c.placed.length && closed.at(-1)!.kind === 'pouf';
    return { placed: closed, score: c.score + (byPouf ? POUF_CLOSED_GAIN : CLOSED_FOREGROUND_GAIN) };
  };
  return (ranked) => {
    let best: Candidate | undefined;
    for (const c of ranked) {
      if (best && c.score + CLOSED_FOREGROUND_GAIN <= best.score) break;
      const staged = tried.get(c) ?? close(c);
      tried.set(c, staged);
      if (!best || staged.score > best.score) best = staged;
    }
    return best;
  };
}

/**
 * A stager does not leave the photo's foreground empty: when nothing of the living room's group
 * stands between its coffee table and the camera, an armchair goes there, turned to the table
 * or halfway from it to the lens so that it shows some of its front, on the floor nearest the
 * ideal distance from it and otherwise as near the camera as every rule allows (in frame, clear
 * of openings and of the other pieces, hiding neither sofa, table nor the group's own armchair).
 * Where no armchair fits, an open sling chair may: it hides less of what is behind it, and may
 * face the sofa square across the group rather than the table, showing its side where a chair
 * turned to the table would show its back. The layout closed, or as it is where the group
 * already fills the foreground; null where no chair fits.
 */
export function closeForeground(room: RoomModel, placed: Placement[], style: StyleDef): Placement[] | null {
  const table = placed.find((p) => p.kind === 'coffeeTable') ?? placed.find((p) => p.kind === 'sofa');
  if (!table) return null;
  const depth = (x: number, z: number) => room.camera.toCamera([x, 0, z])[2];
  const tableDepth = depth(table.x, table.z);
  // Seats and cabinets fill a foreground; a side table or a plant does not.
  const standing = placed.filter((p) => onFloor(p) && p !== table && p.size.w * p.size.d > 0.3);
  if (standing.some((p) => depth(p.x, p.z) < tableDepth - 0.5)) return placed;
  const sofa = placed.find((p) => p.kind === 'sofa');
  const closing = (kind: ClosingKind, alternatives: Alternatives, nearer = 0.6) => closingChair(room, placed, table, tableDepth, kind, style, alternatives, nearer);
  // A sling chair across the table from the sofa may face the sofa square, halfway between that
  // and the table, or halfway between that and the camera: turned three-quarters to the lens, as
  // a stager poses an open chair. Beside the sofa's end, facing it square would face the wall behind it.
  const turns: Alternatives = (yaw, x, z) => {
    if (!sofa) return [];
    const ahead = (px: number, pz: number) => (px - sofa.x) * Math.sin(sofa.yaw) + (pz - sofa.z) * Math.cos(sofa.yaw);
    if (ahead(x, z) < ahead(table.x, table.z)) return [];
    const square = sofa.yaw + Math.PI;
    return [square, between(square, yaw), between(square, Math.atan2(-x, -z))];
  };
  // Beside the table, no farther from the camera than it, where the wider groups leave no place well before it.
  // A style without stuffed armchairs (minimalist) still closes its group, with the open chair alone.
  // An armchair beside the table, which turned to it would show its side, may turn halfway from it
  // to the lens, as a stager angles one to show its front; from before the table it would face away from the group.
  const toLens: Alternatives = (yaw, x, z) => (lensFacing(yaw, x, z) >= SIDE_ON ? [between(yaw, Math.atan2(-x, -z))] : []);
  const armchair = style.omit.includes('armchair') ? null : closing('armchair', toLens);
  const sling = () => (style.omit.includes('slingChair') ? null : (closing('slingChair', turns) ?? closing('slingChair', turns, 0)));
  // Where no chair fits, a pouf drawn up to the table: low and round, it stands where a chair would turn its back.
  const chair = armchair ?? sling() ?? closing('pouf', () => [], 0.4);
  // A side table the chair stands squarely before goes: its top and vase would run into the
  // chair's arm and read as part of it, and a stager would not set out a table no one sees.
  return chair ? [...placed.filter((q) => q.kind !== 'sideTable' || !hides(room, chair, q, SIDE_TABLE_COVER)), chair] : null;
}

/** How squarely a chair at (x, z) turned to `yaw` faces the camera (1), shows its side (0) or turns its back (-1). */
const lensFacing = (yaw: number, x: number, z: number) => (Math.sin(yaw) * -x + Math.cos(yaw) * -z) / Math.hypot(x, z);

/** The yaws a closing chair at (x, z) may take besides `yaw`, the one turning it to the table. */
type Alternatives = (yaw: number, x: number, z: number) => number[];

/** The yaw halfway from `a` to `b`, the short way round. */
const between = (a: number, b: number) => a + Math.atan2(Math.sin(b - a), Math.cos(b - a)) / 2;

/**
 * The best place for a chair closing the group on the camera's side (closeForeground), at
 * least `nearer` metres nearer the camera than the table: turned to the table, or to one of
 * `alternatives` for the yaw that would be.
 */
function closingChair(
  room: RoomModel,
  placed: Placement[],
  table: Placement,
  tableDepth: number,
  kind: ClosingKind,
  style: StyleDef,
  alternatives: Alternatives,
  nearer: number,
): Placement | null {
  const size = pieceSize(kind, style);
  const { ideal, least } = closingReach(kind, table.size, size);
  // A pouf is round in plan: it has no front to show the camera nor back to turn to it.
  const round = kind === 'pouf';
  const { left, right, back } = room.box;
  // Everything standing on the floor but the table the chair is turned to, small pieces too: a plant crowds a chair as a lamp does.
  const around = placed.filter((q) => onFloor(q) && q !== table && q.kind !== 'rug').flatMap((q) => imageBox(room, q) ?? []);
  // Places stepped out from the room's middle: a mirrored photo is offered the mirrored places.
  const mid = (left + right) / 2;
  const x0 = mid - 0.1 * Math.floor((mid - left - 0.3) / 0.1);
  // Every pose's cost first; the checks, far dearer, then run from the cheapest pose up, until no pose left can beat the best found.
  const poses: Array<{ x: number; z: number; yaw: number; cost: number }> = [];
  // Only the square round the table within a chair's reach.
  const far = ideal + 0.6;
  const from = (start: number, at: number) => start + 0.1 * Math.max(0, Math.ceil((at - far - start) / 0.1));
  const xFrom = from(x0, table.x);
  for (let z = from(0.8, table.z); z < Math.min(back, table.z + far); z += 0.1) {
    for (let x = xFrom; x <= Math.min(right - 0.3, table.x + far); x += 0.1) {
      const d = room.camera.toCamera([x, 0, z])[2];
      if (d > tableDepth - nearer) continue;
      const reach = Math.hypot(table.x - x, table.z - z);
      if (reach < least || reach > far) continue;
      // Across the group from an armchair already there, not beside it.
      const crowded = placed.some((q) => q.kind === 'armchair' && Math.hypot(q.x - x, q.z - z) < 1.4);
      const toTable = Math.atan2(table.x - x, table.z - z);
      for (const yaw of [toTable, ...alternatives(toTable, x, z)]) {
        const facing = round ? 0 : lensFacing(yaw, x, z);
        // Turned to the table from beside it, so the camera sees its side: from in front of the table it shows its back.
        if (facing < (MIN_FACING[kind] ?? -0.5)) continue;
        // Of the places left, the more of its front it shows the better, and its back costs more than its front gains; one turned to the table beats one turned aside.
        const cost =
          Math.abs(reach - ideal) + 0.2 * d + (crowded ? 1 : 0) + BACK_VIEW_COST * Math.max(0, -facing) - FRONT_VIEW_GAIN * Math.max(0, facing) + (yaw === toTable ? 0 : 0.3);
        poses.push({ x, z, yaw, cost });
      }
    }
  }
  poses.sort((a, b) => a.cost - b.cost);
  let best: { p: Placement; cost: number } | null = null;
  for (const { x, z, yaw, cost } of poses) {
    if (best && cost >= best.cost) break;
    const p: Placement = { kind, x, z, yaw, size, lift: 0, foreground: true };
    if (violation(room, p, placed)) continue;
    // Cut by a side of the frame only where no place shows all of it.
    const box = imageBox(room, p)!;
    const cut = Math.max(0, -box.u0, box.u1 - room.camera.p.width) / (box.u1 - box.u0);
    const total = cost + CUT_COST * cut + CLUTTER_COST * sharedOutline(box, around);
    if (best && total >= best.cost) continue;
    // A low table may be half behind the chair, as it is from a seat in the room; the sofa only its end.
    if (hidesAnchor(room, p, placed, 'sofa', FOREGROUND_SOFA_COVER) || hidesAnchor(room, p, placed, table.kind, 0.5)) continue;
    // Nor before the group's floor lamp or plant, which it would cut in two, nor before its own
    // armchair, which it would double in the photo.
    if (placed.some((q) => ['floorLamp', 'plant', 'armchair'].includes(q.kind) && hides(room, p, q, 0.3))) continue;
    // Nor level with the group's own armchair in the photo, the same chair twice in a row like a showroom's.
    if (kind === 'armchair' && placed.some((q) => q.kind === 'armchair' && inRow(box, imageBox(room, q)))) continue;
    best = { p, cost: total };
  }
  return best?.p ?? null;
}

/**
 * Whether two outlines in the photo stand in a row: level (sharing half the lower one's height)
 * and side by side, less than the narrower one's width apart or overlapping.
 */
function inRow(a: ImageBox, b: ImageBox | null): boolean {
  if (!b) return false;
  const level = Math.min(a.v1, b.v1) - Math.max(a.v0, b.v0) >= 0.5 * Math.min(a.v1 - a.v0, b.v1 - b.v0);
  const gap = Math.max(a.u0, b.u0) - Math.min(a.u1, b.u1);
  return level && gap < Math.min(a.u1 - a.u0, b.u1 - b.u0);
}

/** The share of `box` the `others` cover too, each counted (where they overlap each other, twice), at most 1. */
function sharedOutline(box: ImageBox, others: ImageBox[]): number {
  let shared = 0;
  for (const o of others) shared += overlapArea(box, o);
  return Math.min(1, shared / Math.max(1, (box.u1 - box.u0) * (box.v1 - box.v0)));
}

/**
 * Every layout worth offering for the room type's group, scored: every visible, plain stretch of
 * wall is tried for the anchor piece (sofa, bed, desk, or the dining table's wall side), scoring
 * the arrangements that place the most important pieces in the photo's mid-ground best. When no
 * wall works the group floats in the middle of the visible floor, shrunk if needed, so there is
 * always a layout.
 */
function layoutCandidates(room: RoomModel, roomType: RoomType, style: StyleDef, arrangement: number): Candidate[] {
  const group = groupFor(roomType, style, room.box.ceiling, arrangement);
  const cam = room.camera;
  const nearFloor = cam.floorPoint(cam.p.cx, cam.p.height * 0.98);
  const zNear = nearFloor ? nearFloor[2] : 1.5;
  const zTarget = clamp(zNear + 0.4 * (room.box.back - zNear), 3, 5.5);
  if (roomType === 'kitchen') {
    const bars = counterLayouts(room, style, zTarget);
    if (bars.length) return bars;
  }
  // Where no wall takes the group at its pieces' size (a king bed across a narrow room), a stager
  // picks smaller ones before setting the group apart from every wall.
  let out: Candidate[] = [];
  for (const shrink of WALL_SHRINK) {
    out = [group, ...(group.variants ?? [])].flatMap((g) => wallCandidates(room, shrunk(g, style, shrink), style, zTarget));
    if (out.length) break;
  }
  // A desk may float too, facing into the room, scored against the walls' desks (which keep their shelf).
  if (roomType === 'living_room' || roomType === 'office') out.push(...floatingGroups(room, group, style, zTarget));
  // A table floats where no wall takes it within reach of the mid-ground: an open floor whose
  // walls are glass, far, or hidden behind a pillar, as a stager would in a loft. A bed keeps
  // its headboard to a wall wherever one takes it.
  else if (roomType !== 'bedroom' && !out.some((c) => anchorDepth(room, c, group.anchor) <= zTarget + FAR_WALL)) {
    const floating = floatingGroups(room, group, style, zTarget);
    if (floating.length) return floating;
  }
  if (out.length) return out;
  return [{ placed: floatingLayout(room, group, style, zTarget), score: 0 }];
}

/** Sizes a group is tried at against the walls, largest first: a queen bed for a king, then a double. */
const WALL_SHRINK = [1, 0.92, 0.85];

/** The group against every visible, plain stretch of wall, each arrangement scored. */
function wallCandidates(room: RoomModel, group: Group, style: StyleDef, zTarget: number): Candidate[] {
  const out: Candidate[] = [];
  for (const wall of room.walls) {
    for (let a = wall.visibleFrom + 0.3; a <= wall.visibleTo - 0.3; a += 0.1) {
      const frame = wallFrame(room, wall.id, a);
      for (const mirror of [1, -1]) {
        const r = placeGroup(room, group, frame, style, mirror);
        if (!r) continue;
        const anchor = r.placed.find((p) => p.kind === group.anchor);
        if (!anchor) continue;
        const depth = room.camera.toCamera([anchor.x, 0, anchor.z])[2];
        const backBonus = wall.id === 'back' && room.box.back < 6 ? 0.8 : 0;
        // Prefer walls whose floor line is clearly seen: furniture against a guessed wall floats.
        const evidence = 4 * room.box.evidence[wall.id];
        const score = r.score - depthCost(depth, zTarget) + backBonus + 0.4 * freeRun(wall, a) + evidence;
        out.push({ placed: r.placed, score });
      }
    }
  }
  return out;
}

/** The group with every piece's plan and its place round the anchor scaled by `k` (heights kept), drawn `back` metres further out of its frame. */
function shrunk(group: Group, style: StyleDef, k: number, back = 0): Group {
  const slot = (s: Slot): Slot => ({
    ...s,
    along: s.along * k,
    out: s.out * k - back,
    size: scaleSize(s.size ?? pieceSize(s.kind, style), k),
    ...(s.alternatives ? { alternatives: s.alternatives.map((a) => a * k) } : {}),
    ...(s.fallback ? { fallback: slot(s.fallback) } : {}),
  });
  // Its variants are other groups, shrunk on their own.
  return { anchor: group.anchor, slots: group.slots.map(slot), ...(group.needs ? { needs: group.needs } : {}) };
}

/** What missing the target depth costs a layout per metre: a group too far back leaves the photo empty. */
function depthCost(depth: number, zTarget: number): number {
  return depth > zTarget ? 1.8 * (depth - zTarget) : 0.9 * (zTarget - depth);
}

/** Clear floor a floating group keeps on both sides and behind it, to walk around it. */
const PASSAGE = 0.9;
/** Past the target depth by this much (metres), a wall's group leaves the photo's middle empty. */
const FAR_WALL = 2;
/** Sizes a floating group is tried at, largest first. */
const FLOATING_SHRINK = [1, 0.85];
/** Pieces that stand only against a wall: a floating group goes without them (a sideboard stands behind it as a console). */
const WALL_BOUND: PieceKind[] = ['art', 'shelf'];

function anchorDepth(room: RoomModel, c: Candidate, anchor: PieceKind): number {
  const main = c.placed.find((p) => p.kind === anchor);
  return main ? room.camera.toCamera([main.x, 0, main.z])[2] : Infinity;
}
/** A floating group is a stager's second choice: a sofa against a wall is steadier in the photo. */
const FLOATING_COST = 1.0;

/**
 * In a wide, deep room a stager floats the seating group in the mid-ground, facing the camera,
 * rather than pushing it to a far wall: the room reads as lived in at its middle, not at its end.
 * Tried where the floor leaves a passage on both sides and behind; scored as the wall layouts
 * are, less FLOATING_COST, with nothing hung (there is no wall behind it), so the art it cannot have is not held against it.
 */
function floatingGroups(room: RoomModel, group: Group, style: StyleDef, zTarget: number): Candidate[] {
  const { left, right, back } = room.box;
  const anchorSlot = group.slots.find((s) => s.kind === group.anchor);
  if (!anchorSlot) return [];
  const unhung = group.slots.reduce((sum, s) => sum + (s.kind === 'art' ? s.weight : 0), 0);
  const cam = room.camera;
  // In place of a wall's evidence: how surely the floor was found, from all the walls' floor lines.
  const sureFloor = (4 * (room.box.evidence.left + room.box.evidence.right + room.box.evidence.back)) / 3;
  const out: Candidate[] = [];
  // Near the target depth in fine steps; further back in coarser ones, where the depth's cost
  // lets a group win only when the floor nearer holds too little of it (a loft's pipe stubs).
  const depths: number[] = [];
  for (let z = zTarget - 0.5; z <= Math.min(zTarget + 1.5, back - PASSAGE); z += 0.25) depths.push(z);
  for (let z = zTarget + 2; z <= back - PASSAGE; z += 0.5) depths.push(z);
  // Where the group fits nowhere at full size (a floor broken up by posts and a pillar), it is tried smaller.
  for (const shrink of FLOATING_SHRINK) {
    const anchor = scaleSize(anchorSlot.size ?? pieceSize(group.anchor, style), shrink);
    if (out.length || right - left < anchor.w + 2 * PASSAGE) break;
    const standing = shrunk({ anchor: group.anchor, slots: group.slots.filter((s) => !WALL_BOUND.includes(s.kind)) }, style, shrink);
    for (const z of depths) {
      for (let x = left + PASSAGE + anchor.w / 2; x <= right - PASSAGE - anchor.w / 2 + 1e-9; x += 0.25) {
        for (const mirror of [1, -1]) {
          const r = placeGroup(room, standing, { x, z, yaw: Math.PI }, style, mirror);
          const main = r?.placed.find((p) => p.kind === group.anchor);
          if (!r || !main) continue;
          const depth = cam.toCamera([main.x, 0, main.z])[2];
          // Centred in the photo, as a stager frames the group; the frame's edge cuts no sofa arm.
          const box = imageBox(room, main);
          const offCentre = box ? Math.abs((box.u0 + box.u1) / 2 - cam.p.width / 2) / cam.p.width : 0.5;
          out.push({ placed: r.placed, score: r.score - depthCost(depth, zTarget) - 3 * offCentre + sureFloor + unhung - FLOATING_COST });
        }
      }
    }
  }
  return out;
}

/**
 * Base cabinets stools can face: an island's near side. Not a counter along a wall: its doors run
 * down to the toe kick, with no overhang for knees, and stools lined up against it read as a
 * waiting room; there a kitchen gets its table for two.
 */
interface Bar {
  /** Frame at `along` with local +Z pointing from behind the cabinets towards the stools. */
  frame: (along: number) => { x: number; z: number; yaw: number };
  from: number;
  to: number;
  /** Distance of the cabinets' front from the frame's origin, and the worktop height. */
  front: number;
  height: number;
}

function bars(room: RoomModel): Bar[] {
  const out: Bar[] = [];
  for (const o of room.obstacles) {
    // Only the near side: stools behind the island would be hidden by it in the photo.
    if (o.worktop !== null) out.push({ frame: (a) => ({ x: a, z: o.far, yaw: Math.PI }), from: o.left, to: o.right, front: o.far - o.near, height: o.worktop });
  }
  return out;
}

/**
 * A kitchen with an island: two to four bar stools along its near side, facing it,
 * sized to its height; a runner under them, a bowl of fruit on the worktop and a plant at one
 * end. Every place along each where a row fits is a candidate; the most stools nearest the
 * photo's mid-ground score best.
 */
function counterLayouts(room: RoomModel, style: StyleDef, zTarget: number): Candidate[] {
  const out: Candidate[] = [];
  for (const bar of bars(room)) {
    const base = pieceSize('barStool', style);
    // Seat about 27 cm under the worktop, as for people sitting at it.
    const size: Size = { ...base, h: clamp(bar.height - 0.27, 0.55, 0.8) + barStoolBack(style) };
    const spacing = Math.max(0.6, size.w + 0.15);
    const slot: Slot = { kind: 'barStool', along: 0, out: bar.front + size.d / 2 + 0.08, yaw: Math.PI, weight: 1, size };
    for (let n = 4; n >= 2; n--) {
      const span = n * spacing;
      for (let a = bar.from + span / 2 - 0.1; a <= bar.to - span / 2 + 0.1 + 1e-9; a += 0.1) {
        const frame = bar.frame(a);
        const stools: Placement[] = [];
        for (let i = 0; i < n; i++) {
          const p = place(frame, slot, (i - (n - 1) / 2) * spacing, style);
          if (violation(room, p, stools)) break;
          stools.push(p);
        }
        if (stools.length < n) continue;
        const depth = stools.reduce((acc, p) => acc + room.camera.toCamera([p.x, 0, p.z])[2], 0) / n;
        const score = 2 * n - 0.9 * Math.abs(depth - zTarget) - 0.5 * Math.abs(a - (bar.from + bar.to) / 2);
        out.push({ placed: furnishBar(room, style, bar, a, spacing, stools), score });
      }
    }
  }
  return out;
}

/** A row of stools at a bar completed: the runner under them, the bowl on the worktop, a plant at one end. */
function furnishBar(room: RoomModel, style: StyleDef, bar: Bar, a: number, spacing: number, stools: Placement[]): Placement[] {
  const frame = bar.frame(a);
  const n = stools.length;
  const placed: Placement[] = [];
  const tryAdd = (slot: Slot, sides: number[]): void => {
    for (const side of sides) {
      const p = place(frame, slot, side, style);
      if (!violation(room, p, placed)) {
        placed.push(p);
        return;
      }
    }
  };
  for (const w of [n * spacing + 0.4, n * spacing]) {
    if (!placed.length) tryAdd({ kind: 'rug', along: 0, out: bar.front + 0.5, yaw: 0, weight: 1, size: { ...pieceSize('rug', style), w, d: 0.8 } }, [0]);
  }
  placed.push(...stools);
  // The bowl sits between two stools, where their backs do not hide it.
  tryAdd({ kind: 'bowl', along: 0, out: bar.front - 0.3, yaw: 0, weight: 1, lift: bar.height }, [n % 2 ? spacing / 2 : 0]);
  const end = (n * spacing) / 2 + 0.4;
  tryAdd({ kind: 'plant', along: end, out: bar.front + 0.35, yaw: 0, weight: 1 }, [end, -end]);
  return placed;
}

/** Length of plain wall around `along` (capped), so the largest free wall is preferred. */
function freeRun(wall: { visibleFrom: number; visibleTo: number; blocked: Array<[number, number]> }, along: number): number {
  let lo = wall.visibleFrom;
  let hi = wall.visibleTo;
  for (const [a, b] of wall.blocked) {
    if (b <= along) lo = Math.max(lo, b);
    else if (a >= along) hi = Math.min(hi, a);
    else return 0;
  }
  return Math.min(5, hi - lo);
}

function floatingLayout(room: RoomModel, group: Group, style: StyleDef, zTarget: number): Placement[] {
  const { left, right, back } = room.box;
  const x = (left + right) / 2;
  for (const shrink of [1, 0.8, 0.65]) {
    for (const z of [zTarget, zTarget + 1, zTarget - 0.6, zTarget + 2]) {
      const frame = { x, z: Math.min(z, back - 0.5), yaw: Math.PI };
      const r = placeGroup(room, shrunk(group, style, shrink, 0.9), frame, style, 1);
      if (r) return r.placed;
    }
  }
  return greedyLayout(room, group, style, zTarget);
}

/**
 * Last resort for cramped or odd floors: each of a few pieces goes to the first valid spot on
 * a grid over the floor, nearest the target depth first, so every rule still holds.
 */
function greedyLayout(room: RoomModel, group: Group, style: StyleDef, zTarget: number): Placement[] {
  const { left, right, back } = room.box;
  const placed: Placement[] = [];
  // First choice: a smaller main piece with its back to a wall, on its own.
  const anchorSlot = group.slots.find((s) => s.kind === group.anchor);
  if (anchorSlot) {
    let best: { p: Placement; score: number } | null = null;
    for (const wall of room.walls) {
      for (let a = wall.visibleFrom; a <= wall.visibleTo; a += 0.1) {
        const frame = wallFrame(room, wall.id, a);
        const size = scaleSize(anchorSlot.size ?? pieceSize(group.anchor, style), 0.85);
        const p = place(frame, { ...anchorSlot, along: 0, out: size.d / 2 + 0.04, size }, 0, style);
        if (violation(room, p, [])) continue;
        const score = -Math.abs(room.camera.toCamera([p.x, 0, p.z])[2] - zTarget) + 2 * room.box.evidence[wall.id];
        if (!best || score > best.score) best = { p, score };
      }
    }
    if (best) placed.push(best.p);
  }
  const kinds: PieceKind[] = [group.anchor, 'plant', 'sideTable', 'rug'];
  const zs: number[] = [];
  for (let z = 1; z < back; z += 0.25) zs.push(z);
  zs.sort((a, b) => Math.abs(a - zTarget) - Math.abs(b - zTarget) || a - b);
  for (const kind of kinds) {
    if (style.omit.includes(kind) || placed.some((p) => p.kind === kind)) continue;
    let done = false;
    for (const shrink of [1, 0.8]) {
      const base = pieceSize(kind, style);
      const size = kind === 'rug' ? { ...base, w: 1.6, d: 1.1 } : scaleSize(base, shrink);
      for (const z of zs) {
        for (let k = 0; k < 40 && !done; k++) {
          const x = (left + right) / 2 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 0.2;
          if (x < left || x > right) continue;
          for (const yaw of [Math.PI, Math.PI / 2, -Math.PI / 2]) {
            const p: Placement = { kind, x, z, yaw, size, lift: 0 };
            if (!violation(room, p, placed)) {
              placed.push(p);
              done = true;
              break;
            }
          }
        }
        if (done) break;
      }
      if (done) break;
    }
  }
  return placed;
}

function scaleSize(s: Size, k: number): Size {
  return { w: s.w * k, d: s.d * k, h: s.h };
}
