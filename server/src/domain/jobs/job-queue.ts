import { randomUUID } from 'node:crypto';
import type { StructureReport } from '@roomstager/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import type { NormalisedImage } from '../images/image-files.ts';
import type { ImagesService } from '../images/images.service.ts';
import { REFUND_FAILED_DESCRIPTION, type JobRow } from './jobs.service.ts';

/** A job this worker holds: its row as claimed, with the lease token every later write is fenced on. */
export type ClaimedJob = JobRow & { leaseToken: string };

class LeaseLost extends Error {}

/**
 * The worker's side of the jobs table. A claim is one short
 * statement: `UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING *`,
 * so any number of workers can share one PostgreSQL, and no row lock outlives the claim. Each
 * claim sets a fresh lease token; renewing, completing, failing (with its refund) and releasing
 * are conditional on it, so a worker whose lease expired can never write a second time.
 * Lease times come from the database clock, never from the worker machine's.
 */
export class JobQueue {
  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
    private readonly images: ImagesService,
    private readonly leaseMs: number,
  ) {}

  private leaseUntil() {
    return sql`now() + ${this.leaseMs} * interval '1 millisecond'`;
  }

  private held(job: ClaimedJob) {
    return and(eq(jobs.id, job.id), eq(jobs.leaseToken, job.leaseToken), eq(jobs.status, 'processing'));
  }

  /**
   * The next job: pending ones, or processing ones whose lease expired. Highest priority (the paid
   * tiers) first; within a tier the workers are shared between users in turns: a job's turn is its
   * place in its user's backlog plus the jobs that user has running, and on equal turns the user
   * served longest ago (or never) goes first. So a user with nothing running goes before the
   * second job of a user with a backlog, whoever queued first. FOR UPDATE cannot lock rows of a
   * query with window functions or aggregates, so the ranking is in derived tables joined to the
   * rows that are locked; "served" reads only the waiting users' jobs of the last day (by index).
   */
  async claim(): Promise<ClaimedJob | null> {
    const claimable = (alias: string) =>
      sql.raw(`${alias}.status in ('pending', 'processing') and (${alias}.status = 'pending' or ${alias}.lease_expires_at < now())`);
    const next = sql`
      select c.id from jobs c
      join (
        select q.id, row_number() over (partition by q.user_id order by q.created_at, q.id) - 1 as backlog_place
        from jobs q where ${claimable('q')}
      ) ranked on ranked.id = c.id
      left join (
        select s.user_id,
          count(*) filter (where s.status = 'processing' and s.lease_expires_at >= now()) as running,
          max(s.processing_started_at) as last_start
        from jobs s
        where s.created_at > now() - interval '1 day' and s.user_id in (select w.user_id from jobs w where ${claimable('w')})
        group by s.user_id
      ) served on served.user_id = c.user_id
      where ${claimable('c')}
      order by c.priority desc, ranked.backlog_place + coalesce(served.running, 0), served.last_start nulls first, c.created_at, c.id
      limit 1
      for update of c skip locked`;
    const [row] = await this.db
      .update(jobs)
      .set({
        status: 'processing',
        leaseToken: randomUUID(),
        leaseExpiresAt: this.leaseUntil(),
        attempts: sql`${jobs.attempts} + 1`,
        processingStartedAt: sql`coalesce(${jobs.processingStartedAt}, now())`,
      })
      .where(sql`${jobs.id} = (${next})`)
      .returning();
    return row ? (row as ClaimedJob) : null;
  }

  /** Extends the lease; false when it is no longer ours (expired and reclaimed, or the job was deleted). */
  async renew(job: ClaimedJob): Promise<boolean> {
    const rows = await this.db.update(jobs).set({ leaseExpiresAt: this.leaseUntil() }).where(this.held(job)).returning({ id: jobs.id });
    return rows.length === 1;
  }

  /** Counts one more engine run (an in-process retry); the new count, or null when the lease is lost. */
  async recordAttempt(job: ClaimedJob): Promise<number | null> {
    const [row] = await this.db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1`, leaseExpiresAt: this.leaseUntil() })
      .where(this.held(job))
      .returning({ attempts: jobs.attempts });
    return row?.attempts ?? null;
  }

  /**
   * Records the stored result and completes the job, in one transaction conditional on the lease.
   * False (and nothing written) when the lease is lost: the caller deletes the files it stored.
   */
  async complete(
    job: ClaimedJob,
    result: {
      imageId: string;
      storageKey: string;
      image: NormalisedImage;
      engine: string;
      engineMs: number;
      engineModel?: string | undefined;
      engineCostMicros?: number | undefined;
      structure?: StructureReport | undefined;
    },
  ): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        // Lock our row first: a concurrent delete either went before (no row) or waits for us.
        const [mine] = await tx.select({ id: jobs.id }).from(jobs).where(this.held(job)).for('update');
        if (!mine) throw new LeaseLost();
        await this.images.insertRow(tx, { id: result.imageId, storageKey: result.storageKey, userId: job.userId, kind: 'staged', image: result.image });
        const rows = await tx
          .update(jobs)
          .set({
            status: 'completed',
            stagedImageId: result.imageId,
            errorMessage: null,
            engine: result.engine,
            engineMs: result.engineMs,
            engineModel: result.engineModel ?? null,
            engineCostMicros: result.engineCostMicros ?? null,
            structure: result.structure ?? null,
            leaseToken: null,
            leaseExpiresAt: null,
            processingCompletedAt: sql`now()`,
          })
          .where(this.held(job))
          .returning({ id: jobs.id });
        if (rows.length !== 1) throw new LeaseLost();
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
      const [row] = await tx
        .update(jobs)
        .set({
          status: 'failed',
          errorMessage,
          engine: engine ?? null,
          engineModel: engineModel ?? null,
          structure: structure ?? null,
          leaseToken: null,
          leaseExpiresAt: null,
          processingCompletedAt: sql`now()`,
        })
        .where(this.held(job))
        .returning({ id: jobs.id, userId: jobs.userId });
      if (!row) return false;
      await this.credits.record(tx, { userId: row.userId, type: 'refund', amount: 1, description: REFUND_FAILED_DESCRIPTION, jobId: row.id });
      return true;
    });
  }

  /** Gives the job back to the queue (graceful shutdown): the run it did not finish does not count. */
  async release(job: ClaimedJob): Promise<boolean> {
    const rows = await this.db
      .update(jobs)
      .set({
        status: 'pending',
        leaseToken: null,
        leaseExpiresAt: null,
        processingStartedAt: null,
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      })
      .where(this.held(job))
      .returning({ id: jobs.id });
    return rows.length === 1;
  }
}
