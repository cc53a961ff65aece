import { DomainError } from '../errors.ts';

export type JobsErrorCode = 'TOO_MANY_ACTIVE_JOBS' | 'IDEMPOTENCY_KEY_REUSED' | 'JOB_NOT_FAILED' | 'JOB_NOT_COMPLETED';

/** A user already has `limit` jobs pending or processing. */
export class TooManyActiveJobsError extends DomainError<JobsErrorCode> {
  constructor(limit: number) {
    super('TOO_MANY_ACTIVE_JOBS', `You already have ${limit} stagings in progress. Please wait for them to finish.`);
  }
}

/** An Idempotency-Key sent again with a different request. */
export class IdempotencyKeyReusedError extends DomainError<JobsErrorCode> {
  constructor() {
    super('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request. Send a new key for a new request.');
  }
}

/** A retry of a job that has not failed. */
export class JobNotFailedError extends DomainError<JobsErrorCode> {
  constructor() {
    super('JOB_NOT_FAILED', 'Only a failed staging can be retried');
  }
}

/** A download or share of a job that has no staged image (yet, or ever: it failed). */
export class JobNotCompletedError extends DomainError<JobsErrorCode> {
  constructor() {
    super('JOB_NOT_COMPLETED', 'Only a finished staging can be downloaded or shared.');
  }
}
