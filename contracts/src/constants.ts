/** Business constants (styles, room types, credit packs, limits), shared by web and server. */

export const STYLES = ['modern', 'traditional', 'minimalist', 'luxury'] as const;
export type Style = (typeof STYLES)[number];

export const ROOM_TYPES = ['living_room', 'bedroom', 'dining_room', 'kitchen', 'office'] as const;
export type RoomType = (typeof ROOM_TYPES)[number];
export const DEFAULT_ROOM_TYPE: RoomType = 'living_room';

/** Upload limit in bytes of the decoded file (10 MB). */
export const MAX_UPLOAD_BYTES = 10_485_760;

/** One set of image limits, used by uploads and by every staging engine. */
export const IMAGE_LIMITS = {
  minShortSide: 320,
  maxLongSide: 8000,
  maxPixels: 40_000_000,
} as const;

export const CREDITS_PER_STAGING = 1;
export const FREE_TRIAL_CREDITS = 3;

export type CreditPackId = 'starter' | 'professional' | 'enterprise';

export interface CreditPack {
  id: CreditPackId;
  name: string;
  priceUsd: number;
  credits: number;
  features: readonly string[];
  popular: boolean;
}

/** The three packs; the server alone decides prices, the browser only shows them. */
export const CREDIT_PACKS: readonly CreditPack[] = [
  {
    id: 'starter',
    name: 'Starter',
    priceUsd: 19,
    credits: 10,
    features: ['10 staged photos', 'All styling options', 'HD quality', 'Gallery management'],
    popular: false,
  },
  {
    id: 'professional',
    name: 'Professional',
    priceUsd: 89,
    credits: 50,
    features: [
      '50 staged photos',
      'All styling options',
      'HD quality',
      'Priority processing',
      'Email support',
    ],
    popular: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    priceUsd: 399,
    credits: 250,
    features: [
      '250 staged photos',
      'All styling options',
      '4K quality',
      'Fastest processing',
      'Priority support',
      'API access',
    ],
    popular: false,
  },
];

export function packByPrice(priceUsd: number): CreditPack | undefined {
  return CREDIT_PACKS.find((p) => p.priceUsd === priceUsd);
}

export const PAYMENT_CURRENCY = 'USD';
export const PAYMENT_INTENT = 'CAPTURE';
