import { createHash } from 'node:crypto';
import { DomainError } from './errors.ts';

/**
 * An Idempotency-Key and the SHA-256 of the request it was sent with: a replay matches both
 * (docs/decisions/0015-idempotent-job-submission.md). Stored on the row the request created.
 */
export interface Idempotency {
  key: string;
  fingerprint: string;
}

/** The request as the service understood it (defaults applied), so equivalent bodies match; null without a key. */
export function idempotencyOf(key: string | null | undefined, request: unknown[]): Idempotency | null {
  if (!key) return null;
  return { key, fingerprint: createHash('sha256').update(JSON.stringify(request)).digest('hex') };
}

/** An Idempotency-Key sent again with a different request. */
export class IdempotencyKeyReusedError extends DomainError<'IDEMPOTENCY_KEY_REUSED'> {
  constructor() {
    super('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request. Send a new key for a new request.');
  }
}

/** The row a key already answered, checked against this request: a 422 when it was another one. */
export function replayed<Row extends { idempotencyFingerprint: string | null }>(row: Row | undefined, idempotency: Idempotency): Row | undefined {
  if (row && row.idempotencyFingerprint !== idempotency.fingerprint) throw new IdempotencyKeyReusedError();
  return row;
}
