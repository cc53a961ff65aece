import { DomainError } from '../errors.ts';

export type JobsErrorCode = 'TOO_MANY_ACTIVE_JOBS' | 'JOB_NOT_FAILED' | 'JOB_NOT_COMPLETED' | 'PHOTO_STAGING_IN_PROGRESS' | 'VARIATIONS_INCLUDED' | 'VARIATION_LIMIT_REACHED';

/** A user already has `limit` jobs pending or processing. */
export class TooManyActiveJobsError extends DomainError<JobsErrorCode> {
  constructor(limit: number, message = `You already have ${limit} stagings in progress. Please wait for them to finish.`) {
    super('TOO_MANY_ACTIVE_JOBS', message);
  }

  /** A listing's `count` stagings would take the user's `active` ones past `limit`. */
  static forListing(count: number, active: number, limit: number): TooManyActiveJobsError {
    return new TooManyActiveJobsError(
      limit,
      `You have ${active} stagings in progress, and ${count} more would pass the limit of ${limit}. Please wait for some to finish.`,
    );
  }
}

/** A listing photo staged again while its staging is still queued or running. */
export class PhotoStagingInProgressError extends DomainError<JobsErrorCode> {
  constructor() {
    super('PHOTO_STAGING_IN_PROGRESS', 'This photo is being staged already. Wait for it to finish before staging it again.');
  }
}

/** A retry of a job that has not failed. */
export class JobNotFailedError extends DomainError<JobsErrorCode> {
  constructor() {
    super('JOB_NOT_FAILED', 'Only a failed staging can be retried');
  }
}

/** A download, share or choice of variation of a job that has no staged image (yet, or ever: it failed). */
export class JobNotCompletedError extends DomainError<JobsErrorCode> {
  constructor(message = 'Only a finished staging can be downloaded or shared.') {
    super('JOB_NOT_COMPLETED', message);
  }
}

/** One more variation asked of a staging whose engine made its variations for its one credit (the local engine). */
export class VariationsIncludedError extends DomainError<JobsErrorCode> {
  constructor() {
    super('VARIATIONS_INCLUDED', "This staging's variations came with its credit, so more cannot be bought. Regenerate it for a new set.");
  }
}

/** One more variation asked of a staging that has (or will have) `limit` already. */
export class VariationLimitReachedError extends DomainError<JobsErrorCode> {
  constructor(limit: number) {
    super('VARIATION_LIMIT_REACHED', `A staging can have at most ${limit} variations, counting those being made. Regenerate it for more.`);
  }
}
