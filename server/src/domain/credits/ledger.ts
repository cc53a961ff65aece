import { FREE_TRIAL_DESCRIPTION, packPurchaseDescription, STYLE_LABELS, type CreditPack, type Style } from '@roomstager/contracts';

/** Every text the credit history shows, one per kind of movement: written here and nowhere else. */
export const ledgerDescription = {
  freeTrial: () => FREE_TRIAL_DESCRIPTION,
  staging: (style: Style) => `Staging: ${STYLE_LABELS[style]}`,
  stagingRetry: (style: Style) => `Staging retry: ${STYLE_LABELS[style]}`,
  stagingByApiKey: (style: Style, key: { name: string; prefix: string }) => `Staging: ${STYLE_LABELS[style]} (API key "${key.name}", ${key.prefix}...)`,
  stagingFailed: () => 'Refund: staging failed',
  stagingCancelled: () => 'Refund: staging cancelled',
  variation: (style: Style) => `Another variation: ${STYLE_LABELS[style]}`,
  variationFailed: () => 'Refund: variation failed',
  variationCancelled: () => 'Refund: variation cancelled',
  purchase: (pack: CreditPack) => packPurchaseDescription(pack),
  purchaseRefund: (pack: CreditPack, removed: number, full: boolean) => `${pack.name} pack ${full ? 'refunded' : 'partly refunded'}: ${removed} credits removed`,
} as const;
