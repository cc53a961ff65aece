import { DomainError } from '../errors.ts';

export type CreditsErrorCode = 'INSUFFICIENT_CREDITS';

/** A debit that would take the balance below zero. */
export class InsufficientCreditsError extends DomainError<CreditsErrorCode> {
  constructor(message = 'Insufficient credits: You need at least 1 credit to generate a staging.') {
    super('INSUFFICIENT_CREDITS', message);
  }
}
