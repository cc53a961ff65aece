import type { PaymentResult } from '@roomstager/contracts';
import { ApiError, apiJson } from '../../lib/api-client.ts';

/** Spec section 4: the payment button's states. */
export type PaymentState = 'loading' | 'ready' | 'order-created' | 'approved' | 'captured' | 'credits-recorded' | 'error';

/** Spec section 8: the payment error texts. */
export const PAYMENT_ERRORS = {
  loadFailed: 'Failed to load PayPal. Please refresh the page.',
  initFailed: 'Failed to initialize PayPal. Please refresh the page.',
  initFailedShort: 'PayPal initialization failed',
  createFailed: 'Failed to create order. Please try again.',
  processingFailed: 'Payment processing failed. Please try again.',
  creditFailed: 'Payment completed but credit processing failed. Please contact support.',
  network: 'Payment failed. Please check your connection and try again.',
  cancelled: 'Payment was cancelled. You can try again when ready.',
  renderFailed: 'Failed to render PayPal button. Please refresh the page.',
} as const;

/** Redirect to /credits?success=true this long after success (spec section 9). */
export const SUCCESS_REDIRECT_MS = 500;

export class LoginRequiredError extends Error {
  constructor() {
    super('Please log in to continue');
    this.name = 'LoginRequiredError';
  }
}

/** Purchase creation: a 401 (or a redirect to sign-in) means the session is gone. */
export function asPurchaseError(error: unknown): Error {
  if (error instanceof ApiError && (error.status === 401 || error.status === 302)) return new LoginRequiredError();
  if (error instanceof TypeError) return new Error(PAYMENT_ERRORS.network);
  return error instanceof Error ? error : new Error(PAYMENT_ERRORS.createFailed);
}

/** Capture on the server, then confirm: the server credits from what PayPal says, never from captureData. */
export async function captureAndRecord(orderID: string, onCaptured: () => void): Promise<PaymentResult> {
  let captureData: PaymentResult;
  try {
    captureData = await apiJson<PaymentResult>('POST', `/api/paypal/order/${encodeURIComponent(orderID)}/capture`);
  } catch (error) {
    throw new Error(error instanceof TypeError ? PAYMENT_ERRORS.network : PAYMENT_ERRORS.processingFailed, { cause: error });
  }
  onCaptured();
  try {
    return await apiJson<PaymentResult>('POST', '/api/payments/paypal-success', { orderID, captureData });
  } catch (error) {
    throw new Error(PAYMENT_ERRORS.creditFailed, { cause: error });
  }
}
