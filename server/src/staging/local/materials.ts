import { SRGB_TO_LINEAR } from './image.ts';
import { fbm3, hash3, noise3 } from './prng.ts';
import { clamp, luminance, smoothstep, type Vec3 } from './vec.ts';

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
  | 'glass'
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
  /** Fourth colour (a traditional rug's accents), sRGB. */
  color4?: Vec3;
  /** Specular strength 0..1 and shininess exponent. */
  spec: number;
  shininess: number;
  /** Pattern variant for rugs and art. */
  pattern?: number;
  /** Light emitted (lamp shades), in units of the room light. */
  glow?: number;
  /** Half extents of a rug's pattern in metres, so borders follow its edges. */
  half?: [number, number];
  /** A rug knotted on warps whose ends hang out as a fringe past its short ends. */
  fringe?: boolean;
  /** A metal polished to a mirror (not brushed, rubbed or antiqued): it reflects the room unblurred. */
  polished?: boolean;
  /** Cloth that lies in folds (bedding), not stretched taut (a lamp shade). */
  drape?: boolean;
  /** How nubbly a woven cloth is: its heather and nubs' strength over a tweed's (1, the default). */
  weave?: number;
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
  c4: Vec3;
}

export function prepare(m: Material): PreparedMaterial {
  const c3 = toLinear(m.color3 ?? m.color2 ?? m.color);
  return { m, c1: toLinear(m.color), c2: toLinear(m.color2 ?? m.color), c3, c4: m.color4 ? toLinear(m.color4) : c3 };
}

/**
 * Procedural albedo (linear) at a local position, in metres, on a surface facing texture axis
 * `face` (raster.ts Fragment.face; 1, up, where unknown), seen at `pixel` metres a pixel (0: a
 * point, every scale of the texture; texturePixel) and `stretch` times that along a slant
 * (1/cos of the view). Textures are kept at scales a listing
 * photo resolves (centimetres and up) so they read as material, not as noise.
 */
