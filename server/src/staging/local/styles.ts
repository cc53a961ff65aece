import type { Style } from '@roomstager/contracts';
import type { Material } from './materials.ts';
import type { Vec3 } from './vec.ts';

/** Material roles that furniture builders ask for; each style fills them differently. */
export const ROLES = [
  'upholstery',
  'pillowA',
  'pillowB',
  'wood',
  'woodLight',
  'metal',
  'top',
  'rug',
  'chairFabric',
  'shade',
  'pot',
  'leaf',
  'trunk',
  'art',
  'frame',
  'mat',
  'bedding',
  'throw',
  'ceramic',
  'bookA',
  'bookB',
  'bookC',
  'dark',
  'glass',
] as const;
export type Role = (typeof ROLES)[number];

/** A sofa model: its width over the base size, seat cushions across, and arm width over the shape's. */
export interface SofaModel {
  width: number;
  cushions: number;
  arms: number;
}

/** Fiddle-leaf fig, ficus, olive tree, large-leaved palm. */
export type PlantKind = 'fig' | 'ficus' | 'olive' | 'palm';

/** Which variant of a piece the builders make (set.ts chooses them; the house set is each style's own). */
export interface PieceChoices {
  sofa: SofaModel;
  /** A wooden or metal top, round, or a glass top in a frame over a shelf. */
  coffeeTable: 'rect' | 'round' | 'glass';
  plant: PlantKind;
}

export interface StyleDef {
  materials: Record<Role, Material>;
  pieces: PieceChoices;
  /** Multiplier on furniture sizes (luxury pieces are larger). */
  scale: number;
  /** Leg/arm shapes the builders switch on. */
  shape: 'square' | 'rolled' | 'soft' | 'curved';
  /** Pieces this style leaves out to keep the floor open. */
  omit: ReadonlyArray<string>;
}

const fabric = (color: Vec3): Material => ({ kind: 'fabric', color, spec: 0.03, shininess: 8 });
const velvet = (color: Vec3): Material => ({ kind: 'velvet', color, spec: 0.05, shininess: 10 });
const wood = (color: Vec3, color2: Vec3, spec = 0.12): Material => ({ kind: 'wood', color, color2, spec, shininess: 30 });
const metal = (color: Vec3, spec: number, polished = false): Material => ({ kind: 'metal', color, spec, shininess: 60, polished });
const plain = (color: Vec3, spec = 0.05): Material => ({ kind: 'plain', color, spec, shininess: 20 });
/** Clear float glass, faintly green in the little light it scatters (render.ts). */
const glass: Material = { kind: 'glass', color: [0.8, 0.88, 0.84], spec: 1, shininess: 100 };
const leaf: Material = { kind: 'leaf', color: [0.16, 0.3, 0.11], color2: [0.3, 0.42, 0.14], spec: 0.12, shininess: 25 };
const books = {
  bookA: plain([0.55, 0.5, 0.42]),
  bookB: plain([0.2, 0.25, 0.32]),
  bookC: plain([0.75, 0.72, 0.66]),
};

