import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  PAYMENT_CURRENCY,
  PAYMENT_INTENT,
  paymentOrderResponseSchema,
  paymentResultSchema,
  paypalClientIdResponseSchema,
  type CreditPack,
  type PaymentResult,
} from '@roomstager/contracts';
import { apiJson, apiJsonOrNull } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** PayPal's client id and whether PayPal is the simulator (which has its own button). */
const paypalConfigQuery = queryOptions({
  queryKey: queryKeys.paypalClientId,
  queryFn: ({ signal }) => apiJsonOrNull('/api/paypal/client-id', paypalClientIdResponseSchema, { signal }),
});

export const usePaypalConfig = () => useQuery(paypalConfigQuery);

/** The order PayPal's own button opens; the amount only selects the pack. */
export const createPaypalOrder = (pack: CreditPack) =>
  apiJson('POST', '/api/paypal/order', paymentOrderResponseSchema, { amount: pack.priceUsd, currency: PAYMENT_CURRENCY, intent: PAYMENT_INTENT });

/** The order of the simulator's button, with the address of the simulator's approval page. */
export const createSimulatorOrder = (pack: CreditPack) =>
  apiJson('POST', '/api/payments/create-order', paymentOrderResponseSchema, { creditPackage: pack.id });

export const captureOrder = (orderID: string) => apiJson('POST', `/api/paypal/order/${encodeURIComponent(orderID)}/capture`, paymentResultSchema);

/**
 * The confirmation call: idempotent, owner-only, and it asks PayPal about a pending capture. The
 * server credits from what PayPal says, never from `captureData`.
 */
export const confirmPayment = (orderID: string, captureData?: PaymentResult) =>
  apiJson('POST', '/api/payments/paypal-success', paymentResultSchema, captureData === undefined ? { orderID } : { orderID, captureData });
