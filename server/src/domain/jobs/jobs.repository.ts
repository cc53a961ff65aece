import { randomUUID } from 'node:crypto';
import { JOBS_PAGE_SIZE, type RoomType, type StructureReport, type Style } from '@roomstager/contracts';
import { and, count, desc, eq, getTableColumns, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { jobs, jobVariations } from '../../db/schema.ts';

type JobTableRow = typeof jobs.$inferSelect;

/** A job a worker holds: its row as claimed, with the lease token every later write is fenced on. */
export type ClaimedJob = JobTableRow & { leaseToken: string };

/** A job's variations in the engine's order, as one JSON column of its row (none until it completes). */
export interface VariationRef {
  id: string;
  imageId: string;
}
// Names spelled out: Drizzle leaves the columns of a select list unqualified, and "id" would be the variation's.
const variationsColumn = sql<VariationRef[]>`(select coalesce(json_agg(json_build_object('id', v.id, 'imageId', v.image_id) order by v.index), '[]'::json) from job_variations v where v.job_id = "jobs"."id")`.mapWith(
  (value: VariationRef[] | string) => (typeof value === 'string' ? (JSON.parse(value) as VariationRef[]) : value),
);

/** The job's requests for one more variation (docs/decisions/0026-more-variations-for-a-credit.md) in one state, counted. */
const requestsIn = (statuses: string) =>
  sql<number>`(select count(*) from jobs r where r.variation_of = "jobs"."id" and r.status in (${sql.raw(statuses)}))`.mapWith(Number);

/** The columns a Job answer needs (never the lease). */
const jobColumns = {
  id: jobs.id,
  originalImageId: jobs.originalImageId,
  stagedImageId: jobs.stagedImageId,
  style: jobs.style,
  roomType: jobs.roomType,
  userLabel: jobs.userLabel,
  status: jobs.status,
  errorMessage: jobs.errorMessage,
  createdAt: jobs.createdAt,
  processingStartedAt: jobs.processingStartedAt,
  processingCompletedAt: jobs.processingCompletedAt,
  structure: jobs.structure,
  chargedPerImage: jobs.chargedPerImage,
  variations: variationsColumn,
  pendingVariations: requestsIn(`'pending', 'processing'`),
  refundedVariations: requestsIn(`'failed'`),
};
type CountColumns = 'variations' | 'pendingVariations' | 'refundedVariations';
export type JobView = Pick<JobTableRow, Exclude<keyof typeof jobColumns, CountColumns>> & {
  variations: VariationRef[];
  /** Requests for one more variation queued or running, and those that failed (each refunded). */
  pendingVariations: number;
  refundedVariations: number;
};

/** A job's whole row with its variations and requests for more. */
const rowColumns = {
  ...getTableColumns(jobs),
  variations: variationsColumn,
  pendingVariations: jobColumns.pendingVariations,
  refundedVariations: jobColumns.refundedVariations,
};
export type JobRow = JobTableRow & Pick<JobView, CountColumns>;

/** A job that has just ended, with what its end's notice needs: its owner and webhook URL. */
const finishedColumns = { ...jobColumns, userId: jobs.userId, webhookUrl: jobs.webhookUrl };
export type FinishedJob = JobView & Pick<JobTableRow, 'userId' | 'webhookUrl'>;

export interface NewJob {
  userId: string;
  originalImageId: string;
  style: Style;
  roomType: RoomType;
  userLabel: string | null;
  requestedEngine: string | null;
  priority: number;
  idempotency: { key: string; fingerprint: string } | null;
  webhookUrl: string | null;
  /** A listing's staging: the photo it stages and the listing's look. */
  listingPhotoId?: string | null;
  look?: string | null;
  /** A request for one more variation of this completed job of the user's (docs/decisions/0026-more-variations-for-a-credit.md). */
  variationOf?: string | null;
}

/** Where a list continues: the last job answered, its creation time in microseconds (the column's precision) and id. */
export interface JobCursor {
  createdAtMicros: string;
  id: string;
}

/** What a completed run leaves on its job. */
export interface JobResult {
  imageId: string;
  engine: string;
  engineMs: number;
  engineModel?: string | undefined;
  engineCostMicros?: number | undefined;
  structure?: StructureReport | undefined;
  /** The engine that ran is paid per image (StagingEngine.chargesPerImage); absent, it is not. */
  chargedPerImage?: boolean | undefined;
}

/** How a job failed for good. */
export interface JobFailure {
  errorMessage: string;
  engine?: string | undefined;
  engineModel?: string | undefined;
  structure?: StructureReport | undefined;
}

/** A job the user sees as one: a request for one more variation is seen only as its job's variation. */
const shownAsJob = isNull(jobs.variationOf);

function preparePageQuery(db: Db) {
  return db
    .select({ ...jobColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(jobs)
    .where(and(eq(jobs.userId, sql.placeholder('userId')), shownAsJob))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(JOBS_PAGE_SIZE)
    .offset(sql.placeholder('offset'))
    .prepare('jobs_page');
}

const owned = (userId: string, jobId: string) => and(eq(jobs.id, jobId), eq(jobs.userId, userId), shownAsJob);

/**
 * No job uses the image, as its original, its result or one of its variations (each column is
 * indexed): the jobs domain's answer for the images domain, as a condition its statements embed.
 */
export const noJobUsesImage = (imageId: AnyPgColumn | string): SQL =>
  sql`not exists (select 1 from ${jobs} where ${or(eq(jobs.originalImageId, imageId), eq(jobs.stagedImageId, imageId))}) and not exists (select 1 from ${jobVariations} where ${eq(jobVariations.imageId, imageId)})`;

/**
 * Every statement on the `jobs` table: the user's side (queue, list, relabel, delete, retry) and
 * the worker's (claim and the writes fenced on its lease). JobsService and JobQueue hold the
 * rules; this module alone writes the rows.
 */
export class JobsRepository {
  /** The gallery's hot path (bench target: 2,000 requests/s): prepared once, planned once per connection. */
  private readonly pageQuery: ReturnType<typeof preparePageQuery>;

  constructor(
    private readonly db: Db,
    private readonly leaseMs: number,
  ) {
    this.pageQuery = preparePageQuery(db);
  }

  // ---- the user's side -------------------------------------------------------------------------

  /**
   * Inserts a pending job; undefined when the user already has a job with this idempotency key.
   * A concurrent first request with the key holds its index entry, so this insert waits for it
   * to commit (then conflicts) or roll back (then goes ahead).
   */
  async insertPending(tx: Tx, job: NewJob): Promise<JobRow | undefined> {
    const { idempotency, ...values } = job;
    const [row] = await tx
      .insert(jobs)
      .values({ ...values, status: 'pending', idempotencyKey: idempotency?.key ?? null, idempotencyFingerprint: idempotency?.fingerprint ?? null })
      .onConflictDoNothing({ target: [jobs.userId, jobs.idempotencyKey], where: sql`${jobs.idempotencyKey} is not null` })
      .returning(rowColumns);
    return row;
  }

  async findByIdempotencyKey(tx: Tx, userId: string, key: string): Promise<JobRow | undefined> {
    const [row] = await tx
      .select(rowColumns)
      .from(jobs)
      .where(and(eq(jobs.userId, userId), eq(jobs.idempotencyKey, key)));
    return row;
  }

  /** Jobs the user has pending or processing. */
  async countActive(tx: Tx, userId: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(jobs)
      .where(and(eq(jobs.userId, userId), sql`${jobs.status} in ('pending', 'processing')`));
    return row?.n ?? 0;
  }

  /** The newest job (or completed job) of each of these listing photos (those never staged have none). */
  latestForPhotos(photoIds: string[], executor: Executor = this.db, completedOnly = false): Promise<Array<JobView & { listingPhotoId: string }>> {
    if (photoIds.length === 0) return Promise.resolve([]);
    return executor
      .selectDistinctOn([jobs.listingPhotoId], { ...jobColumns, listingPhotoId: sql<string>`${jobs.listingPhotoId}` })
      .from(jobs)
      .where(and(inArray(jobs.listingPhotoId, photoIds), completedOnly ? eq(jobs.status, 'completed') : undefined))
      .orderBy(jobs.listingPhotoId, desc(jobs.createdAt), desc(jobs.id));
  }

  /** The user's completed jobs (the images generated). */
  async countCompleted(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(jobs)
      .where(and(eq(jobs.userId, userId), eq(jobs.status, 'completed'), shownAsJob));
    return row?.n ?? 0;
  }

  async findOwned(userId: string, jobId: string, executor: Executor = this.db): Promise<JobView | undefined> {
    const [row] = await executor.select(jobColumns).from(jobs).where(owned(userId, jobId));
    return row;
  }

  /** A job by id alone, whoever owns it (a share link resolves to it). */
  async findById(jobId: string): Promise<JobView | undefined> {
    const [row] = await this.db.select(jobColumns).from(jobs).where(eq(jobs.id, jobId));
    return row;
  }

  /** The user's job locked FOR SHARE until `tx` ends: a regeneration's source cannot be deleted under it. */
  async findOwnedForShare(tx: Tx, userId: string, jobId: string): Promise<JobRow | undefined> {
    const [row] = await tx.select(rowColumns).from(jobs).where(owned(userId, jobId)).for('share');
    return row;
  }

  /** The user's newest `limit` jobs. */
  list(userId: string, limit: number): Promise<JobView[]> {
    return this.db
      .select(jobColumns)
      .from(jobs)
      .where(and(eq(jobs.userId, userId), shownAsJob))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit);
  }

  /**
   * The user's newest `limit` jobs after `cursor` (keyset order: creation time, then id, both
   * descending, on the user's index), each with its own cursor.
   */
  listAfter(userId: string, cursor: JobCursor | null, limit: number): Promise<Array<JobView & { cursor: JobCursor }>> {
    const micros = sql<string>`(extract(epoch from ${jobs.createdAt}) * 1000000)::bigint::text`;
    const after = cursor
      ? sql`(${jobs.createdAt}, ${jobs.id}) < (timestamptz 'epoch' + ${cursor.createdAtMicros}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`
      : undefined;
    return this.db
      .select({ ...jobColumns, cursor: { createdAtMicros: micros, id: jobs.id } })
      .from(jobs)
      .where(and(eq(jobs.userId, userId), shownAsJob, after))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit);
  }

  /** One page of JOBS_PAGE_SIZE and the total, in one query (a window count over the user's jobs). */
  async page(userId: string, page: number): Promise<{ rows: JobView[]; total: number }> {
    const rows = await this.pageQuery.execute({ userId, offset: (page - 1) * JOBS_PAGE_SIZE });
    let total = rows[0]?.total;
    if (total === undefined) {
      // Past the last page: no rows carry the count.
      const [row] = await this.db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.userId, userId), shownAsJob));
      total = row?.n ?? 0;
    }
    return { rows, total };
  }

  async updateLabel(userId: string, jobId: string, userLabel: string | null): Promise<JobView | undefined> {
    const [row] = await this.db.update(jobs).set({ userLabel }).where(owned(userId, jobId)).returning(jobColumns);
    return row;
  }

  /**
   * Deletes the user's job, its requests for more variations and its variations; the rows, the
   * requests that had not ended, and the variations' images. The row is locked first, so a
   * completion that wrote variations meanwhile has committed before they are read (a request's
   * completion locks this row before its own: lockForVariation).
   */
  async deleteOwned(
    tx: Tx,
    userId: string,
    jobId: string,
  ): Promise<{ row: JobRow; variationImageIds: string[]; unfinishedRequestIds: string[] } | undefined> {
    const [locked] = await tx.select({ id: jobs.id }).from(jobs).where(owned(userId, jobId)).for('update');
    if (!locked) return undefined;
    const requests = await tx.delete(jobs).where(eq(jobs.variationOf, jobId)).returning({ id: jobs.id, status: jobs.status });
    const variations = await tx.delete(jobVariations).where(eq(jobVariations.jobId, jobId)).returning({ imageId: jobVariations.imageId });
    const [row] = await tx.delete(jobs).where(owned(userId, jobId)).returning(rowColumns);
    const unfinishedRequestIds = requests.filter((r) => r.status === 'pending' || r.status === 'processing').map((r) => r.id);
    return row && { row, variationImageIds: variations.map((v) => v.imageId), unfinishedRequestIds };
  }

  /** The user's job locked FOR UPDATE until `tx` ends, with its counts: requests for more variations of it are counted one at a time. */
  async findOwnedForUpdate(tx: Tx, userId: string, jobId: string): Promise<JobRow | undefined> {
    const [locked] = await tx.select({ id: jobs.id }).from(jobs).where(owned(userId, jobId)).for('update');
    if (!locked) return undefined;
    const [row] = await tx.select(rowColumns).from(jobs).where(eq(jobs.id, jobId));
    return row;
  }

  /**
   * Makes the variation the job's result (its staged image), when the job is the user's, completed,
   * and the variation its own; the job as it now is, or undefined.
   */
  async chooseVariation(userId: string, jobId: string, variationId: string): Promise<JobView | undefined> {
    const image = sql`(select v.image_id from job_variations v where v.id = ${variationId} and v.job_id = "jobs"."id")`;
    const [row] = await this.db
      .update(jobs)
      .set({ stagedImageId: image })
      .where(and(owned(userId, jobId), eq(jobs.status, 'completed'), sql`${image} is not null`))
      .returning(jobColumns);
    return row;
  }

  /** The user's failed job back to pending, its last run forgotten; undefined unless it was failed. */
  async requeueFailed(
    tx: Tx,
    userId: string,
    jobId: string,
    requestedEngine: string | null,
    idempotency: { key: string; fingerprint: string } | null,
  ): Promise<JobRow | undefined> {
    const [row] = await tx
      .update(jobs)
      .set({
        status: 'pending',
        errorMessage: null,
        attempts: 0,
        leaseToken: null,
        leaseExpiresAt: null,
        stagedImageId: null,
        engine: null,
        engineMs: null,
        engineModel: null,
        engineCostMicros: null,
        requestedEngine,
        processingStartedAt: null,
        processingCompletedAt: null,
        ...(idempotency ? { idempotencyKey: idempotency.key, idempotencyFingerprint: idempotency.fingerprint } : {}),
      })
      .where(and(owned(userId, jobId), eq(jobs.status, 'failed')))
      .returning(rowColumns);
    return row;
  }

  // ---- the worker's side -----------------------------------------------------------------------

  private leaseUntil() {
    return sql`now() + ${this.leaseMs} * interval '1 millisecond'`;
  }

  private held(job: ClaimedJob) {
    return and(eq(jobs.id, job.id), eq(jobs.leaseToken, job.leaseToken), eq(jobs.status, 'processing'));
  }

  /**
   * The next job, leased to the caller: pending ones, or processing ones whose lease expired.
   * Highest priority (the paid tiers) first; within a tier the workers are shared between users
   * in turns: a job's turn is its place in its user's backlog plus the jobs that user has running,
   * and on equal turns the user served longest ago (or never) goes first. So a user with nothing
   * running goes before the second job of a user with a backlog, whoever queued first. FOR UPDATE
   * cannot lock rows of a query with window functions or aggregates, so the ranking is in derived
   * tables joined to the rows that are locked; "served" reads only the waiting users' jobs of the
   * last day (by index). One statement, so no row lock outlives the claim.
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

  /** Counts one more engine run and extends the lease; the new count, or null when the lease is lost. */
  async recordAttempt(job: ClaimedJob): Promise<number | null> {
    const [row] = await this.db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1`, leaseExpiresAt: this.leaseUntil() })
      .where(this.held(job))
      .returning({ attempts: jobs.attempts });
    return row?.attempts ?? null;
  }

  /** Locks the job's row while the lease is ours; false when it is not (a concurrent delete went first or waits). */
  async lockHeld(tx: Tx, job: ClaimedJob): Promise<boolean> {
    const [mine] = await tx.select({ id: jobs.id }).from(jobs).where(this.held(job)).for('update');
    return mine !== undefined;
  }

  /** The job's variations, in order, after any it has (the caller holds the job's row lock). */
  async insertVariations(tx: Tx, jobId: string, imageIds: string[]): Promise<void> {
    const [last] = await tx
      .select({ index: sql<number>`coalesce(max(${jobVariations.index}), -1)`.mapWith(Number) })
      .from(jobVariations)
      .where(eq(jobVariations.jobId, jobId));
    const first = (last?.index ?? -1) + 1;
    await tx.insert(jobVariations).values(imageIds.map((imageId, index) => ({ jobId, imageId, index: first + index })));
  }

  /**
   * Locks the completed job a request for one more variation adds to (before the request's own
   * row, the order a deletion takes); false when it is gone.
   */
  async lockForVariation(tx: Tx, jobId: string): Promise<boolean> {
    const [row] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.status, 'completed')))
      .for('update');
    return row !== undefined;
  }

  /** Completes the job on its lease; the job as it now is, or undefined when the lease is lost. */
  async markCompleted(tx: Tx, job: ClaimedJob, result: JobResult): Promise<FinishedJob | undefined> {
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
        chargedPerImage: result.chargedPerImage ?? false,
        leaseToken: null,
        leaseExpiresAt: null,
        processingCompletedAt: sql`now()`,
      })
      .where(this.held(job))
      .returning(finishedColumns);
    return rows[0];
  }

  /** Fails the job on its lease; the job as it now is, or undefined when the lease is lost. */
  async markFailed(tx: Tx, job: ClaimedJob, failure: JobFailure): Promise<FinishedJob | undefined> {
    const [row] = await tx
      .update(jobs)
      .set({
        status: 'failed',
        errorMessage: failure.errorMessage,
        engine: failure.engine ?? null,
        engineModel: failure.engineModel ?? null,
        structure: failure.structure ?? null,
        leaseToken: null,
        leaseExpiresAt: null,
        processingCompletedAt: sql`now()`,
      })
      .where(this.held(job))
      .returning(finishedColumns);
    return row;
  }

  /** Gives the job back to the queue: the run it did not finish does not count. */
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
