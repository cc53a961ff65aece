/**
 * A refusal the rules make: a stable `code` (also the `error` field of the HTTP answer) and a
 * message the user may read. It carries no HTTP status: api/errors.ts maps each code to one, so
 * the services, the worker and the scripts never speak HTTP.
 */
export class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Refusals any domain (and the HTTP edge) may make; each domain declares its own beside its service. */
export type CommonErrorCode = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'RATE_LIMITED' | 'UNSUPPORTED_MEDIA_TYPE' | 'IDEMPOTENCY_KEY_REUSED';

export class BadRequestError extends DomainError<'BAD_REQUEST'> {
  constructor(message: string, details?: unknown) {
    super('BAD_REQUEST', message, details);
  }
}

export class UnauthorizedError extends DomainError<'UNAUTHORIZED'> {
  constructor(message = 'Not authenticated') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError<'FORBIDDEN'> {
  constructor(message = 'Forbidden') {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends DomainError<'NOT_FOUND'> {
  constructor(message = 'Not found') {
    super('NOT_FOUND', message);
  }
}

/** Too many requests of one kind in a window (the rate limits of the HTTP edge). */
export class RateLimitedError extends DomainError<'RATE_LIMITED'> {
  constructor(message: string) {
    super('RATE_LIMITED', message);
  }
}

/** A request body in a format the endpoint does not take (the HTTP edge's JSON-only rule). */
export class UnsupportedMediaTypeError extends DomainError<'UNSUPPORTED_MEDIA_TYPE'> {
  constructor(message: string) {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}
