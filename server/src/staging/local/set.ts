/**
 * Furniture sets (issue 15): which variant of each piece and which colourways and finishes a
 * staging uses, within its style. A listing's look (its id) picks one set per style, so every
 * room of the listing gets the same sofa, wood and metal; without a look a photo gets the style's
 * house set (the first choice of every list, which is exactly STYLE_DEFS).
 *
 * Choices are split in two: the hero choices (sofa, upholstery, wood, metal, accent chair, coffee
 * table, the rug's colours) make the set recognisable and never change within a look; the
 * secondary ones (the rug's design, the art, the plant) are what a variation may change.
 * docs/decisions/0025-local-engine-looks-and-variations.md records why.
 */
import type { Style } from '@roomstager/contracts';
import type { Material } from './materials.ts';
import { hashString, mulberry32 } from './prng.ts';
import { STYLE_DEFS, type PieceChoices, type PlantKind, type SofaModel, type StyleDef } from './styles.ts';
import type { Vec3 } from './vec.ts';

/** One option of a list: what it is called (the remote prompt says it) and what it sets. */
interface Choice<T> {
  name: string;
  value: T;
}

interface Upholstery {
  cover: Vec3;
  pillows: [Vec3, Vec3];
}

interface Finish {
  color: Vec3;
  color2?: Vec3;
  spec?: number;
  /** A metal polished to a mirror; a set's metal says its own (absent: brushed, rubbed or antiqued). */
  polished?: boolean;
}

interface Art {
  pattern: number;
  colors: [Vec3, Vec3, Vec3];
}

/** A style's lists; the first entry of each is the house set's. */
interface StyleChoices {
  sofa: Array<Choice<SofaModel>>;
  upholstery: Array<Choice<Upholstery>>;
  wood: Array<Choice<{ wood: Finish; light: Finish }>>;
  metal: Array<Choice<Finish>>;
  accent: Array<Choice<Vec3>>;
  coffeeTable: Array<Choice<PieceChoices['coffeeTable']>>;
  rugColours: Array<Choice<[Vec3, Vec3, Vec3]>>;
  rugDesign: Array<Choice<number>>;
  art: Array<Choice<Art>>;
  plant: Array<Choice<PlantKind>>;
}

/** The choices in words, in one fixed order: the prompt's description, and what tests compare. */
export interface SetNames {
  sofa: string;
  upholstery: string;
  wood: string;
  metal: string;
  accent: string;
  coffeeTable: string;
  rugColours: string;
  rugDesign: string;
  art: string;
  plant: string;
}

export interface FurnitureSet {
  /** The style with the set's pieces and materials: what the layout and the builders read. */
  def: StyleDef;
  names: SetNames;
}

const HERO = ['sofa', 'upholstery', 'wood', 'metal', 'accent', 'coffeeTable', 'rugColours'] as const;
const SECONDARY = ['rugDesign', 'art', 'plant'] as const;

const RECT = { name: 'rectangular', value: 'rect' } as const;
const ROUND = { name: 'round', value: 'round' } as const;
const GLASS = { name: 'glass-topped', value: 'glass' } as const;
const house = STYLE_DEFS;
const rugOf = (s: Style): [Vec3, Vec3, Vec3] => {
  const m = house[s].materials.rug;
  return [m.color, m.color2 ?? m.color, m.color3 ?? m.color2 ?? m.color];
};
const artOf = (s: Style): Art => {
  const m = house[s].materials.art;
  return { pattern: m.pattern ?? 0, colors: [m.color, m.color2 ?? m.color, m.color3 ?? m.color2 ?? m.color] };
};
/** A wood's colours only: its gloss is the style's. */
const woodOf = (s: Style) => {
  const { wood, woodLight } = house[s].materials;
  return { wood: { color: wood.color, color2: wood.color2 }, light: { color: woodLight.color, color2: woodLight.color2 } };
};
const metalOf = (s: Style): Finish => ({ color: house[s].materials.metal.color, spec: house[s].materials.metal.spec, polished: house[s].materials.metal.polished ?? false });

