import { DomainError } from '../errors.ts';

export type ApiKeysErrorCode = 'INVALID_API_KEY' | 'ENTERPRISE_REQUIRED' | 'TOO_MANY_API_KEYS';

/** No key, an unknown one, or a revoked one: the caller is nobody. */
export class InvalidApiKeyError extends DomainError<ApiKeysErrorCode> {
  constructor(message = 'Missing, unknown or revoked API key. Send it as "Authorization: Bearer rs_live_...".') {
    super('INVALID_API_KEY', message);
  }
}

/** The account holds no purchase of the Enterprise pack (never bought, or refunded). */
export class EnterpriseRequiredError extends DomainError<ApiKeysErrorCode> {
  constructor() {
    super('ENTERPRISE_REQUIRED', 'API access comes with the Enterprise pack.');
  }
}

export class TooManyApiKeysError extends DomainError<ApiKeysErrorCode> {
  constructor(limit: number) {
    super('TOO_MANY_API_KEYS', `An account can hold ${limit} keys. Revoke one you no longer use first.`);
  }
}
