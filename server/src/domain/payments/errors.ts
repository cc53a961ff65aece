import { DomainError } from '../errors.ts';

export type PaymentsErrorCode =
  | 'INSTRUMENT_DECLINED'
  | 'ORDER_NOT_APPROVED'
  | 'PAYMENT_DECLINED'
  | 'PAYMENT_FAILED'
  | 'PAYMENT_PROVIDER_ERROR'
  | 'WEBHOOK_NOT_CONFIGURED'
  | 'WEBHOOK_UNVERIFIED';

/** A purchase or a webhook PayPal's answer (or its absence) does not let through. */
export class PaymentError extends DomainError<PaymentsErrorCode> {}

export const declinedInstrument = () => new PaymentError('INSTRUMENT_DECLINED', 'Your payment method was declined. Please choose another way to pay.');
export const notApproved = () => new PaymentError('ORDER_NOT_APPROVED', 'The payment has not been approved yet.');
export const captureDeclined = () => new PaymentError('PAYMENT_DECLINED', 'The payment was declined. Please try again with another payment method.');
export const paymentFailed = () => new PaymentError('PAYMENT_FAILED', 'This payment could not be completed. Please start a new purchase or contact support.');
export const providerFailed = () => new PaymentError('PAYMENT_PROVIDER_ERROR', 'Payment processing failed. Please try again.');