const CHOICES: Record<Style, StyleChoices> = {
  modern: {
    sofa: [
      { name: 'three-seat track-arm', value: house.modern.pieces.sofa },
      { name: 'two-seat wide-arm', value: { width: 0.93, cushions: 2, arms: 1.7 } },
      { name: 'long bench-seat', value: { width: 1.08, cushions: 1, arms: 0.8 } },
    ],
    upholstery: [
      { name: 'mid-grey woven', value: { cover: house.modern.materials.upholstery.color, pillows: [house.modern.materials.pillowA.color, house.modern.materials.pillowB.color] } },
      { name: 'charcoal linen', value: { cover: [0.24, 0.24, 0.25], pillows: [[0.78, 0.76, 0.7], [0.55, 0.33, 0.2]] } },
      { name: 'oatmeal boucle', value: { cover: [0.7, 0.66, 0.58], pillows: [[0.3, 0.33, 0.3], [0.85, 0.83, 0.78]] } },
      { name: 'slate-blue wool', value: { cover: [0.3, 0.36, 0.44], pillows: [[0.85, 0.82, 0.75], [0.7, 0.5, 0.22]] } },
    ],
    wood: [
      { name: 'walnut', value: woodOf('modern') },
      { name: 'natural oak', value: { wood: { color: [0.6, 0.44, 0.28], color2: [0.46, 0.32, 0.19] }, light: { color: [0.68, 0.52, 0.34], color2: [0.55, 0.4, 0.25] } } },
      { name: 'smoked oak', value: { wood: { color: [0.27, 0.21, 0.16], color2: [0.17, 0.12, 0.08] }, light: { color: [0.36, 0.28, 0.2], color2: [0.24, 0.17, 0.11] } } },
    ],
    metal: [
      { name: 'matte black', value: metalOf('modern') },
      { name: 'brushed brass', value: { color: [0.72, 0.58, 0.36], spec: 0.6 } },
      { name: 'brushed steel', value: { color: [0.6, 0.6, 0.61], spec: 0.55 } },
    ],
    accent: [
      { name: 'cognac leather', value: house.modern.materials.chairFabric.color },
      { name: 'black leather', value: [0.08, 0.08, 0.08] },
      { name: 'olive leather', value: [0.32, 0.33, 0.2] },
    ],
    coffeeTable: [GLASS, RECT, ROUND],
    rugColours: [
      { name: 'warm grey', value: rugOf('modern') },
      { name: 'charcoal and ivory', value: [[0.82, 0.8, 0.75], [0.3, 0.3, 0.31], [0.55, 0.54, 0.52]] },
      { name: 'sand and rust', value: [[0.76, 0.68, 0.56], [0.62, 0.52, 0.4], [0.55, 0.3, 0.18]] },
    ],
    rugDesign: [
      { name: 'large overlapping discs', value: 2 },
      { name: 'a flat weave', value: 0 },
      { name: 'a cloudy field and a thin border', value: 3 },
    ],
    art: [
      { name: 'an abstract print of a circle and blocks', value: artOf('modern') },
      { name: 'a marbled abstract in ink blue and ochre', value: { pattern: 0, colors: [[0.9, 0.88, 0.84], [0.2, 0.27, 0.4], [0.78, 0.58, 0.28]] } },
      { name: 'a single black arc on paper', value: { pattern: 3, colors: [[0.93, 0.92, 0.88], [0.1, 0.1, 0.1], [0.1, 0.1, 0.1]] } },
    ],
    plant: [
      { name: 'a fiddle-leaf fig', value: 'fig' },
      { name: 'a large-leaved palm', value: 'palm' },
    ],
  },
  traditional: {
    sofa: [
      { name: 'three-seat rolled-arm', value: house.traditional.pieces.sofa },
      { name: 'two-seat rolled-arm', value: { width: 0.92, cushions: 2, arms: 1.2 } },
      { name: 'bench-seat camelback', value: { width: 1.05, cushions: 1, arms: 1 } },
    ],
    upholstery: [
      { name: 'camel', value: { cover: house.traditional.materials.upholstery.color, pillows: [house.traditional.materials.pillowA.color, house.traditional.materials.pillowB.color] } },
      { name: 'sage green', value: { cover: [0.5, 0.55, 0.44], pillows: [[0.85, 0.8, 0.68], [0.55, 0.2, 0.16]] } },
      { name: 'ivory damask', value: { cover: [0.84, 0.8, 0.7], pillows: [[0.2, 0.25, 0.4], [0.7, 0.55, 0.28]] } },
      { name: 'navy', value: { cover: [0.16, 0.2, 0.32], pillows: [[0.85, 0.78, 0.62], [0.6, 0.18, 0.15]] } },
    ],
    wood: [
      { name: 'brown mahogany', value: woodOf('traditional') },
      { name: 'cherry', value: { wood: { color: [0.5, 0.24, 0.12], color2: [0.34, 0.14, 0.06] }, light: { color: [0.6, 0.33, 0.17], color2: [0.44, 0.22, 0.1] } } },
      { name: 'dark oak', value: { wood: { color: [0.3, 0.2, 0.12], color2: [0.18, 0.11, 0.06] }, light: { color: [0.42, 0.3, 0.18], color2: [0.28, 0.19, 0.1] } } },
    ],
    metal: [
      { name: 'antique brass', value: metalOf('traditional') },
      { name: 'oil-rubbed bronze', value: { color: [0.28, 0.2, 0.13], spec: 0.5 } },
      { name: 'polished nickel', value: { color: [0.75, 0.74, 0.7], spec: 0.75, polished: true } },
    ],
    accent: [
      { name: 'forest green', value: house.traditional.materials.chairFabric.color },
      { name: 'burgundy', value: [0.4, 0.1, 0.12] },
      { name: 'gold', value: [0.68, 0.54, 0.28] },
    ],
    coffeeTable: [RECT, ROUND],
    rugColours: [
      { name: 'red and navy', value: rugOf('traditional') },
      { name: 'indigo and ivory', value: [[0.18, 0.22, 0.38], [0.78, 0.74, 0.64], [0.62, 0.45, 0.25]] },
      { name: 'green and gold', value: [[0.26, 0.34, 0.26], [0.7, 0.6, 0.38], [0.82, 0.75, 0.58]] },
    ],
    rugDesign: [
      { name: 'a Persian medallion and border', value: 1 },
      { name: 'a cloudy field and a thin border', value: 3 },
    ],
    art: [
      { name: 'a landscape painting', value: artOf('traditional') },
      { name: 'a seascape', value: { pattern: 1, colors: [[0.7, 0.78, 0.84], [0.3, 0.4, 0.5], [0.62, 0.58, 0.42]] } },
      { name: 'a muted marbled study', value: { pattern: 0, colors: [[0.82, 0.78, 0.68], [0.45, 0.36, 0.26], [0.6, 0.5, 0.3]] } },
    ],
    plant: [
      { name: 'a ficus', value: 'ficus' },
      { name: 'a fiddle-leaf fig', value: 'fig' },
    ],
  },
  minimalist: {
    sofa: [
      { name: 'low bench-seat', value: house.minimalist.pieces.sofa },
      { name: 'low two-seat', value: { width: 0.95, cushions: 2, arms: 0.8 } },
      { name: 'low three-seat slim-arm', value: { width: 1.05, cushions: 3, arms: 0.6 } },
    ],
    upholstery: [
      { name: 'off-white', value: { cover: house.minimalist.materials.upholstery.color, pillows: [house.minimalist.materials.pillowA.color, house.minimalist.materials.pillowB.color] } },
      { name: 'pale grey', value: { cover: [0.72, 0.72, 0.71], pillows: [[0.88, 0.87, 0.84], [0.62, 0.6, 0.56]] } },
      { name: 'sand', value: { cover: [0.78, 0.72, 0.62], pillows: [[0.9, 0.88, 0.83], [0.66, 0.6, 0.5]] } },
    ],
    wood: [
      { name: 'light oak', value: woodOf('minimalist') },
      { name: 'white ash', value: { wood: { color: [0.86, 0.79, 0.66], color2: [0.76, 0.68, 0.54] }, light: { color: [0.88, 0.82, 0.7], color2: [0.78, 0.7, 0.57] } } },
      { name: 'natural walnut', value: { wood: { color: [0.48, 0.34, 0.24], color2: [0.36, 0.25, 0.17] }, light: { color: [0.56, 0.41, 0.29], color2: [0.43, 0.3, 0.2] } } },
    ],
    metal: [
      { name: 'white powder-coat', value: metalOf('minimalist') },
      { name: 'brushed steel', value: { color: [0.62, 0.62, 0.63], spec: 0.45 } },
      { name: 'matte black', value: { color: [0.05, 0.05, 0.05], spec: 0.3 } },
    ],
    accent: [
      { name: 'oat', value: house.minimalist.materials.chairFabric.color },
      { name: 'stone grey', value: [0.62, 0.61, 0.58] },
    ],
    coffeeTable: [ROUND, RECT],
    rugColours: [
      { name: 'natural', value: rugOf('minimalist') },
      { name: 'light grey', value: [[0.78, 0.78, 0.76], [0.68, 0.68, 0.66], [0.6, 0.6, 0.58]] },
      { name: 'oat', value: [[0.82, 0.76, 0.66], [0.72, 0.66, 0.56], [0.64, 0.58, 0.48]] },
    ],
    rugDesign: [
      { name: 'a faint herringbone weave', value: 0 },
      { name: 'large overlapping discs', value: 2 },
    ],
    art: [
      { name: 'a single arc on warm paper', value: artOf('minimalist') },
      { name: 'a pale marbled print', value: { pattern: 0, colors: [[0.94, 0.92, 0.88], [0.72, 0.68, 0.62], [0.82, 0.78, 0.7]] } },
    ],
    plant: [
      { name: 'an olive tree', value: 'olive' },
      { name: 'a ficus', value: 'ficus' },
    ],
  },
  luxury: {
    sofa: [
      { name: 'curved three-seat', value: house.luxury.pieces.sofa },
      { name: 'deep two-seat', value: { width: 0.92, cushions: 2, arms: 1.2 } },
      { name: 'long bench-seat', value: { width: 1.06, cushions: 1, arms: 0.9 } },
    ],
    upholstery: [
      { name: 'emerald velvet', value: { cover: house.luxury.materials.upholstery.color, pillows: [house.luxury.materials.pillowA.color, house.luxury.materials.pillowB.color] } },
      { name: 'midnight-blue velvet', value: { cover: [0.08, 0.12, 0.28], pillows: [[0.8, 0.64, 0.34], [0.86, 0.82, 0.74]] } },
      { name: 'blush velvet', value: { cover: [0.72, 0.5, 0.46], pillows: [[0.86, 0.82, 0.74], [0.8, 0.64, 0.34]] } },
      { name: 'ivory velvet', value: { cover: [0.84, 0.8, 0.72], pillows: [[0.06, 0.28, 0.21], [0.8, 0.64, 0.34]] } },
    ],
    wood: [
      { name: 'ebonised wood', value: woodOf('luxury') },
      { name: 'dark walnut', value: { wood: { color: [0.3, 0.18, 0.11], color2: [0.19, 0.11, 0.06] }, light: { color: [0.4, 0.26, 0.15], color2: [0.27, 0.16, 0.09] } } },
      { name: 'rosewood', value: { wood: { color: [0.34, 0.14, 0.1], color2: [0.2, 0.07, 0.05] }, light: { color: [0.44, 0.2, 0.14], color2: [0.3, 0.12, 0.08] } } },
    ],
    metal: [
      { name: 'polished brass', value: metalOf('luxury') },
      { name: 'champagne gold', value: { color: [0.82, 0.74, 0.6], spec: 0.85 } },
      { name: 'polished chrome', value: { color: [0.8, 0.8, 0.82], spec: 0.9, polished: true } },
    ],
    accent: [
      { name: 'blush velvet', value: house.luxury.materials.chairFabric.color },
      { name: 'ivory velvet', value: [0.86, 0.82, 0.74] },
      { name: 'ink-blue velvet', value: [0.12, 0.16, 0.3] },
    ],
    coffeeTable: [ROUND, RECT, GLASS],
    rugColours: [
      { name: 'ivory and gold', value: rugOf('luxury') },
      { name: 'silver-grey', value: [[0.74, 0.74, 0.75], [0.6, 0.6, 0.62], [0.85, 0.85, 0.86]] },
      { name: 'navy and gold', value: [[0.16, 0.2, 0.32], [0.12, 0.15, 0.25], [0.74, 0.58, 0.32]] },
    ],
    rugDesign: [
      { name: 'a cloudy field and a fine border', value: 3 },
      { name: 'large overlapping discs', value: 2 },
    ],
    art: [
      { name: 'a marbled abstract in navy and gold', value: artOf('luxury') },
      { name: 'an abstract of a circle and blocks in gold', value: { pattern: 2, colors: [[0.9, 0.87, 0.8], [0.12, 0.14, 0.2], [0.78, 0.6, 0.3]] } },
    ],
    plant: [
      { name: 'a large-leaved palm', value: 'palm' },
      { name: 'a fiddle-leaf fig', value: 'fig' },
    ],
  },
};

