import { DomainError } from '../errors.ts';

export type JobsErrorCode = 'TOO_MANY_ACTIVE_JOBS' | 'JOB_NOT_FAILED' | 'JOB_NOT_COMPLETED';

/** A user already has `limit` jobs pending or processing. */
export class TooManyActiveJobsError extends DomainError<JobsErrorCode> {
  constructor(limit: number) {
    super('TOO_MANY_ACTIVE_JOBS', `You already have ${limit} stagings in progress. Please wait for them to finish.`);
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
