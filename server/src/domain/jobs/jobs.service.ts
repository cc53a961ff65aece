import {
  DEFAULT_ROOM_TYPE,
  type CreateJobRequest,
  type Job,
  type JobPage,
  JOBS_PAGE_SIZE,
  LISTING_PHOTOS_MAX,
  MAX_VARIATIONS_PER_JOB,
  type RegenerateJobRequest,
  type RoomType,
  type Style,
  USER_LABEL_MAX_LENGTH,
} from '@roomstager/contracts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { isUuid } from '../../storage/keys.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import { NotFoundError } from '../errors.ts';
import { imageIdFromUrl, imageUrl, thumbnailUrl, type ImagesService } from '../images/images.service.ts';
import { idempotencyOf, replayed, type Idempotency } from '../idempotency.ts';
import {
  JobNotCompletedError,
  JobNotFailedError,
  PhotoStagingInProgressError,
  TooManyActiveJobsError,
  VariationLimitReachedError,
  VariationsIncludedError,
} from './errors.ts';
import type { JobCursor, JobRow, JobsRepository, JobView } from './jobs.repository.ts';

/** A job that has its staged image. */
export type CompletedJob = JobView & { stagedImageId: string };

function completed(row: JobView): CompletedJob {
  if (row.status !== 'completed' || !row.stagedImageId) throw new JobNotCompletedError();
  return { ...row, stagedImageId: row.stagedImageId };
}

/** Variations the job has or will have: those made and those asked for. */
const variationsCounted = (row: JobView) => row.variations.length + row.pendingVariations;

/** Why one more variation cannot be asked for now, or null when it can (docs/decisions/0026-more-variations-for-a-credit.md). */
function refusalOfMoreVariations(row: JobView): Error | null {
  if (row.status !== 'completed') return new JobNotCompletedError('Only a finished staging can have more variations.');
  if (!row.chargedPerImage) return new VariationsIncludedError();
  if (variationsCounted(row) >= MAX_VARIATIONS_PER_JOB) return new VariationLimitReachedError(MAX_VARIATIONS_PER_JOB);
  return null;
}

export function toJob(row: JobView): Job {
  return {
    id: row.id,
    originalImageUrl: imageUrl(row.originalImageId),
    stagedImageUrl: row.stagedImageId ? imageUrl(row.stagedImageId) : null,
    variations: row.variations.map((v) => ({ id: v.id, stagedImageUrl: imageUrl(v.imageId) })),
    // The chosen variation is the one whose image is the job's result.
    chosenVariationId: row.variations.find((v) => v.imageId === row.stagedImageId)?.id ?? null,
    moreVariations: { allowed: refusalOfMoreVariations(row) === null, pending: row.pendingVariations, refunded: row.refundedVariations },
    thumbnailUrl: thumbnailUrl(row.stagedImageId ?? row.originalImageId),
    style: row.style,
    roomType: row.roomType,
    userLabel: row.userLabel,
    status: row.status,
    errorMessage: row.errorMessage,
    // One credit is debited per run and refunded when it fails: a failed job has cost nothing.
    creditsUsed: row.status === 'failed' ? 0 : 1,
    createdAt: row.createdAt.toISOString(),
    processingStartedAt: row.processingStartedAt?.toISOString() ?? null,
    processingCompletedAt: row.processingCompletedAt?.toISOString() ?? null,
    structure: row.structure,
  };
}

/** Jobs one user may have pending or processing at once (one worker serves everyone fairly). */
export const MAX_ACTIVE_JOBS_PER_USER = 20;

/**
 * Jobs one user may have pending or processing once a listing's stagings are queued: a full
 * listing fits beside the single stagings' allowance (docs/decisions/0024-listing-stagings-and-the-active-jobs-cap.md).
 */
export const MAX_ACTIVE_JOBS_WITH_LISTING = MAX_ACTIVE_JOBS_PER_USER + LISTING_PHOTOS_MAX;

