import { z } from 'zod';

/**
 * Every credit movement is one ledger row; `amount` is signed. `refund` gives a staging's credit
 * back (positive); `purchase_refund` takes back the credits of a purchase PayPal refunded or
 * reversed (negative).
 */
export const CREDIT_TRANSACTION_TYPES = ['purchase', 'usage', 'refund', 'grant', 'purchase_refund'] as const;
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number];

export const FREE_TRIAL_DESCRIPTION = 'Free trial credits';

export const creditTransactionSchema = z.object({
  id: z.uuid(),
  type: z.enum(CREDIT_TRANSACTION_TYPES),
  description: z.string(),
  amount: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type CreditTransaction = z.infer<typeof creditTransactionSchema>;

/** `GET /api/credits/transactions`: the caller's ledger, newest first. */
export const creditTransactionsResponseSchema = z.array(creditTransactionSchema);
export type CreditTransactionsResponse = z.infer<typeof creditTransactionsResponseSchema>;