/** Index of every list: the house set's (0) without a seed, else drawn from the seed. */
type Picks = Record<keyof StyleChoices, number>;

function pick(choices: StyleChoices, hero: number | null, secondary: number | null): Picks {
  const picks = {} as Picks;
  const draw = (keys: ReadonlyArray<keyof StyleChoices>, seed: number | null) => {
    const rng = seed === null ? null : mulberry32(seed);
    for (const k of keys) picks[k] = rng ? Math.floor(rng() * choices[k].length) : 0;
  };
  draw(HERO, hero);
  draw(SECONDARY, secondary);
  return picks;
}

const tint = (m: Material, f: Finish): Material => ({ ...m, color: f.color, color2: f.color2 ?? m.color2, spec: f.spec ?? m.spec, polished: f.polished });

/**
 * The set for a style: hero choices from `hero`, secondary ones from `secondary` (either null for
 * the house choice). Materials keep the style's kinds (fabric or velvet, its wood's gloss); only
 * colours, finishes and piece variants change, so every set stays within the style.
 */
export function chooseSet(style: Style, hero: number | null, secondary: number | null): FurnitureSet {
  const choices = CHOICES[style];
  const p = pick(choices, hero, secondary);
  const base = STYLE_DEFS[style];
  const m = base.materials;
  const up = choices.upholstery[p.upholstery]!.value;
  const wood = choices.wood[p.wood]!.value;
  const metal = choices.metal[p.metal]!.value;
  const rug = choices.rugColours[p.rugColours]!.value;
  const art = choices.art[p.art]!.value;
  const materials = {
    ...m,
    upholstery: { ...m.upholstery, color: up.cover },
    pillowA: { ...m.pillowA, color: up.pillows[0] },
    pillowB: { ...m.pillowB, color: up.pillows[1] },
    wood: tint(m.wood, wood.wood),
    woodLight: tint(m.woodLight, wood.light),
    metal: tint(m.metal, metal),
    chairFabric: { ...m.chairFabric, color: choices.accent[p.accent]!.value },
    rug: { ...m.rug, color: rug[0], color2: rug[1], color3: rug[2], pattern: choices.rugDesign[p.rugDesign]!.value },
    art: { ...m.art, color: art.colors[0], color2: art.colors[1], color3: art.colors[2], pattern: art.pattern },
  };
  // Tops and frames are of the set's wood or metal where the style makes them so (marble stays marble).
  if (m.top.kind === 'wood') materials.top = tint(m.top, wood.wood);
  if (m.frame.kind === 'wood') materials.frame = tint(m.frame, wood.wood);
  // The house frames are finished apart from the house metal (a softer sheen); another metal takes them along.
  if (m.frame.kind === 'metal' && p.metal > 0) materials.frame = tint(m.frame, { color: metal.color });
  const def: StyleDef = {
    ...base,
    materials,
    pieces: { sofa: choices.sofa[p.sofa]!.value, coffeeTable: choices.coffeeTable[p.coffeeTable]!.value, plant: choices.plant[p.plant]!.value },
  };
  const names = Object.fromEntries(Object.entries(p).map(([k, i]) => [k, choices[k as keyof StyleChoices][i]!.name])) as unknown as SetNames;
  return { def, names };
}

