import type { StructureReport } from '@roomstager/contracts';
import type { Db, Tx } from '../../db/client.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import type { NormalisedImage } from '../images/image-files.ts';
import type { ImagesService } from '../images/images.service.ts';
import type { ClaimedJob, FinishedJob, JobResult, JobsRepository } from './jobs.repository.ts';

export type { ClaimedJob, FinishedJob } from './jobs.repository.ts';

/** Told of every job that ends (completed or failed for good), inside the transaction that ends it. */
export type JobEndListener = (tx: Tx, job: FinishedJob) => Promise<void>;

class LeaseLost extends Error {}

/** A result's files, written by ImagesService.storeFiles, waiting for their row. */
export interface StoredResult {
  id: string;
  storageKey: string;
  image: NormalisedImage;
}

/**
 * The worker's side of the jobs: claims with leases (JobsRepository.claim: one short statement
 * with FOR UPDATE SKIP LOCKED, so any number of workers can share one PostgreSQL), and the
 * writes that end a run. Each claim sets a fresh lease token; renewing, completing, failing
 * (with its refund) and releasing are conditional on it, so a worker whose lease expired can
 * never write a second time. Lease times come from the database clock, never from the worker
 * machine's.
 */
export class JobQueue {
  constructor(
    private readonly db: Db,
    private readonly repository: JobsRepository,
    private readonly credits: CreditsService,
    private readonly images: ImagesService,
    /** The webhooks' outbox: an event written with the job's end commits or rolls back with it. */
    private readonly onEnd: JobEndListener = async () => undefined,
  ) {}

  /** The next job to run, leased to this worker, or null when none is due. */
  claim(): Promise<ClaimedJob | null> {
    return this.repository.claim();
  }

  /** Extends the lease; false when it is no longer ours (expired and reclaimed, or the job was deleted). */
  renew(job: ClaimedJob): Promise<boolean> {
    return this.repository.renew(job);
  }

  /** Counts one more engine run (an in-process retry); the new count, or null when the lease is lost. */
  recordAttempt(job: ClaimedJob): Promise<number | null> {
    return this.repository.recordAttempt(job);
  }

  /**
   * Records the stored results as the job's variations, the first one chosen, and completes the
   * job, in one transaction conditional on the lease. A request for one more variation of a job
   * (`variationOf`) adds its result to that job's variations instead, its choice unchanged. False
   * (and nothing written) when the lease is lost or that job is gone: the caller deletes the files
   * it stored.
   */
  async complete(job: ClaimedJob, result: Omit<JobResult, 'imageId'> & { variations: [StoredResult, ...StoredResult[]] }): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        // The job it adds to first, then our row: the order a deletion of that job takes.
        if (job.variationOf && !(await this.repository.lockForVariation(tx, job.variationOf))) throw new LeaseLost();
        // Lock our row first: a concurrent delete either went before (no row) or waits for us.
        if (!(await this.repository.lockHeld(tx, job))) throw new LeaseLost();
        for (const stored of result.variations) {
          await this.images.insertRow(tx, { id: stored.id, storageKey: stored.storageKey, userId: job.userId, kind: 'staged', image: stored.image });
        }
        await this.repository.insertVariations(tx, job.variationOf ?? job.id, result.variations.map((v) => v.id));
        const ended = await this.repository.markCompleted(tx, job, { ...result, imageId: result.variations[0].id });
        if (!ended) throw new LeaseLost();
        await this.onEnd(tx, ended);
      });
      return true;
    } catch (err) {
      if (err instanceof LeaseLost) return false;
      throw err;
    }
  }

  /** Fails the job for good with a message for the user and refunds its credit, in one transaction. */
  async fail(job: ClaimedJob, errorMessage: string, engine?: string, engineModel?: string, structure?: StructureReport): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await this.repository.markFailed(tx, job, { errorMessage, engine, engineModel, structure });
      if (!row) return false;
      await this.credits.refundStaging(tx, { userId: row.userId, jobId: row.id, reason: 'failed', variation: job.variationOf !== null });
      await this.onEnd(tx, row);
      return true;
    });
  }

  /** Gives the job back to the queue (graceful shutdown): the run it did not finish does not count. */
  release(job: ClaimedJob): Promise<boolean> {
    return this.repository.release(job);
  }
}