export const STYLE_DEFS: Record<Style, StyleDef> = {
  modern: {
    scale: 1,
    shape: 'square',
    pieces: { sofa: { width: 1, cushions: 3, arms: 1 }, coffeeTable: 'glass', plant: 'fig' },
    omit: [],
    materials: {
      // A mid-grey weave, as most grey sofas are: pale grey reads as unshaded clay in a photo.
      upholstery: fabric([0.47, 0.46, 0.44]),
      pillowA: fabric([0.72, 0.52, 0.2]),
      pillowB: fabric([0.84, 0.81, 0.74]),
      wood: wood([0.36, 0.22, 0.13], [0.22, 0.13, 0.07]),
      woodLight: wood([0.45, 0.3, 0.18], [0.3, 0.19, 0.1]),
      metal: metal([0.04, 0.04, 0.045], 0.35),
      top: wood([0.36, 0.22, 0.13], [0.22, 0.13, 0.07], 0.2),
      rug: { kind: 'rug', color: [0.7, 0.67, 0.61], color2: [0.57, 0.54, 0.49], color3: [0.42, 0.39, 0.35], spec: 0, shininess: 1, pattern: 2 },
      chairFabric: { kind: 'leather', color: [0.47, 0.3, 0.17], spec: 0.2, shininess: 25 },
      shade: { kind: 'linen', color: [0.92, 0.9, 0.86], spec: 0, shininess: 1, glow: 0.25 },
      pot: plain([0.12, 0.12, 0.12], 0.1),
      leaf,
      trunk: plain([0.3, 0.24, 0.18]),
      art: { kind: 'art', color: [0.9, 0.88, 0.84], color2: [0.12, 0.12, 0.13], color3: [0.75, 0.5, 0.2], spec: 0.02, shininess: 5, pattern: 2 },
      frame: metal([0.05, 0.05, 0.05], 0.2),
      mat: plain([0.94, 0.93, 0.9]),
      bedding: { kind: 'linen', color: [0.9, 0.9, 0.89], spec: 0.02, shininess: 5, drape: true },
      throw: fabric([0.36, 0.37, 0.38]),
      ceramic: { kind: 'ceramic', color: [0.85, 0.84, 0.8], spec: 0.4, shininess: 50 },
      // Satin black: the sling chair's square steel frame shows its faces by their sheen, where
      // matte black read as a cut-out; plinths, cords and castors take the same powder coat.
      dark: plain([0.05, 0.05, 0.05], 0.4),
      glass,
      ...books,
    },
  },
  traditional: {
    scale: 1,
    shape: 'rolled',
    pieces: { sofa: { width: 1, cushions: 3, arms: 1 }, coffeeTable: 'rect', plant: 'ficus' },
    omit: [],
    materials: {
      // A plain-woven cover: a tweed's nubs on a pale sofa read as a sponge at full size.
      upholstery: { ...fabric([0.72, 0.63, 0.5]), weave: 0.5 },
      pillowA: fabric([0.45, 0.12, 0.12]),
      pillowB: fabric([0.7, 0.55, 0.28]),
      // A brown mahogany, darker than the modern walnut: the wax's sheen of a bright room over a
      // red mahogany read as dusty pink on a top seen at a slant, and as orange on a frame in the sun.
      wood: wood([0.33, 0.18, 0.09], [0.19, 0.09, 0.04], 0.25),
      woodLight: wood([0.48, 0.26, 0.13], [0.32, 0.15, 0.07], 0.25),
      metal: metal([0.78, 0.6, 0.3], 0.7),
      top: wood([0.33, 0.18, 0.09], [0.19, 0.09, 0.04], 0.3),
      rug: { kind: 'rug', color: [0.46, 0.12, 0.1], color2: [0.14, 0.17, 0.28], color3: [0.8, 0.7, 0.52], color4: [0.72, 0.52, 0.2], spec: 0, shininess: 1, pattern: 1, fringe: true },
      chairFabric: fabric([0.22, 0.32, 0.24]),
      shade: { kind: 'linen', color: [0.93, 0.87, 0.74], spec: 0, shininess: 1, glow: 0.3 },
      // A cream stoneware glaze: a solid cobalt pot was the one cold, loud note among the camel,
      // oxblood and forest green, and drew the eye from the group in every traditional room.
      pot: { kind: 'ceramic', color: [0.8, 0.74, 0.62], spec: 0.45, shininess: 60 },
      leaf,
      trunk: plain([0.3, 0.22, 0.14]),
      art: { kind: 'art', color: [0.72, 0.76, 0.74], color2: [0.35, 0.42, 0.3], color3: [0.5, 0.52, 0.25], spec: 0.02, shininess: 5, pattern: 1 },
      frame: metal([0.75, 0.58, 0.3], 0.6),
      mat: plain([0.9, 0.86, 0.77]),
      bedding: { kind: 'linen', color: [0.93, 0.9, 0.84], spec: 0.02, shininess: 5, drape: true },
      throw: fabric([0.45, 0.12, 0.12]),
      ceramic: { kind: 'ceramic', color: [0.88, 0.86, 0.8], spec: 0.5, shininess: 60 },
      dark: plain([0.08, 0.05, 0.03]),
      glass,
      ...books,
    },
  },
  minimalist: {
    scale: 0.95,
    shape: 'soft',
    pieces: { sofa: { width: 1, cushions: 1, arms: 1 }, coffeeTable: 'round', plant: 'olive' },
    omit: ['armchair', 'sideTable', 'floorLamp', 'bench', 'sideboard'],
    materials: {
      upholstery: fabric([0.86, 0.84, 0.8]),
      pillowA: fabric([0.78, 0.72, 0.62]),
      pillowB: fabric([0.9, 0.88, 0.84]),
      wood: wood([0.8, 0.67, 0.49], [0.68, 0.54, 0.37]),
      woodLight: wood([0.82, 0.7, 0.52], [0.7, 0.57, 0.4]),
      metal: metal([0.85, 0.84, 0.82], 0.2),
      top: wood([0.8, 0.67, 0.49], [0.68, 0.54, 0.37]),
      rug: { kind: 'rug', color: [0.84, 0.8, 0.72], color2: [0.74, 0.69, 0.6], color3: [0.74, 0.69, 0.6], spec: 0, shininess: 1, pattern: 0 },
      chairFabric: fabric([0.82, 0.78, 0.7]),
      shade: { kind: 'linen', color: [0.95, 0.94, 0.91], spec: 0, shininess: 1, glow: 0.2 },
      pot: { kind: 'ceramic', color: [0.9, 0.89, 0.86], spec: 0.15, shininess: 20 },
      leaf: { ...leaf, color: [0.3, 0.38, 0.22], color2: [0.42, 0.5, 0.3] },
      trunk: plain([0.45, 0.38, 0.3]),
      art: { kind: 'art', color: [0.93, 0.91, 0.87], color2: [0.3, 0.28, 0.26], color3: [0.3, 0.28, 0.26], spec: 0.02, shininess: 5, pattern: 3 },
      frame: wood([0.8, 0.67, 0.49], [0.68, 0.54, 0.37]),
      mat: plain([0.95, 0.94, 0.91]),
      bedding: { kind: 'linen', color: [0.94, 0.93, 0.9], spec: 0.02, shininess: 5, drape: true },
      throw: fabric([0.8, 0.74, 0.64]),
      ceramic: { kind: 'ceramic', color: [0.92, 0.91, 0.88], spec: 0.2, shininess: 30 },
      dark: plain([0.2, 0.19, 0.18]),
      glass,
      ...books,
    },
  },
  luxury: {
    scale: 1.1,
    shape: 'curved',
    pieces: { sofa: { width: 1, cushions: 3, arms: 1 }, coffeeTable: 'round', plant: 'palm' },
    omit: [],
    materials: {
      upholstery: velvet([0.06, 0.28, 0.21]),
      pillowA: velvet([0.8, 0.58, 0.52]),
      pillowB: velvet([0.8, 0.64, 0.34]),
      wood: wood([0.18, 0.1, 0.07], [0.1, 0.05, 0.03], 0.5),
      woodLight: wood([0.3, 0.18, 0.1], [0.18, 0.1, 0.05], 0.5),
      metal: metal([0.86, 0.7, 0.46], 0.9, true),
      top: { kind: 'marble', color: [0.86, 0.85, 0.82], color2: [0.42, 0.42, 0.46], spec: 0.6, shininess: 90 },
      rug: { kind: 'rug', color: [0.86, 0.83, 0.77], color2: [0.7, 0.66, 0.6], color3: [0.74, 0.58, 0.32], spec: 0, shininess: 1, pattern: 3 },
      chairFabric: velvet([0.75, 0.52, 0.46]),
      shade: { kind: 'linen', color: [0.96, 0.92, 0.82], spec: 0, shininess: 1, glow: 0.4 },
      pot: { kind: 'ceramic', color: [0.95, 0.94, 0.92], spec: 0.7, shininess: 90 },
      leaf,
      trunk: plain([0.3, 0.22, 0.14]),
      art: { kind: 'art', color: [0.14, 0.2, 0.3], color2: [0.88, 0.85, 0.78], color3: [0.8, 0.62, 0.3], spec: 0.05, shininess: 10, pattern: 0 },
      frame: metal([0.84, 0.68, 0.44], 0.85),
      mat: plain([0.16, 0.16, 0.17]),
      bedding: { kind: 'linen', color: [0.95, 0.93, 0.88], spec: 0.05, shininess: 10, drape: true },
      throw: velvet([0.06, 0.28, 0.21]),
      ceramic: { kind: 'ceramic', color: [0.1, 0.1, 0.12], spec: 0.7, shininess: 90 },
      dark: plain([0.05, 0.05, 0.05]),
      glass,
      ...books,
    },
  },
};