/** A listing as its stagings need it: its id is the look every room shares. */
export interface ListingToStage {
  id: string;
  title: string;
  style: Style;
}

/** A listing photo as its staging needs it. */
export interface PhotoToStage {
  id: string;
  imageId: string;
  roomType: RoomType;
}

/** Jobs a listing's staging queued, and the credits they took. */
export interface ListingStaging {
  jobIds: string[];
  creditsUsed: number;
}

const ACTIVE_OR_DONE: ReadonlySet<JobView['status']> = new Set(['pending', 'processing', 'completed']);

/** `GET /api/jobs` without a page answers at most this many (newest first). */
export const JOB_LIST_LIMIT = 1000;

const emptyToNull = (label: string | null | undefined) => (label ? label : null);

export interface JobOptions {
  /** A development-only engine (the route passes it only outside production). */
  requestedEngine?: string | null;
  /** The request's Idempotency-Key (validated at the edge; docs/decisions/0015-idempotent-job-submission.md). */
  idempotencyKey?: string | null;
  /** The API key a job is created with: its ledger row names it. */
  apiKey?: { name: string; prefix: string } | null;
  /** Where the job's end is POSTed (API jobs; checked by the webhooks domain first). */
  webhookUrl?: string | null;
}

/**
 * Jobs as the signed-in user sees them. Every query is scoped by the user: another user's job id
 * is a 404 and changes nothing. Creating, regenerating and retrying debit one credit in the same
 * transaction that queues the job.
 */
