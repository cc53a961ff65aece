import { DomainError } from '../errors.ts';

export type CreditsErrorCode = 'INSUFFICIENT_CREDITS';

/** A debit that would take the balance below zero; several at once say what they needed and what there was. */
export class InsufficientCreditsError extends DomainError<CreditsErrorCode> {
  constructor(message = 'Insufficient credits: You need at least 1 credit to generate a staging.', details?: { needed: number; balance: number }) {
    super('INSUFFICIENT_CREDITS', message, details);
  }
}
