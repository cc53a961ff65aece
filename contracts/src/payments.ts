import { z } from 'zod';
import { CREDIT_PACKS, PAYMENT_CURRENCY, PAYMENT_INTENT, type CreditPack, type CreditPackId } from './constants.ts';

export const CREDIT_PACK_IDS = ['starter', 'professional', 'enterprise'] as const satisfies readonly CreditPackId[];

const PACK_PRICES = CREDIT_PACKS.map((p) => p.priceUsd);
export const UNKNOWN_PACKAGE_MESSAGE = `Unknown credit package: the amount must be exactly ${PACK_PRICES.join(', ')} (USD)`;

/** The ledger description of a pack's purchase, e.g. 'Professional pack: 50 credits'. */
export function packPurchaseDescription(pack: Pick<CreditPack, 'name' | 'credits'>): string {
  return `${pack.name} pack: ${pack.credits} credits`;
}

export function packById(id: CreditPackId): CreditPack {
  const pack = CREDIT_PACKS.find((p) => p.id === id);
  if (!pack) throw new Error(`Unknown pack ${id}`);
  return pack;
}

/**
 * `POST /api/paypal/order {amount, currency, intent}`: the amount only selects a pack; it must be
 * exactly one of the pack prices (a JSON number), the currency USD and the intent CAPTURE.
 * Anything else, unknown fields included, is a 400.
 */
export const paypalOrderRequestSchema = z.strictObject({
  amount: z
    .number({ error: UNKNOWN_PACKAGE_MESSAGE })
    .refine((v) => PACK_PRICES.includes(v), { error: UNKNOWN_PACKAGE_MESSAGE }),
  currency: z.literal(PAYMENT_CURRENCY, { error: `Only ${PAYMENT_CURRENCY} payments are accepted` }),
  intent: z.literal(PAYMENT_INTENT, { error: `Only the ${PAYMENT_INTENT} intent is accepted` }),
});
export type PaypalOrderRequest = z.infer<typeof paypalOrderRequestSchema>;

/** `POST /api/payments/create-order {creditPackage}`. */
export const createOrderRequestSchema = z.strictObject({
  creditPackage: z.enum(CREDIT_PACK_IDS, { error: 'Unknown credit package: choose starter, professional or enterprise' }),
});
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

/** `POST /api/paypal/order`'s answer: the PayPal order id. */
export const paymentOrderResponseSchema = z.object({
  id: z.string(),
  /** Where the buyer approves the order (PayPal's `payer-action`/`approve` link; the simulator's page). */
  approveUrl: z.string().optional(),
});
export type PaymentOrderResponse = z.infer<typeof paymentOrderResponseSchema>;

/** `GET /api/paypal/client-id`. `environment` tells the checkout page whether PayPal is simulated. */
export const paypalClientIdResponseSchema = z.object({
  clientId: z.string(),
  environment: z.enum(['sandbox', 'live', 'simulator']),
});
export type PaypalClientIdResponse = z.infer<typeof paypalClientIdResponseSchema>;

export const PAYMENT_STATUSES = ['CREATED', 'PENDING', 'COMPLETED', 'DECLINED', 'FAILED', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Answer of `POST /api/paypal/order/{orderID}/capture` and `POST /api/payments/paypal-success`:
 * what the server knows about the payment after asking PayPal. `status` COMPLETED means the
 * credits are recorded; PENDING means PayPal holds the payment (credits follow its completion).
 */
export const paymentResultSchema = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  pack: z.enum(CREDIT_PACK_IDS),
  /** The pack's credits (added when status is COMPLETED). */
  credits: z.number().int(),
  /** The caller's balance after this call. */
  balance: z.number().int(),
  captureId: z.string().nullable(),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

/** `POST /api/payments/paypal-success`: `captureData` is accepted and never trusted. */
export const paypalSuccessRequestSchema = z.object({
  orderID: z.string().min(1).max(64),
  captureData: z.unknown().optional(),
});
export type PaypalSuccessRequest = z.infer<typeof paypalSuccessRequestSchema>;
