import type { FastifyBaseLogger } from 'fastify';
import { InvalidImageError, StructureDriftError, type EngineLogger, type StageOutput, type StagingEngine } from '../staging/engine.ts';
import type { Container } from '../container.ts';
import { addsSomething, makeThumbnail, normaliseEngineOutput } from '../domain/images/image-files.ts';
import type { ImagesService } from '../domain/images/images.service.ts';
import type { CreditsService } from '../domain/credits/credits.service.ts';
import type { ClaimedJob, JobQueue } from '../domain/jobs/job-queue.ts';
import type { EventLog, PaymentsService } from '../domain/payments/payments.service.ts';
import type { RateLimitsService } from '../domain/rate-limits/rate-limits.service.ts';

export const FAILURE_MESSAGES = {
  invalidImage: 'This photo could not be read. Please upload a JPEG or PNG photo of a room.',
  timeout: 'Staging took too long and was stopped. Your credit has been refunded; please try again.',
  generic: 'Something went wrong while staging this photo. Your credit has been refunded; please try again.',
  nothingAdded: 'The staging engine gave the photo back without adding any furniture. Your credit has been refunded; please try again or use another photo.',
} as const;

export interface WorkerOptions {
  /** Jobs run at a time. */
  concurrency: number;
  /** Idle polling interval; wake() short-cuts it. */
  pollMs: number;
  leaseMs: number;
  engineTimeoutMs: number;
  /** Engine runs per job, counting in-process retries and runs lost with a crashed worker. */
  maxAttempts: number;
  /** First retry delay; doubled per attempt, with jitter, capped at 30 s. */
  backoffBaseMs?: number;
  /**
   * Deleting uploads no job uses once `ageMs` old, and rate-limit rows whose window has ended, and
   * asking PayPal about payments unsettled `paymentsAfterMs` after their order, at start and
   * every `intervalMs`; off when absent.
   */
  sweep?: { ageMs: number; intervalMs: number; paymentsAfterMs?: number };
}

export interface WorkerParts {
  queue: JobQueue;
  images: ImagesService;
  engine: StagingEngine;
  /** Engines a job may ask for outside production (STAGING_ENGINE's test values); empty in production. */
  testEngines?: ReadonlyMap<string, StagingEngine>;
  /** Rate-limit counters, swept with the uploads. */
  rateLimits?: RateLimitsService;
  /** Payments left unsettled, reconciled with PayPal by the sweep. */
  payments?: PaymentsService;
  /** The ledger, checked by the sweep against every balance (CR-04). */
  credits?: CreditsService;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

type Outcome = 'invalidImage' | 'timeout' | 'transient' | 'permanent';

/** Unused uploads (or ended rate-limit rows) deleted per transaction, payments checked per claim: short locks, and a bounded query. */
export const SWEEP_BATCH = 100;

/** The payments' log when the worker has none. */
const QUIET: EventLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * What an engine error means. Engines mark retryable failures with `transient: true` (or carry an
 * HTTP status of 408, 429 or 5xx, or a network error code); an InvalidImageError is the photo's
 * fault; a timeout is final (the engine had its whole budget and the user is waiting); anything
 * else is treated as permanent, so a bug does not burn three engine runs.
 */
export function classifyEngineError(err: unknown, timedOut: boolean): Outcome {
  if (timedOut) return 'timeout';
  const e = (err ?? {}) as { name?: unknown; transient?: unknown; status?: unknown; statusCode?: unknown; code?: unknown; cause?: unknown };
  if (err instanceof InvalidImageError || e.name === 'InvalidImageError') return 'invalidImage';
  if (e.transient === true) return 'transient';
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status !== undefined && (status === 408 || status === 429 || status >= 500)) return 'transient';
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return 'transient';
  const cause = e.cause as { code?: unknown } | undefined;
  if (cause && typeof cause.code === 'string' && TRANSIENT_CODES.has(cause.code)) return 'transient';
  return 'permanent';
}

/**
 * The job's errorMessage: the engine's own user-safe message for a final failure when it has one
 * (a remote provider's refusal, rate limit...), else the generic message for the outcome.
 */