/** The seed of a look's set in a style: the same listing in another style gets another set. */
function lookSeed(style: Style, look: string): number {
  return hashString(`${style}:${look}`);
}

/**
 * The set of one variation. With a look, every variation keeps the look's hero choices and the
 * first keeps its secondary ones too (so a listing's rooms match in their first variation);
 * further variations draw new secondary choices. Without a look the first is the house set and
 * further ones are drawn whole from the photo (`photoSeed`).
 */
export function variationSet(style: Style, variation: number, look: string | undefined, photoSeed: number): FurnitureSet {
  if (look !== undefined) {
    const seed = lookSeed(style, look);
    return chooseSet(style, seed, variation === 0 ? seed : hashString(`variation ${variation}`, seed));
  }
  if (variation === 0) return chooseSet(style, null, null);
  const seed = hashString(`${style} variation ${variation}`, photoSeed);
  return chooseSet(style, seed, seed);
}

/**
 * A look's set in plain words, for remote engines: their stagings of one listing are asked for
 * the same pieces and finishes the local engine would use.
 */
export function describeSet(style: Style, look: string): string {
  const n = chooseSet(style, lookSeed(style, look), lookSeed(style, look)).names;
  return (
    `Furniture set, the same in every photo of this property: a ${n.upholstery} ${n.sofa} sofa, ${n.wood} wood, ${n.metal} metal accents, ` +
    `a ${n.accent} accent chair, a ${n.coffeeTable} coffee table, a ${n.rugColours} rug with ${n.rugDesign}, ${n.art} on the wall and ${n.plant}.`
  );
}