export function albedo(pm: PreparedMaterial, x: number, y: number, z: number, seed: number, out: Vec3, face = 1, pixel = 0, stretch = 1): void {
  const { m, c1, c2 } = pm;
  switch (m.kind) {
    case 'wood':
      // Each face is a panel of its own, sawn like a top. One solid texture cut by every face
      // reads as sawn wood only on the top: a front cuts the logs radially, and their rings (2-4
      // cm apart, to read on a top) ran across a sideboard's front and end and a chair's back as
      // regular stripes. So a face towards texture Z (front, back) exchanges Y and Z, fibres
      // still along X, and one towards X (an end) exchanges X and Y, fibres upright.
      if (face === 2) woodGrain(pm, x, z, y, seed, out, pixel);
      else if (face === 0) woodGrain(pm, y, x, z, seed, out, pixel);
      else woodGrain(pm, x, y, z, seed, out, pixel);
      return;
    case 'marble': {
      const v = Math.abs(Math.sin((x * 3.2 + z * 2.1 + y) * 2.2 + fbm3(x * 2.5, y * 2.5, z * 2.5, seed, 4) * 9));
      const vein = Math.pow(1 - v, 10) * 0.9 + Math.pow(1 - Math.abs(Math.sin(x * 9 + z * 5 + fbm3(x * 6, y * 6, z * 6, seed + 3, 3) * 6)), 30) * 0.5;
      mix3(c1, c2, clamp(vein, 0, 1), out);
      return;
    }
    case 'fabric':
    case 'linen': {
      // Woven cloth: a broad mottle, slubs along the weft (local X, along a sofa's length), and
      // yarns of slightly different shade a few millimetres apart. Shaded once a pixel, a grain
      // finer than the pixel would sparkle as noise, so each scale fades out as the pixel
      // (`pixel`, metres on the surface) grows from half its size to one and a half times it:
      // what a camera averages away.
      const linen = m.kind === 'linen';
      // A scale the pixel averages away entirely costs no noise (each written out: a closure per sample costs more than the noise).
      const wSlub = fine(260, pixel);
      const wYarn = fine(400, pixel);
      const mottle = fbm3(x * 6, y * 6, z * 6, seed, 2) - 0.5;
      const slub = wSlub > 0 ? (noise3(x * 30, y * 260, z * 260, seed + 3) - 0.5) * wSlub : 0;
      const yarn = wYarn > 0 ? (noise3(x * 400, y * 400, z * 400, seed + 1) - 0.5) * wYarn : 0;
      // Heathered yarn, fibres of two shades spun together (a few millimetres), and the nubs and
      // loops of an upholstery weave: at a listing photo's 3-6 mm a pixel these are the speckle
      // that tells cloth from a smooth moulding. Bedding is smoother. Weaker by a third, a sofa
      // softened as its photo is read as felt; twice as strong, as a sponge.
      const slant = stretch ** -SPECKLE.slant;
      const heather = speckle(x, y, z, seed + 5, 350, pixel, slant);
      const nub = linen ? 0 : speckle(x, y, z, seed + 9, 250, pixel, slant) * 0.67 + speckle(x, y, z, seed + 10, 500, pixel, slant) * 0.33;
      const k = 1 + mottle * 0.16 + slub * (linen ? 0.14 : 0.08) + yarn * (linen ? 0.16 : 0.12) + (m.weave ?? 1) * (heather * (linen ? 0.14 : 0.63) + nub * 1.12);
      out[0] = c1[0] * k;
      out[1] = c1[1] * k;
      out[2] = c1[2] * k;
      return;
    }
    case 'velvet': {
      const k = 1 + (fbm3(x * 9, y * 9, z * 9, seed, 3) - 0.5) * 0.12;
      out[0] = c1[0] * k;
      out[1] = c1[1] * k;
      out[2] = c1[2] * k;
      return;
    }
    case 'leather': {
      // A hide: the tanning's broad mottle, its pebbled grain (a millimetre or two, as a camera
      // records it), and its creases darker than the face, where the finish has worn into them
      // (the folds `relief` shades, same seed). Mottle alone read as moulded plastic.
      const mottle = fbm3(x * 9, y * 9, z * 9, seed, 3) - 0.5;
      const grain = speckle(x, y, z, seed + 7, 600, pixel, stretch ** -SPECKLE.slant);
      const k = (1 + mottle * 0.3 + grain * 0.35) * (1 - LEATHER_CREASE_DARK * leatherCrease(x, y, z, seed));
      out[0] = c1[0] * k;
      out[1] = c1[1] * k;
      out[2] = c1[2] * k;
      return;
    }
    case 'leaf':
      leafColour(pm, x, y, z, seed, out);
      return;
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
 * How much a slanted view widens a pixel's texture footprint, as a power of 1/cos: the footprint
 * grows by 1/cos along one axis only, so the whole stretch (power 1) blurred cloth seen from a low
 * camera to nothing, and none (0) left it sparkling at about twice the grain a camera records.
 */
const SLANT = 0.3;

/**
 * The size (metres) of a pixel's footprint on a surface `distance` metres from a camera of focal
 * length `focal` pixels, seen at cosine `ndv` to its normal: what `albedo`'s `pixel` takes.
 */
export function texturePixel(distance: number, focal: number, ndv: number): number {
  return distance / focal / Math.max(0.25, Math.abs(ndv)) ** SLANT;
}

/**
 * How much of a texture scale of `f` cycles a metre survives a pixel `pixel` metres across: all
 * of it below half a cycle a pixel, none past one and a half cycles a pixel (what a camera
 * averages away); a point (`pixel` 0) keeps every scale.
 */
function fine(f: number, pixel: number): number {
  return pixel > 0 ? 1 - smoothstep(0.5, 1.5, f * pixel) : 1;
}

/**
 * A random grain of `f` cycles a metre (-0.5..0.5) as a camera records it in pixels `pixel`
 * metres across (texturePixel), times `slant` where the pixel stretches along a slant (the
 * stretch to the power -SPECKLE.slant, worked out once a pixel). Where the pixel resolves the
 * grain, the grain itself. Where each pixel averages many grains, what is left of them: a
 * speckle under two pixels fine, fainter the more grains the pixel holds, across and along it
 * (SPECKLE). A grain of fixed size instead read as centimetre blotches, a sponge, where the render
 * is scaled up to a large photo, and faded to a smooth moulding where a pixel covers several.
 */
function speckle(x: number, y: number, z: number, seed: number, f: number, pixel: number, slant: number): number {
  const cycles = f * pixel;
  const blend = smoothstep(0.5, 1, cycles);
  const grain = blend < 1 ? noise3(x * f, y * f, z * f, seed) - 0.5 : 0;
  if (blend === 0) return grain;
  const g = 0.7 / pixel;
  const strength = SPECKLE.strength * Math.sqrt(0.5 / cycles) * slant;
  return grain * (1 - blend) + blend * (noise3(x * g, y * g, z * g, seed) - 0.5) * strength;
}

/**
 * A speckle's strength against the grain it stands for, and how it fades along a slant: fitted
 * so that a patch shaded once a pixel has the grain of the same patch averaged as a camera does,
 * face on and at a slant (materials.test.ts). Finer, it was lost in the photo's own softness.
 */
const SPECKLE = { strength: 0.8, slant: 0.18 };

/** Width of the boards a top or panel is glued from, in metres. */
const BOARD = 0.14;

/**
 * Wood that does not repeat: a piece is glued from boards side by side across local Z (a top's
 * planks run along its length, local X), each sawn from its own log: a pith axis 15 to 75 cm away
 * and leaning a little (at most 1 in 33), so its growth rings meet a flat face as arches a few
 * times longer than wide, with its own ring spacing and tone. Each ring's radius wobbles with the
 * angle round the pith, so a ring stays one smooth closed curve: noise in the face's own axes
 * wrinkled it every few centimetres, and where a face cuts a ring nearly tangent (a cathedral's
 * crown) those wrinkles became lines meandering across the fibres like a contour map. Fibres and
 * pores are streaks along X.
 * Each ring's latewood is a narrow dark line, rings 7 to 14 mm apart: broad soft bands read as
 * smudges on a top seen end-on. Rings a pixel cannot resolve fade to their mean tone.
 */
function woodGrain(pm: PreparedMaterial, x: number, y: number, z: number, seed: number, out: Vec3, pixel: number): void {
  const { c1, c2 } = pm;
  const board = Math.floor(z / BOARD);
  const h1 = hash3(board, 0, 1, seed);
  const h2 = hash3(board, 0, 2, seed);
  const h3 = hash3(board, 0, 3, seed);
  const h4 = hash3(board, 0, 4, seed);
  const tilt = (h2 - 0.5) * 0.06;
  const py = -0.15 - 0.6 * h1 + x * tilt;
  const pz = (board + 0.5) * BOARD + (h3 - 0.5) * 0.3 + x * tilt * 0.4;
  const r0 = Math.hypot(y - py, z - pz) || 1e-9;
  // Noise on a circle round the pith (its direction, no seam), changing slowly outwards and along it.
  const warp = (fbm3(x * 1.3 + r0 * 4, ((y - py) / r0) * 2.5, ((z - pz) / r0) * 2.5, seed + board * 97, 2) - 0.5) * 0.03;
  const r = r0 + warp;
  const rings = 70 + 70 * h4;
  // Years differ: rings narrow and widen, and some rings' lines are strong, others barely there.
  const phase = r * rings + 1.2 * noise3(r * rings * 0.4, board * 3.7, 0, seed + 13);
  const f = phase - Math.floor(phase);
  const year = 0.35 + 0.65 * hash3(Math.floor(phase), board, 5, seed);
  const line = smoothstep(0.62, 0.8, f) * (1 - smoothstep(0.84, 0.97, f)) * year;
  const latewood = LATEWOOD_MEAN + (line - LATEWOOD_MEAN) * fine(rings, pixel);
  const contrast = 0.6 + 0.4 * fbm3(x * 2.3, y * 2.3, z * 2.3 + board * 5, seed + 31, 2);
  // Streaks along the grain a few millimetres wide, in tone: what a camera at a few metres still
  // resolves of the fibres, so the wood between the rings is not one flat colour.
  const streak = (noise3(x * 6, y * 150, z * 150, seed + 17) - 0.5) * fine(150, pixel);
  const fibre = (noise3(x * 9, y * 320, z * 320, seed + 7) - 0.5) * fine(320, pixel);
  const pore = smoothstep(0.72, 0.9, noise3(x * 70, y * 1100, z * 1100, seed + 11)) * fine(1100, pixel);
  const t = clamp(latewood * contrast * 0.9 + streak * 0.35 + fibre * 0.3 + pore * 0.2 + (h1 - 0.5) * 0.15, 0, 1);
  mix3(c1, c2, t, out);
  // Boards of one top differ a little in tone, as matched planks do.
  const k = 0.95 + 0.1 * h3;
  out[0] *= k;
  out[1] *= k;
  out[2] *= k;
}

/** The latewood line's mean over many rings (woodGrain, its years' strengths included): what rings too fine for a pixel average to. */
const LATEWOOD_MEAN = 0.13;

/**
 * A leaf's third texture coordinate: its number, and how far out of the crown it is (0 deep
 * inside, 1 at the outside), packed so that interpolation across its triangles cannot change
 * the number.
 */
export function leafId(index: number, outer: number): number {
  return index + 0.25 + 0.5 * clamp(outer, 0, 1);
}

/**
 * A leaf in its own frame (furniture.ts `leaf`: x along the blade 0..1, y across it -1..1, z its
 * leafId): each leaf its own tone and shade, darker deep in the crown where the others shade it,
 * a paler midrib and side veins, a darker margin. Shapes sampled by position instead (the
 * centrepiece's ellipsoids) come out as a plain margin.
 */
function leafColour(pm: PreparedMaterial, x: number, y: number, z: number, seed: number, out: Vec3): void {
  const { c1, c2 } = pm;
  const id = Math.floor(z);
  const outer = clamp((z - id - 0.25) / 0.5, 0, 1);
  const tone = hash3(id, 0, 1, seed);
  const across = Math.min(1, Math.abs(y));
  const rib = 1 - smoothstep(0.06, 0.2, across);
  const vein = smoothstep(0.82, 0.97, Math.abs(Math.sin((x * 7 - across * 1.6) * Math.PI))) * (1 - across) * 0.5;
  const mottle = noise3(x * 6, y * 3, id, seed + 5) - 0.5;
  const t = clamp(0.15 + 0.55 * tone + 0.6 * rib + 0.25 * vein + 0.2 * mottle + 0.15 * x, 0, 1);
  mix3(c1, c2, t, out);
  const k = (0.72 + 0.5 * hash3(id, 0, 2, seed)) * (0.55 + 0.45 * outer) * (1 - 0.18 * smoothstep(0.7, 1, across));
  out[0] *= k;
  out[1] *= k;
  out[2] *= k;
}

/**
 * Which way velvet's pile leans at a local point, as a shift of the angle the eye meets it at
 * (-1..1, most within ±0.5): pile brushed or crushed one way shows the fibres' sides where it
 * leans towards the eye and their tips where it leans away, so a sofa of one dye shows
 * irregular lighter and darker patches a hand or two across, changing with the view.
 */
export function pileLean(x: number, y: number, z: number, seed: number): number {
  return 2 * (fbm3(x * 5, y * 5, z * 5, seed + 7, 3) - 0.5);
}

/** How much darker a leather crease's floor is than the hide's face. */
const LEATHER_CREASE_DARK = 0.3;
/** Offset of the relief's noise seeds from the material's: the albedo finds the same creases with it. */
const RELIEF_SEED = 17;

/**
 * Surface relief per material: how its soft creases (upholstery, bedding) or pile (rugs) tilt the
 * normal at a local point, as a vector to add to it; false for smooth finishes. Shading the
 * tilted normal makes the texture answer the room's light as cloth does, where a colour
 * pattern alone reads as printed on.
 */
export function relief(kind: MaterialKind, x: number, y: number, z: number, seed: number, out: Vec3, drape = false, face = 1): boolean {
  let freq: number;
  let amp: number;
  switch (kind) {
    case 'fabric':
    case 'velvet':
      freq = 7;
      amp = 0.22;
      break;
    case 'linen':
      // A lamp shade is linen stretched taut on its frame: bumps a hand apart, lit from inside,
      // read as stains on it.
      if (!drape) return false;
      // Bedding (`drape`) lies smooth but for its folds (below): bumps everywhere read as a quilted mattress.
      freq = 4;
      amp = 0.12;
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
  const s = seed + RELIEF_SEED;
  const n0 = noise3(fx, fy, fz, s);
  out[0] = ((noise3(fx + h, fy, fz, s) - n0) / h) * amp;
  out[1] = ((noise3(fx, fy + h, fz, s) - n0) / h) * amp;
  out[2] = ((noise3(fx, fy, fz + h, s) - n0) / h) * amp;
  // Folds: on top, soft ridges a hand's width apart, running along the bed (local Z) and
  // wandering, in patches, as a duvet lies once it has been pulled straight; where it hangs over
  // the bed's sides (faces towards X) and foot (towards Z), folds down the fall, deeper at the hem.
  if (drape && face === 1) addSlope(bedFold, x, y, z, s, 0.004, DRAPE, out);
  else if (drape) addSlope(face === 0 ? sideFold : footFold, x, y, z, s, 0.004, HANG, out);
  // Creases: folds a few centimetres apart running along the piece's width (local X), where a
  // hide flexes; in patches, not everywhere. Noise alone, without a direction, reads as hammered metal.
  if (kind === 'leather') addSlope(fold, x, y, z, s, 0.002, CREASE, out);
  return true;
}

/** Adds to `out` the slope of a fold's profile at a point (forward differences over `d` metres), `depth` normal units per unit of slope. */
function addSlope(profile: (x: number, y: number, z: number, s: number) => number, x: number, y: number, z: number, s: number, d: number, depth: number, out: Vec3): void {
  const c0 = profile(x, y, z, s);
  out[0] += ((profile(x + d, y, z, s) - c0) / d) * depth;
  out[1] += ((profile(x, y + d, z, s) - c0) / d) * depth;
  out[2] += ((profile(x, y, z + d, s) - c0) / d) * depth;
}

/** How deep in a crease (0..1) a hide's point lies, for a material's seed: where `relief` folds it. */
export const leatherCrease = (x: number, y: number, z: number, seed: number) => fold(x, y, z, seed + RELIEF_SEED);

/** A leather crease's profile at a point (module level: a closure per shaded sample costs more than the noise). */
function fold(x: number, y: number, z: number, s: number): number {
  return (1 - Math.abs(2 * noise3(x * 5, y * 30, z * 30, s + 5) - 1)) ** 3 * smoothstep(0.45, 0.7, noise3(x * 3, y * 3, z * 3, s + 9));
}

/** A bedding fold's profile at a point: ridged noise stretched along Z, its course warped, faded out between patches. */
function bedFold(x: number, y: number, z: number, s: number): number {
  const warp = (noise3(x * 2, y * 2, z * 2, s + 13) - 0.5) * 0.25;
  return (1 - Math.abs(2 * noise3((x + warp) * 9, y * 9, z * 1.5, s + 11) - 1)) ** 2 * smoothstep(0.35, 0.65, noise3(x * 1.5, y * 1.5, z * 1.5, s + 15));
}

/** A hanging fold's profile at `along` the edge and height y: ridged noise stretched down the fall, fading out towards the top edge. */
function hangFold(along: number, y: number, s: number): number {
  return (1 - Math.abs(2 * noise3(along * 8, y * 1.5, 0, s + 21) - 1)) ** 2 * smoothstep(0.6, 0.3, y);
}
const sideFold = (x: number, y: number, z: number, s: number) => hangFold(z, y, s);
const footFold = (x: number, y: number, z: number, s: number) => hangFold(x, y, s);

/** Depth of a bedding fold's slope, in normal units per metre of its profile: lying on top, and hanging (deeper, as cloth falls in folds). */
const DRAPE = 0.012;
const HANG = 0.035;

/** Depth of a leather crease's slope, in normal units per metre of the fold's profile. */
const CREASE = 0.004;

/**
 * How glossy a hide is at a point, as a factor on its sheen (about 0.45 to 1.4): the finish is
 * rubbed to a shine in patches a hand across and dull down its creases, so its highlight breaks
 * up as a worn hide's does, where an even sheen reads as vinyl.
 */
export function leatherSheen(x: number, y: number, z: number, seed: number): number {
  const rubbed = fbm3(x * 7, y * 7, z * 7, seed + 23, 2);
  return (0.45 + 0.95 * smoothstep(0.25, 0.75, rubbed)) * (1 - 0.5 * leatherCrease(x, y, z, seed));
}

/**
 * Pile at the scales a listing photo shows: single tufts (a few millimetres, seen as grain),
 * the tufting rows (yarn a shade lighter or darker along a row, a few millimetres across and
 * centimetres long: what makes a rug read as woven at 3-5 mm a pixel), tuft clusters (about 2 cm)
 * and the pile's lay (a broad sheen a hand brushing it would leave).
 */
function pile(x: number, z: number, seed: number): number {
  return (
    1 +
    (noise3(x * 300, 0, z * 300, seed) - 0.5) * 0.22 +
    (noise3(x * 18, 0, z * 160, seed + 4) - 0.5) * 0.14 +
    (noise3(x * 45, 0, z * 45, seed + 2) - 0.5) * 0.14 +
    (fbm3(x * 3, 0, z * 3, seed + 1, 2) - 0.5) * 0.14
  );
}

/** Dyed wool reads less saturated than its dye: the fibres' sheen and the light scattered between them. */
const RUG_SATURATION = 0.75;

/**
 * Rug patterns in rug-local metres (origin at the centre); `pattern` picks the style. The
 * pattern is woven, not printed: its lines wander a few millimetres along the rug, and each
 * boundary frays on the scale of a knot, so the colours bleed into each other there.
 */
function rugPattern(pm: PreparedMaterial, px: number, pz: number, seed: number, out: Vec3): void {
  const { m, c1, c2, c3 } = pm;
  // Past the rug's end (and clear of its end face, at the end within rounding): the fringe.
  const beyond = Math.abs(px) - (m.half?.[0] ?? Infinity);
  if (m.fringe && beyond > 0.001) {
    fringeColour(c3, beyond, pz, seed, out);
    return;
  }
  const x = px + (noise3(px * 2, 0, pz * 2, seed + 21) - 0.5) * 0.01 + (noise3(px * 250, 0, pz * 250, seed + 23) - 0.5) * 0.007;
  const z = pz + (noise3(px * 2, 0, pz * 2, seed + 22) - 0.5) * 0.01 + (noise3(px * 250, 0, pz * 250, seed + 24) - 0.5) * 0.007;
  const ax = Math.abs(x);
  const az = Math.abs(z);
  let t = 0;
  let u = 0;
  let g = 0;
  let abrash = 1;
  switch (m.pattern ?? 0) {
    case 1: {
      // Traditional (Persian-like): guard stripes of interlocking teeth and of beads, a border
      // with a vine meandering between rosettes, a central medallion with petals, and a field of
      // small motifs repeated in rows (herati-like), each knotted a little differently, with
      // gold accents. A lattice of lines across the field read as printed vinyl, and a sparse
      // field of dots as a graphic: a rug's design is dense, small and irregular.
      const [hx, hz] = m.half ?? [1, 1];
      const edge = Math.min(hx - ax, hz - az);
      const along = hx - ax < hz - az ? z : x;
      const wear = fbm3(x * 4, 0, z * 4, seed + 3, 2);
      if (edge < 0.035) t = 1;
      else if (edge < 0.055) {
        // Outer guard: cream teeth on red, each pointing into the next (a reciprocal row).
        const f = along / 0.024;
        if ((edge - 0.035) / 0.02 < Math.abs(f - Math.floor(f) - 0.5) * 2) u = 0.8;
      } else if (edge < 0.17) {
        // The border: the vine's stem weaves across the band; a rosette sits in each bend, red
        // and gold by turns, and a gold bud on each crest's outer side.
        t = 1;
        const phase = along / 0.16;
        const stem = 0.1125 + 0.035 * Math.sin(phase * 2 * Math.PI);
        if (Math.abs(edge - stem) < 0.008) u = 0.75;
        // Bends at phase 0.25, 0.75, ...; the rosette sits inside each, across from the stem's crest.
        const k = Math.round((phase - 0.25) * 2);
        const inside = k % 2 === 0 ? -1 : 1;
        const dx = (phase - 0.25 - k / 2) * 0.16;
        const r = Math.hypot(dx, edge - 0.1125 - 0.03 * inside);
        if (r < 0.022) {
          t = r < 0.009 ? 0 : 0.15;
          u = r < 0.009 ? 0.8 : 0;
          g = r >= 0.009 && k % 4 < 2 ? 0.85 : 0;
        } else if (Math.hypot(dx, edge - stem + 0.017 * inside) < 0.008) g = 0.8;
      } else if (edge < 0.19) {
        // Inner guard: a cream stripe strung with red beads.
        const f = along / 0.03;
        u = Math.hypot((f - Math.floor(f) - 0.5) * 0.03, edge - 0.18) < 0.0055 ? 0 : 0.8;
      } else if (edge < 0.21) t = 1;
      else {
        const rad = Math.hypot(x / (hx * 0.55), z / (hz * 0.55));
        const petal = Math.cos(Math.atan2(z, x) * 8) * 0.07;
        if (rad < 0.08 + petal * 0.3) g = 0.85;
        else if (rad < 0.16 + petal * 0.5) u = 0.85;
        else if (rad < 0.34 + petal) t = 0.95;
        else if (rad < 0.38 + petal) u = 0.65;
        else if (rad < 0.41 + petal) g = 0.6;
        else {
          const m0 = fieldMotif(x, z, seed);
          t = m0.t;
          u = m0.u;
          g = m0.g;
        }
      }
      t *= 0.85 + 0.3 * wear;
      u *= 0.8 + 0.3 * wear;
      g *= 0.8 + 0.3 * wear;
      // Abrash: wool dyed in batches, so the field's ground changes shade in bands across the
      // rug's length as the weaver moved on to the next batch.
      const length = hx > hz ? x : z;
      abrash = 1 + (fbm3(length * 1.6, 0, 0, seed + 41, 2) - 0.5) * 0.22;
      break;
    }
    case 2: {
      // Modern: a trellis (interlocking curved lattice) tufted in the second colour on the
      // first, a stager's staple. Its lines curve, so none lines up with a tiled floor's grout,
      // and it repeats, so its tone steps read as design: one large low-contrast shape, a disc
      // half under the table, read as a stain or a shadow. Outlines wander like tufting.
      const wander = (noise3(x * 7, 0, z * 7, seed + 31) - 0.5) * 0.03;
      const cu = Math.abs(Math.cos((Math.PI * x) / TRELLIS));
      const cv = Math.abs(Math.cos((Math.PI * z) / TRELLIS));
      const line = Math.abs(cu + cv - 1 + wander);
      t = 0.6 * (1 - smoothstep(0.05, 0.085, line)) + (noise3(x * 90, 0, z * 90, seed + 33) - 0.5) * 0.18;
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
  out[0] = c1[0] * abrash;
  out[1] = c1[1] * abrash;
  out[2] = c1[2] * abrash;
  mix3(out, c2, clamp(t, 0, 1), out);
  if (u > 0) mix3(out, c3, clamp(u, 0, 1), out);
  if (g > 0) mix3(out, pm.c4, clamp(g, 0, 1), out);
  const lum = luminance(...out);
  // The pile rolls over at the rug's edge and its binding is in shade: a thin darker rim.
  const [hx, hz] = m.half ?? [Infinity, Infinity];
  const k = pile(px, pz, seed) * (0.75 + 0.25 * smoothstep(0, 0.025, Math.min(hx - Math.abs(px), hz - Math.abs(pz))));
  out[0] = (lum + (out[0] - lum) * RUG_SATURATION) * k;
  out[1] = (lum + (out[1] - lum) * RUG_SATURATION) * k;
  out[2] = (lum + (out[2] - lum) * RUG_SATURATION) * k;
}

/**
 * A fringe's yarn `beyond` metres past the rug's end at `z` along it: the undyed warp, paler than
 * the pattern's cream, each tassel a little different, in the shade of the rug's
 * edge where it leaves it and soiled towards the tips, where feet and the vacuum catch it.
 */
function fringeColour(cream: Vec3, beyond: number, z: number, seed: number, out: Vec3): void {
  const k = (0.85 + 0.3 * noise3(0, 0, z * 90, seed + 51)) * (0.7 + 0.3 * smoothstep(0, 0.015, beyond)) * (1 - 0.15 * smoothstep(0.03, 0.08, beyond));
  for (let i = 0; i < 3; i++) out[i] = (cream[i]! + (WARP[i]! - cream[i]!) * 0.85) * k;
}

/** Undyed cotton warp, linear: near white, a little warm. */
const WARP: Vec3 = [0.8, 0.75, 0.62];

/** Spacing of a traditional rug's field motifs (metres). */
const MOTIF = 0.2;
/**
 * Period of the modern rug's trellis (metres): a tufted trellis's motif is a hand or so across.
 * At 36 cm, with broader lines, it read at listing size as large printed circles.
 */
const TRELLIS = 0.28;

/**
 * One motif of a traditional rug's field at rug-local (x, z): a rosette of the third colour
 * ringed in the second, four leaves pointing to the diagonal neighbours, a gold blossom where
 * four motifs' leaves meet and gold buds between two motifs. Each motif's leaves take the
 * second or third colour and its tone varies, as knotted by hand. Returns the mix towards the
 * second (t), third (u) and fourth (g) colours.
 */
function fieldMotif(x: number, z: number, seed: number): { t: number; u: number; g: number } {
  const row = Math.floor(z / MOTIF);
  const col = Math.floor(x / MOTIF);
  const gx = x / MOTIF - col - 0.5;
  const gz = z / MOTIF - row - 0.5;
  const r = Math.hypot(gx, gz);
  const pick = hash3(col, row, 5, seed);
  const tone = 0.8 + 0.35 * hash3(col, row, 6, seed);
  if (r < 0.06) return { t: 0, u: 0.75 * tone, g: 0 };
  if (r < 0.16) return { t: 0.85 * tone, u: 0, g: 0 };
  // Leaves along the diagonals: lens-shaped, widest halfway out.
  const a = (Math.abs(gx) + Math.abs(gz)) / Math.SQRT2;
  const b = Math.abs(Math.abs(gx) - Math.abs(gz)) / Math.SQRT2;
  const s = (a - 0.18) / 0.3;
  // Cream only as an accent: whole cream leaves and discs read as polka dots at listing size.
  if (s > 0 && s < 1 && b < 0.11 * Math.sin(s * Math.PI)) return pick < 0.3 ? { t: 0.35 * tone, u: 0.2 * tone, g: 0 } : { t: 0.7 * tone, u: 0, g: 0 };
  // A small four-petalled blossom where four motifs' leaves meet, and a fine tendril along each
  // diagonal. The blossom is one tone: its four quarters lie in four motifs.
  const bx = Math.abs(gx) - 0.5;
  const bz = Math.abs(gz) - 0.5;
  if (Math.hypot(bx, bz) < 0.025 + 0.02 * Math.abs(Math.cos(2 * Math.atan2(bz, bx)))) return { t: 0, u: 0, g: 0.7 };
  if (b < 0.018 + 0.012 * Math.sin(a * 40)) return { t: 0.45 * tone, u: 0, g: 0 };
  // A gold leaf across the line between two motifs, half in each: a lancet, as a round bud
  // read as a polka dot.
  if (Math.min(Math.hypot(bx * 2.5, gz), Math.hypot(gx, bz * 2.5)) < 0.08) return { t: 0, u: 0, g: 0.45 * tone };
  return { t: 0, u: 0, g: 0 };
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
      // Marbled abstract: pools of colour with crisp, ragged edges and fine gold veins. Blended
      // over a wide band, the pools read as a print out of focus, not as paint.
      const warp = fbm3(x * 2, y * 2, 0, seed + 7, 3) * 1.5;
      t = smoothstep(0.53, 0.56, fbm3(x * 3 + warp, y * 3, 0, seed, 6));
      const vein = Math.abs(fbm3(x * 5 + warp, y * 5 - warp, 0, seed + 4, 5) - 0.5);
      u = smoothstep(0.01, 0.003, vein) * (0.6 + 0.4 * fbm3(x * 9, y * 9, 0, seed + 9, 2));
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