function failureMessage(err: unknown, outcome: Outcome): string {
  if (outcome === 'invalidImage') return FAILURE_MESSAGES.invalidImage;
  if (outcome === 'timeout') return FAILURE_MESSAGES.timeout;
  const userMessage = (err as { userMessage?: unknown } | null)?.userMessage;
  return typeof userMessage === 'string' && userMessage ? userMessage : FAILURE_MESSAGES.generic;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Settles with the promise, or rejects as soon as the signal aborts (for an engine that ignores it). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

interface Running {
  job: ClaimedJob;
  /** Aborted when the lease is lost or the worker stops: the engine run is abandoned. */
  abort: AbortController;
  stopping: boolean;
}

/**
 * Claims jobs from the jobs table and runs them: `concurrency` loops,
 * each claiming one job at a time, polling every pollMs when idle and woken at once by jobs
 * queued in this process. While the engine runs, the lease is renewed every third of its length;
 * if a renewal finds the lease gone the run is abandoned. stop() finishes the jobs in hand
 * within a grace period and releases whatever is still running after it.
 */
export class Worker {
  private readonly running = new Map<string, Running>();
  private readonly loops: Promise<void>[] = [];
  private stopping = false;
  private idle = new AbortController();
  /** Aborted by stop(): ends the sweep's wait, which wake() must not cut short. */
  private readonly stopped = new AbortController();

  constructor(
    private readonly parts: WorkerParts,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    if (this.loops.length) return;
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
    if (this.options.sweep) this.loops.push(this.sweepLoop(this.options.sweep.intervalMs));
  }

  /** A job was queued: idle loops look at once. */
  wake(): void {
    this.idle.abort();
    this.idle = new AbortController();
  }

  /** Stops claiming; waits up to graceMs for the jobs in hand, then releases the rest to the queue. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    this.wake();
    const all = Promise.all(this.loops);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      for (const run of this.running.values()) {
        run.stopping = true;
        run.abort.abort(new Error('worker stopping'));
      }
      await all;
    }
  }

  /** Claims and runs one job if there is one (tests, and the loops). True when a job was run. */
  async runOnce(): Promise<boolean> {
    const job = await this.parts.queue.claim();
    if (!job) return false;
    await this.process(job);
    return true;
  }

  /**
   * Deletes the uploads no job uses that are older than the sweep's age, a batch per transaction
   * until a batch comes back short; answers how many. Every worker process sweeps: concurrent
   * sweeps serialise on the images' row locks and skip what another already deleted.
   */
  async sweepUnused(): Promise<number> {
    const { sweep } = this.options;
    if (!sweep) return 0;
    return this.inBatches(async (limit) => (await this.parts.images.deleteUnused(sweep.ageMs, limit)).length);
  }

  /** Deletes the rate-limit rows whose window has ended (the next hit would restart them anyway); answers how many. */
  async sweepRateLimits(): Promise<number> {
    const { rateLimits } = this.parts;
    return rateLimits ? this.inBatches((limit) => rateLimits.deleteExpired(limit)) : 0;
  }

  /**
   * Asks PayPal about payments left `created` or `pending` (approved and never captured, capture
   * pending) and settles them as the capture route would; answers how many were checked.
   */
  async reconcilePayments(): Promise<number> {
    const { payments, logger } = this.parts;
    const afterMs = this.options.sweep?.paymentsAfterMs;
    if (!payments || afterMs === undefined) return 0;
    return this.inBatches((limit) => payments.reconcileStale(afterMs, limit, logger ?? QUIET));
  }

  /** Runs `batch` until it handles fewer than SWEEP_BATCH rows or the worker stops; answers the total. */
  /**
   * CR-04: every balance must equal the sum of its ledger rows. A mismatch means a bug or a
   * manual edit; it is logged as an error for each user (no automatic repair: which side is
   * right needs a person). Answers how many were found.
   */
  async checkLedger(): Promise<number> {
    const { credits, logger } = this.parts;
    if (!credits) return 0;
    const found = await credits.violations();
    for (const v of found) logger?.error({ event: 'credits.ledger_mismatch', userId: v.id, balance: v.credits, ledger: v.ledger }, 'worker: balance differs from the ledger');
    return found.length;
  }

  private async inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await batch(SWEEP_BATCH);
      total += deleted;
      // Short: nothing more is due (a candidate taken meanwhile is no longer one next time).
      if (deleted < SWEEP_BATCH || this.stopping) return total;
    }
  }

  private async sweepLoop(intervalMs: number): Promise<void> {
    const { logger } = this.parts;
    while (!this.stopping) {
      try {
        const deleted = await this.sweepUnused();
        if (deleted > 0) logger?.info({ deleted }, 'worker: unused uploads deleted');
      } catch (err) {
        logger?.error({ err }, 'worker: sweeping unused uploads failed');
      }
      try {
        await this.sweepRateLimits();
      } catch (err) {
        logger?.error({ err }, 'worker: sweeping ended rate-limit windows failed');
      }
      try {
        const checked = await this.reconcilePayments();
        if (checked > 0) logger?.info({ checked }, 'worker: unsettled payments checked with PayPal');
      } catch (err) {
        logger?.error({ err }, 'worker: reconciling payments failed');
      }
      try {
        await this.checkLedger();
      } catch (err) {
        logger?.error({ err }, 'worker: checking the ledger failed');
      }
      await sleep(intervalMs, this.stopped.signal);
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let worked = false;
      let failed = false;
      try {
        worked = await this.runOnce();
      } catch (err) {
        // The database or storage is unreachable: the job (if any) is taken up again when its lease expires.
        failed = true;
        this.parts.logger?.error({ err }, 'worker: claiming or running a job failed');
      }
      if (failed) await sleep(Math.max(this.options.pollMs, 2_000), this.idle.signal);
      else if (!worked && !this.stopping) await sleep(this.options.pollMs, this.idle.signal);
    }
  }

  private engineFor(job: ClaimedJob): StagingEngine {
    const requested = job.requestedEngine ? this.parts.testEngines?.get(job.requestedEngine) : undefined;
    return requested ?? this.parts.engine;
  }

  private async process(job: ClaimedJob): Promise<void> {
    const { queue, images, logger } = this.parts;
    const run: Running = { job, abort: new AbortController(), stopping: false };
    this.running.set(job.id, run);
    const heartbeat = setInterval(() => {
      queue.renew(job).then(
        (held) => {
          if (!held) run.abort.abort(new Error('lease lost'));
        },
        (err: unknown) => logger?.warn({ err, jobId: job.id }, 'worker: lease renewal failed'),
      );
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    const engine = this.engineFor(job);
    try {
      if (job.attempts > this.options.maxAttempts) {
        // Its earlier runs died with their workers as often as we allow (a job that kills workers).
        logger?.warn({ jobId: job.id, attempts: job.attempts }, 'worker: job failed after too many attempts');
        await queue.fail(job, FAILURE_MESSAGES.generic, engine.name);
        return;
      }
      const original = await images.findById(job.originalImageId);
      const bytes = original ? await images.readFile(original) : null;
      if (!bytes) {
        logger?.error({ jobId: job.id }, 'worker: the original image file is missing');
        await queue.fail(job, FAILURE_MESSAGES.generic, engine.name);
        return;
      }
      // The engine's own warnings (a remote provider's retries), tied to the job.
      const engineLogger: EngineLogger | undefined = logger && { warn: (obj, msg) => logger.warn({ ...obj, jobId: job.id }, msg) };
      let attempt = job.attempts;
      for (;;) {
        const timeout = AbortSignal.timeout(this.options.engineTimeoutMs);
        const signal = AbortSignal.any([run.abort.signal, timeout]);
        const started = performance.now();
        try {
          const output = await untilAborted(
            engine.stage({ image: bytes, contentType: 'image/jpeg', style: job.style, roomType: job.roomType, signal, logger: engineLogger }),
            signal,
          );
          const engineMs = Math.round(performance.now() - started);
          await this.finish(job, run, engine, output, engineMs, bytes);
          return;
        } catch (err) {
          if (run.abort.signal.aborted) {
            if (run.stopping) await queue.release(job);
            else logger?.warn({ jobId: job.id }, 'worker: lease lost, run abandoned');
            return;
          }
          const outcome = classifyEngineError(err, timeout.aborted);
          if (outcome === 'transient' && attempt < this.options.maxAttempts) {
            const base = this.options.backoffBaseMs ?? 1_000;
            const delay = Math.min(30_000, base * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
            logger?.warn({ err, jobId: job.id, attempt, delayMs: Math.round(delay) }, 'worker: transient engine error, retrying');
            await sleep(delay, run.abort.signal);
            if (run.abort.signal.aborted) {
              if (run.stopping) await queue.release(job);
              return;
            }
            const next = await queue.recordAttempt(job);
            if (next === null) return;
            attempt = next;
            continue;
          }
          logger?.warn({ err, jobId: job.id, outcome }, 'worker: job failed');
          await queue.fail(job, failureMessage(err, outcome), engine.name, engine.model, err instanceof StructureDriftError ? err.structure : undefined);
          return;
        }
      }
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.id);
    }
  }

  /**
   * Stores the result and its thumbnail, then completes on the lease; a lost lease removes the
   * files again. A result that adds nothing to the photo fails the job (refunded): nothing
   * staged, nothing charged.
   */
  private async finish(job: ClaimedJob, run: Running, engine: StagingEngine, output: StageOutput, engineMs: number, original: Buffer): Promise<void> {
    const { queue, images, logger } = this.parts;
    let image;
    try {
      image = await normaliseEngineOutput(output.image);
    } catch (err) {
      logger?.error({ err, jobId: job.id, engine: engine.name }, 'worker: the engine answered an unreadable image');
      await queue.fail(job, FAILURE_MESSAGES.generic, engine.name);
      return;
    }
    if (!(await addsSomething(original, image.jpeg))) {
      logger?.warn({ jobId: job.id, engine: engine.name, model: output.model }, 'worker: the engine added nothing to the photo');
      await queue.fail(job, FAILURE_MESSAGES.nothingAdded, engine.name, output.model ?? engine.model);
      return;
    }
    const thumbnail = await makeThumbnail(image.jpeg);
    const { id, storageKey } = await images.storeFiles(image, thumbnail);
    let completed = false;
    try {
      completed = run.abort.signal.aborted && !run.stopping ? false : await queue.complete(job, {
              imageId: id,
              storageKey,
              image,
              engine: output.engine ?? engine.name,
              engineMs,
              engineModel: output.model ?? (output.engine ? undefined : engine.model),
              engineCostMicros: output.costMicros,
              structure: output.structure,
            });
    } finally {
      if (!completed) {
        await images.deleteFiles(id);
        logger?.warn({ jobId: job.id }, 'worker: the job was not completed (lease lost, job deleted, or database error); result discarded');
      }
    }
    if (completed) logger?.info({ jobId: job.id, engine: engine.name, model: output.model, engineMs, costMicros: output.costMicros }, 'worker: job completed');
  }
}

/** The worker for a container's parts and configuration. */
export function createWorker(
  container: Container,
  { logger, ...overrides }: Partial<WorkerOptions> & { logger?: WorkerParts['logger'] } = {},
): Worker {
  const { config } = container;
  return new Worker(
    {
      queue: container.queue,
      images: container.images,
      engine: container.engine,
      testEngines: container.testEngines,
      rateLimits: container.rateLimits,
      payments: container.payments,
      credits: container.credits,
      logger,
    },
    {
      concurrency: config.WORKER_CONCURRENCY,
      pollMs: config.WORKER_POLL_MS,
      leaseMs: config.WORKER_LEASE_MS,
      engineTimeoutMs: config.ENGINE_TIMEOUT_MS,
      maxAttempts: config.JOB_MAX_ATTEMPTS,
      sweep: {
        ageMs: config.UNUSED_UPLOAD_TTL_HOURS * 3_600_000,
        intervalMs: config.WORKER_SWEEP_MS,
        paymentsAfterMs: config.PAYMENT_RECONCILE_AFTER_MINUTES * 60_000,
      },
      ...overrides,
    },
  );
}
