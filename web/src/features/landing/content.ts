import { Clock, Coins, Palette, Sparkles, Upload, Wand2, type LucideIcon } from 'lucide-react';
import type { PhotoName } from '../../lib/responsive-image.ts';

export interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

export const FEATURES: Feature[] = [
  {
    icon: Clock,
    title: 'Lightning Fast',
    text: 'Get a professionally staged photo in under 60 seconds, not the days a physical staging takes.',
  },
  {
    icon: Palette,
    title: 'Multiple Styles',
    text: 'Choose modern, traditional, minimalist or luxury to match every listing and every buyer.',
  },
  {
    icon: Sparkles,
    title: 'Professional Quality',
    text: 'High-resolution results that keep your room exactly as photographed, ready for MLS and print.',
  },
  {
    icon: Upload,
    title: 'Simple Upload',
    text: 'Drop in a JPG or PNG photo of an empty room. No design skills, no software to install.',
  },
  {
    icon: Wand2,
    title: 'AI-Powered Styling',
    text: 'Furniture is placed to fit the room: its floor, its light and its perspective.',
  },
  {
    icon: Coins,
    title: 'Flexible Credit System',
    text: 'Pay per use with one-time credit packs. No monthly fees or commitments, and credits never expire.',
  },
];

export interface DemoExample {
  id: string;
  tab: string;
  title: string;
  description: string;
  bullets: [string, string, string];
  before: PhotoName;
  after: PhotoName;
  /** Set for a synthetic room rather than a photo. */
  caption?: string;
}

const SAMPLE_RENDER = 'Sample render: an empty room drawn by our local engine, then staged by it. No photo was used.';

export const DEMO_EXAMPLES: DemoExample[] = [
  {
    id: 'dining',
    tab: 'Dining Room',
    title: 'Open-plan dining room',
    description: 'A bare open-plan space becomes a place to gather, with the dining area defined and the walkways kept clear.',
    bullets: ['Table and chairs sized to the floor', 'Windows and doors left unobstructed', 'Warm, even lighting preserved'],
    before: 'dining-before',
    after: 'dining-after',
  },
  {
    id: 'living',
    tab: 'Living Room',
    title: 'Bright living room',
    description: 'An empty living room gets a sofa, coffee table and accents that buyers can picture themselves in.',
    bullets: ['Seating arranged around the view', 'Rug anchors the conversation area', 'Original floor, walls and windows untouched'],
    before: 'living-before',
    after: 'living-after',
  },
  {
    id: 'kitchen',
    tab: 'Kitchen',
    title: 'Kitchen and breakfast nook',
    description: 'A table for two, or bar stools at an island, and a bowl of fruit turn a plain kitchen into the heart of the home.',
    bullets: ['A table for two before a wall of cabinets', 'Stools at an island where one is found', 'Cabinets and fixtures kept as they are'],
    before: 'kitchen-before',
    after: 'kitchen-after',
    caption: SAMPLE_RENDER,
  },
  {
    id: 'bedroom',
    tab: 'Bedroom',
    title: 'Calm main bedroom',
    description: 'A bed with layered bedding, nightstands and lamps make an empty room read as a restful retreat.',
    bullets: ['Bed placed against the main wall', 'Nightstands with matching lamps', 'Soft palette in the chosen style'],
    before: 'bedroom-before',
    after: 'bedroom-after',
    caption: SAMPLE_RENDER,
  },
];