export class JobsService {
  private readonly queuedListeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly repository: JobsRepository,
    private readonly credits: CreditsService,
    private readonly images: ImagesService,
    private readonly publicOrigin: string,
    /** Claim priority of a user's new jobs: buyers of Professional or Enterprise first. */
    private readonly priorityFor: (tx: Tx, userId: string) => Promise<number>,
  ) {}

  /** Called after a job is queued by this process (the in-process worker wakes up). */
  onQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /** Wakes the in-process worker: called after a transaction that queued jobs commits. */
  notifyQueued(): void {
    for (const listener of this.queuedListeners) listener();
  }

  async create(userId: string, request: CreateJobRequest, options: JobOptions = {}): Promise<Job> {
    return toJob(await this.createRow(userId, request, options));
  }

  /** create(), answering the job's row (the API answers its own view of it). */
  async createRow(userId: string, request: CreateJobRequest, options: JobOptions = {}): Promise<JobView> {
    const imageId = imageIdFromUrl(request.originalImageUrl, this.publicOrigin);
    if (!imageId) throw new NotFoundError('Image not found');
    const values = {
      originalImageId: imageId,
      style: request.style,
      roomType: request.roomType ?? DEFAULT_ROOM_TYPE,
      userLabel: emptyToNull(request.userLabel),
    };
    const webhookUrl = options.webhookUrl ?? null;
    const idempotency = idempotencyOf(options.idempotencyKey, ['create', values.originalImageId, values.style, values.roomType, values.userLabel, ...(webhookUrl ? [webhookUrl] : [])]);
    const result = await this.db.transaction(async (tx) => {
      const image = await this.images.findOwnedForShare(tx, userId, imageId);
      if (!image) throw new NotFoundError('Image not found');
      return this.queueNew(tx, userId, { ...values, requestedEngine: options.requestedEngine ?? null, webhookUrl }, idempotency, options.apiKey ?? null);
    });
    if (!result.replayed) this.notifyQueued();
    return result.job;
  }

  /**
   * Inserts a pending job and debits its credit (usage row tied to it), inside `tx`. With a key
   * already used by this user, inserts and debits nothing: a replay of the same request answers
   * the first job.
   */
  private async queueNew(
    tx: Tx,
    userId: string,
    values: { originalImageId: string; style: Style; roomType: RoomType; userLabel: string | null; requestedEngine: string | null; webhookUrl: string | null },
    idempotency: Idempotency | null,
    apiKey: JobOptions['apiKey'] = null,
  ): Promise<{ job: JobRow; replayed: boolean }> {
    const priority = await this.priorityFor(tx, userId);
    const job = await this.repository.insertPending(tx, { userId, ...values, priority, idempotency });
    if (!job) {
      const replay = idempotency ? await this.replayOf(tx, userId, idempotency) : undefined;
      if (!replay) throw new Error('Job row was not written');
      return { job: replay, replayed: true };
    }
    await this.credits.chargeStaging(tx, { userId, jobId: job.id, style: values.style, retry: false, apiKey });
    await this.checkActiveJobs(tx, userId);
    return { job, replayed: false };
  }

  /** The user's job already answered for this key, if any; a 422 when it was another request. */
  private async replayOf(tx: Tx, userId: string, idempotency: Idempotency): Promise<JobRow | undefined> {
    return replayed(await this.repository.findByIdempotencyKey(tx, userId, idempotency.key), idempotency);
  }

  /**
   * Refuses a job beyond MAX_ACTIVE_JOBS_PER_USER. Runs after the debit, which locks the user's
   * row: concurrent creations of one user are serialised there, so the count is exact.
   */
  private async checkActiveJobs(tx: Tx, userId: string): Promise<void> {
    if ((await this.repository.countActive(tx, userId)) > MAX_ACTIVE_JOBS_PER_USER) throw new TooManyActiveJobsError(MAX_ACTIVE_JOBS_PER_USER);
  }

  /**
   * Queues a staging of each of the listing's photos whose newest job is not pending, processing
   * or completed in the listing's style, all inside `tx`: one job and one debit each, or, when
   * the balance is short, nothing. The caller holds the listing's row lock, so concurrent calls
   * on one listing run one after the other and the second finds the first's jobs.
   */
  async stageListingPhotos(tx: Tx, userId: string, listing: ListingToStage, photos: PhotoToStage[], options: JobOptions = {}): Promise<ListingStaging> {
    const latest = new Map((await this.repository.latestForPhotos(photos.map((p) => p.id), tx)).map((job) => [job.listingPhotoId, job]));
    const due = photos.filter((photo) => {
      const job = latest.get(photo.id);
      return !job || job.style !== listing.style || !ACTIVE_OR_DONE.has(job.status);
    });
    const jobs = await this.queueListingPhotos(tx, userId, listing, due, options.requestedEngine ?? null, null);
    return { jobIds: jobs.map((j) => j.id), creditsUsed: jobs.length };
  }

  /**
   * Stages one listing photo again, one credit, inside `tx` (the caller holds the listing's lock);
   * refused while its newest job is still pending or processing. With an Idempotency-Key, a
   * replay answers the first request's job and debits nothing.
   */
  async restageListingPhoto(tx: Tx, userId: string, listing: ListingToStage, photo: PhotoToStage, options: JobOptions = {}): Promise<ListingStaging> {
    const idempotency = idempotencyOf(options.idempotencyKey, ['stage-photo', photo.id, listing.style, photo.roomType]);
    const earlier = idempotency ? await this.replayOf(tx, userId, idempotency) : undefined;
    if (earlier) return { jobIds: [earlier.id], creditsUsed: 1 };
    const [latest] = await this.repository.latestForPhotos([photo.id], tx);
    if (latest && (latest.status === 'pending' || latest.status === 'processing')) throw new PhotoStagingInProgressError();
    const jobs = await this.queueListingPhotos(tx, userId, listing, [photo], options.requestedEngine ?? null, idempotency);
    return { jobIds: jobs.map((j) => j.id), creditsUsed: jobs.length };
  }

  /**
   * Inserts a pending job per photo and debits a credit for each, inside `tx`. Locks in the order
   * every writer takes them (job, image, then the user's row: ImagesService.deleteUnreferenced):
   * the photos' images FOR SHARE first, then the balance, which must pay for all of them.
   */
  private async queueListingPhotos(
    tx: Tx,
    userId: string,
    listing: ListingToStage,
    photos: PhotoToStage[],
    requestedEngine: string | null,
    idempotency: Idempotency | null,
  ): Promise<JobRow[]> {
    if (photos.length === 0) return [];
    for (const imageId of [...new Set(photos.map((p) => p.imageId))].sort()) {
      if (!(await this.images.findOwnedForShare(tx, userId, imageId))) throw new NotFoundError('Image not found');
    }
    await this.credits.lockForStagings(tx, userId, photos.length);
    const active = await this.repository.countActive(tx, userId);
    if (active + photos.length > MAX_ACTIVE_JOBS_WITH_LISTING) throw TooManyActiveJobsError.forListing(photos.length, active, MAX_ACTIVE_JOBS_WITH_LISTING);
    const priority = await this.priorityFor(tx, userId);
    const jobs: JobRow[] = [];
    for (const photo of photos) {
      const job = await this.repository.insertPending(tx, {
        userId,
        originalImageId: photo.imageId,
        style: listing.style,
        roomType: photo.roomType,
        userLabel: listing.title.slice(0, USER_LABEL_MAX_LENGTH),
        requestedEngine,
        priority,
        idempotency,
        webhookUrl: null,
        listingPhotoId: photo.id,
        look: listing.id,
      });
      // Replays were answered above, under the listing's lock: a key taken here is a bug.
      if (!job) throw new Error('Job row was not written');
      await this.credits.chargeStaging(tx, { userId, jobId: job.id, style: listing.style, retry: false });
      jobs.push(job);
    }
    return jobs;
  }

  /** The newest job of each of these listing photos, by photo id (a photo never staged has none). */
  async latestForPhotos(photoIds: string[], executor?: Executor): Promise<Map<string, Job>> {
    const rows = await this.repository.latestForPhotos(photoIds, executor);
    return new Map(rows.map((row) => [row.listingPhotoId, toJob(row)]));
  }

  /** The newest completed job of each of these listing photos, with its staged image, by photo id. */
  async completedForPhotos(photoIds: string[]): Promise<Map<string, CompletedJob>> {
    const rows = await this.repository.latestForPhotos(photoIds, undefined, true);
    return new Map(rows.map((row) => [row.listingPhotoId, completed(row)]));
  }

  async get(userId: string, jobId: string): Promise<Job> {
    return toJob(await this.findOwned(userId, jobId));
  }

  /** The user's completed job with its staged image, for a download or a share; another user's is a 404. */
  async findCompleted(userId: string, jobId: string): Promise<CompletedJob> {
    return completed(await this.findOwned(userId, jobId));
  }

  /** A completed job whoever owns it: only for a share link, which the owner handed out. */
  async findCompletedById(jobId: string): Promise<CompletedJob | null> {
    const row = await this.repository.findById(jobId);
    return row?.status === 'completed' && row.stagedImageId ? { ...row, stagedImageId: row.stagedImageId } : null;
  }

  /** The user's job as its row; a 404 for another user's or none. */
  view(userId: string, jobId: string): Promise<JobView> {
    return this.findOwned(userId, jobId);
  }

  private async findOwned(userId: string, jobId: string, tx?: Tx): Promise<JobView> {
    const row = isUuid(jobId) ? await this.repository.findOwned(userId, jobId, tx) : undefined;
    if (!row) throw new NotFoundError('Job not found');
    return row;
  }

  /** All of the user's jobs (up to JOB_LIST_LIMIT), newest first. */
  async list(userId: string): Promise<Job[]> {
    return (await this.repository.list(userId, JOB_LIST_LIMIT)).map(toJob);
  }

  /** The user's newest `limit` jobs after `cursor` (none: from the newest), and the cursor of the last of them when more follow. */
  async listAfter(userId: string, cursor: JobCursor | null, limit: number): Promise<{ jobs: JobView[]; next: JobCursor | null }> {
    // One more than asked says whether another page follows.
    const rows = await this.repository.listAfter(userId, cursor, limit + 1);
    const page = rows.slice(0, limit);
    return { jobs: page, next: rows.length > limit ? (page.at(-1)?.cursor ?? null) : null };
  }

  /** One page of JOBS_PAGE_SIZE and the total. */
  async page(userId: string, page: number): Promise<JobPage> {
    const { rows, total } = await this.repository.page(userId, page);
    return { jobs: rows.map(toJob), total, page, pageSize: JOBS_PAGE_SIZE };
  }

  /**
   * Makes one of a completed job's variations its result: the staged image everywhere (gallery,
   * downloads, share pages, thumbnails). 404 for another user's job or another job's variation,
   * 409 while the job is unfinished.
   */
  async chooseVariation(userId: string, jobId: string, variationId: string): Promise<Job> {
    if (!isUuid(jobId)) throw new NotFoundError('Job not found');
    const row = isUuid(variationId) ? await this.repository.chooseVariation(userId, jobId, variationId) : undefined;
    if (row) return toJob(row);
    const job = await this.findOwned(userId, jobId);
    if (job.status !== 'completed') throw new JobNotCompletedError('Only a finished staging has variations to choose from.');
    throw new NotFoundError('Variation not found');
  }

  /**
   * Asks for one more variation of the user's completed staging by an engine paid per image, for
   * one credit (docs/decisions/0026-more-variations-for-a-credit.md): a job of its own, queued
   * with its debit in one transaction, that runs the staging's photo, style, room type, look and
   * engine again and adds its result to the staging's variations (JobQueue.complete); failing, it
   * is refunded as any job. The staging's row is locked first, so concurrent requests count its
   * variations one at a time; the debit locks the balance, so they never overdraw. With an
   * Idempotency-Key, a replay answers the job again and debits nothing. Answers the staging as it
   * now is.
   */
  async requestVariation(userId: string, jobId: string, options: JobOptions = {}): Promise<Job> {
    if (!isUuid(jobId)) throw new NotFoundError('Job not found');
    const idempotency = idempotencyOf(options.idempotencyKey, ['variation', jobId]);
    const queued = await this.db.transaction(async (tx) => {
      const source = await this.repository.findOwnedForUpdate(tx, userId, jobId);
      if (!source) throw new NotFoundError('Job not found');
      if (idempotency && (await this.replayOf(tx, userId, idempotency))) return false;
      const refusal = refusalOfMoreVariations(source);
      if (refusal) throw refusal;
      const request = await this.repository.insertPending(tx, {
        userId,
        originalImageId: source.originalImageId,
        style: source.style,
        roomType: source.roomType,
        userLabel: null,
        requestedEngine: source.requestedEngine,
        priority: await this.priorityFor(tx, userId),
        idempotency,
        webhookUrl: null,
        look: source.look,
        variationOf: source.id,
      });
      if (!request) {
        // The key went to another request meanwhile: replayOf answers its 422.
        if (idempotency) await this.replayOf(tx, userId, idempotency);
        throw new Error('Job row was not written');
      }
      await this.credits.chargeVariation(tx, { userId, jobId: request.id, style: source.style });
      await this.checkActiveJobs(tx, userId);
      return true;
    });
    if (queued) this.notifyQueued();
    return this.get(userId, jobId);
  }

  async updateLabel(userId: string, jobId: string, userLabel: string): Promise<Job> {
    const row = isUuid(jobId) ? await this.repository.updateLabel(userId, jobId, emptyToNull(userLabel)) : undefined;
    if (!row) throw new NotFoundError('Job not found');
    return toJob(row);
  }

  /**
   * Deletes a job and its variations' images; the original too when nothing else uses it. Ledger rows
   * stay. A job still pending or processing is cancelled: its credit is refunded in the same
   * transaction, and the worker's completion (conditional on the job's lease) becomes a no-op
   * that removes the files it wrote (docs/decisions/0006-delete-while-processing.md).
   */
  async delete(userId: string, jobId: string): Promise<void> {
    if (!isUuid(jobId)) throw new NotFoundError('Job not found');
    const deletedImages = await this.db.transaction(async (tx) => {
      const deleted = await this.repository.deleteOwned(tx, userId, jobId);
      if (!deleted) throw new NotFoundError('Job not found');
      const { row, variationImageIds, unfinishedRequestIds } = deleted;
      const candidates = [row.originalImageId, ...(row.stagedImageId ? [row.stagedImageId] : []), ...variationImageIds];
      // Images before the refund: a creation on the original holds it and then waits for the user's row.
      const unreferenced = await this.images.deleteUnreferenced(tx, candidates);
      if (row.status === 'pending' || row.status === 'processing') {
        await this.credits.refundStaging(tx, { userId, jobId: row.id, reason: 'cancelled' });
      }
      // Variations asked for and not made are cancelled with their job, each refunded.
      for (const requestId of unfinishedRequestIds) {
        await this.credits.refundStaging(tx, { userId, jobId: requestId, reason: 'cancelled', variation: true });
      }
      return unreferenced;
    });
    await Promise.all(deletedImages.map((id) => this.images.deleteFiles(id)));
  }

  /** A new job on the same original, in the given (or the same) style and room type; one credit. */
  async regenerate(userId: string, jobId: string, request: RegenerateJobRequest, options: JobOptions = {}): Promise<Job> {
    if (!isUuid(jobId)) throw new NotFoundError('Job not found');
    const idempotency = idempotencyOf(options.idempotencyKey, ['regenerate', jobId, request.style ?? null, request.roomType ?? null]);
    const result = await this.db.transaction(async (tx) => {
      const source = await this.repository.findOwnedForShare(tx, userId, jobId);
      if (!source) throw new NotFoundError('Job not found');
      return this.queueNew(
        tx,
        userId,
        {
          originalImageId: source.originalImageId,
          style: request.style ?? source.style,
          roomType: request.roomType ?? source.roomType,
          userLabel: labelForRegeneration(source.userLabel, source.style, request.style ?? source.style),
          requestedEngine: options.requestedEngine ?? null,
          webhookUrl: null,
        },
        idempotency,
      );
    });
    if (!result.replayed) this.notifyQueued();
    return toJob(result.job);
  }

  /**
   * The same failed job queued again, one credit debited again (refunded again if it fails). A
   * retry's key replaces the job's creation key (one key per job), so a replay of the retry, even
   * after the job has failed again, answers the job without a debit.
   */
  async retry(userId: string, jobId: string, options: JobOptions = {}): Promise<Job> {
    if (!isUuid(jobId)) throw new NotFoundError('Job not found');
    const idempotency = idempotencyOf(options.idempotencyKey, ['retry', jobId]);
    let replayed = false;
    const job = await this.db.transaction(async (tx) => {
      const earlier = idempotency ? await this.replayOf(tx, userId, idempotency) : undefined;
      if (earlier) {
        replayed = true;
        return earlier;
      }
      const row = await this.repository.requeueFailed(tx, userId, jobId, options.requestedEngine ?? null, idempotency);
      if (!row) {
        // A concurrent replay may have retried it first (this update waited for its commit).
        const concurrent = idempotency ? await this.replayOf(tx, userId, idempotency) : undefined;
        if (concurrent) {
          replayed = true;
          return concurrent;
        }
        await this.findOwned(userId, jobId, tx); // 404 for no such job of this user
        throw new JobNotFailedError();
      }
      await this.credits.chargeStaging(tx, { userId, jobId: row.id, style: row.style, retry: true });
      await this.checkActiveJobs(tx, userId);
      return row;
    });
    if (!replayed) this.notifyQueued();
    return toJob(job);
  }
}

/**
 * The label a regeneration keeps: the source's, unless the style changes and the label names the
 * old one ("Modern staging" restaged as luxury would read wrong); then none, and the display falls
 * back to the new style's name.
 */
export function labelForRegeneration(label: string | null, from: Style, to: Style): string | null {
  if (label === null || from === to) return label;
  return new RegExp(`\\b${from}\\b`, 'i').test(label) ? null : label;
}
