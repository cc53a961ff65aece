import { FREE_TRIAL_DESCRIPTION, packPurchaseDescription, type CreditPack, type Style } from '@roomstager/contracts';

const STYLE_NAMES: Record<Style, string> = { modern: 'Modern', traditional: 'Traditional', minimalist: 'Minimalist', luxury: 'Luxury' };

/** Every text the credit history shows, one per kind of movement: written here and nowhere else. */
export const ledgerDescription = {
  freeTrial: () => FREE_TRIAL_DESCRIPTION,
  staging: (style: Style) => `Staging: ${STYLE_NAMES[style]}`,
  stagingRetry: (style: Style) => `Staging retry: ${STYLE_NAMES[style]}`,
  stagingByApiKey: (style: Style, key: { name: string; prefix: string }) => `Staging: ${STYLE_NAMES[style]} (API key "${key.name}", ${key.prefix}...)`,
  stagingFailed: () => 'Refund: staging failed',
  stagingCancelled: () => 'Refund: staging cancelled',
  purchase: (pack: CreditPack) => packPurchaseDescription(pack),
  purchaseRefund: (pack: CreditPack, removed: number, full: boolean) => `${pack.name} pack ${full ? 'refunded' : 'partly refunded'}: ${removed} credits removed`,
} as const;
