import { LOCAL_VARIATIONS } from '@roomstager/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedJob, JobQueue, StoredResult } from '../domain/jobs/job-queue.ts';
import { addsSomething, makeThumbnail, normaliseEngineOutput, type NormalisedImage } from '../domain/images/image-files.ts';
import type { ImagesService } from '../domain/images/images.service.ts';
import { StructureDriftError, type EngineLogger, type StageOutput, type StagingEngine } from '../staging/engine.ts';
import { sleep, untilAborted } from './abort.ts';
import { classifyEngineError, FAILURE_MESSAGES, failureMessage, retryDelayMs, shouldRetry } from './retry-policy.ts';

/** pino's shape: the server's logger, or the worker process's JSON lines. */
export type WorkerLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * Variations asked of an engine for one credit: an engine paid per image (a remote provider), one;
 * the local engine (and the test engines standing in for it) renders several for nothing. A
 * request for one more variation of a job (`variationOf`) is one image, whatever the engine.
 */
export function variationsAskedOf(engine: StagingEngine, job: { variationOf: string | null } = { variationOf: null }): number {
  return engine.chargesPerImage || job.variationOf ? 1 : LOCAL_VARIATIONS;
}

/** One job in hand. */
export interface Running {
  job: ClaimedJob;
  /** Aborted when the lease is lost or the worker stops: the engine run is abandoned. */
  abort: AbortController;
  stopping: boolean;
}

export interface JobRunnerParts {
  queue: JobQueue;
  images: ImagesService;
  engine: StagingEngine;
  /** Engines a job may ask for outside production (STAGING_ENGINE's test values); empty in production. */
  testEngines?: ReadonlyMap<string, StagingEngine> | undefined;
  logger?: WorkerLogger | undefined;
}

export interface JobRunnerOptions {
  leaseMs: number;
  engineTimeoutMs: number;
  /** Engine runs per job, counting in-process retries and runs lost with a crashed worker. */
  maxAttempts: number;
  /** First retry delay; doubled per attempt, with jitter, capped at 30 s. */
  backoffBaseMs?: number | undefined;
}

/**
 * Runs one claimed job: the engine (the job's test engine if it asked for one), retried as the
 * retry policy says, bounded by ENGINE_TIMEOUT_MS, with the lease renewed every third of its
 * length; a renewal that finds the lease gone abandons the run. Ends by completing (the result
 * stored first), failing with a refund, or releasing the job when the worker stops.
 */
export class JobRunner {
  constructor(
    private readonly parts: JobRunnerParts,
    private readonly options: JobRunnerOptions,
  ) {}

  private engineFor(job: ClaimedJob): StagingEngine {
    const requested = job.requestedEngine ? this.parts.testEngines?.get(job.requestedEngine) : undefined;
    return requested ?? this.parts.engine;
  }

  async run(run: Running): Promise<void> {
    const { queue, images, logger } = this.parts;
    const { job } = run;
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
            engine.stage({
              image: bytes,
              contentType: 'image/jpeg',
              style: job.style,
              roomType: job.roomType,
              signal,
              logger: engineLogger,
              // A listing's rooms share one furniture set (its id), chosen with the style.
              ...(job.look ? { look: job.look } : {}),
              variations: variationsAskedOf(engine, job),
            }),
            signal,
          );
          const engineMs = Math.round(performance.now() - started);
          await this.finish(run, engine, output, engineMs, bytes);
          return;
        } catch (err) {
          if (run.abort.signal.aborted) {
            if (run.stopping) await queue.release(job);
            else logger?.warn({ jobId: job.id }, 'worker: lease lost, run abandoned');
            return;
          }
          const outcome = classifyEngineError(err, timeout.aborted);
          if (shouldRetry(outcome, attempt, this.options.maxAttempts)) {
            const delay = retryDelayMs(attempt, this.options.backoffBaseMs ?? 1_000);
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
    }
  }

  /**
   * Stores the result (with its thumbnail) and the further variations, then completes on the
   * lease, the first variation chosen; a lost lease removes the files again. A result that adds
   * nothing to the photo fails the job (refunded): nothing staged, nothing charged; a further
   * variation that adds nothing, or cannot be read, is left out.
   */
  private async finish(run: Running, engine: StagingEngine, output: StageOutput, engineMs: number, original: Buffer): Promise<void> {
    const { queue, images, logger } = this.parts;
    const { job } = run;
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
    // A request for one more variation is one image: anything further is not what was paid for.
    const alternatives = job.variationOf ? [] : await this.readableAlternatives(job, original, output.alternatives ?? []);
    const first = { ...(await images.storeFiles(image, await makeThumbnail(image.jpeg))), image };
    const variations: [StoredResult, ...StoredResult[]] = [first];
    // Further variations' thumbnails are made on first need (ImagesService.thumbnail).
    for (const alternative of alternatives) variations.push({ ...(await images.storeFiles(alternative)), image: alternative });
    let completed = false;
    try {
      completed =
        run.abort.signal.aborted && !run.stopping
          ? false
          : await queue.complete(job, {
              variations,
              engine: output.engine ?? engine.name,
              engineMs,
              engineModel: output.model ?? (output.engine ? undefined : engine.model),
              engineCostMicros: output.costMicros,
              structure: output.structure,
              // Recorded with the result: more variations are offered for a credit each only then.
              chargedPerImage: engine.chargesPerImage === true,
            });
    } finally {
      if (!completed) {
        await Promise.all(variations.map((v) => images.deleteFiles(v.id)));
        logger?.warn({ jobId: job.id }, 'worker: the job was not completed (lease lost, job deleted, or database error); result discarded');
      }
    }
    if (completed) logger?.info({ jobId: job.id, engine: engine.name, model: output.model, engineMs, costMicros: output.costMicros, variations: variations.length }, 'worker: job completed');
  }

  /** The further variations that decode and add something to the photo, normalised as the result is. */
  private async readableAlternatives(job: ClaimedJob, original: Buffer, alternatives: Buffer[]): Promise<NormalisedImage[]> {
    const kept: NormalisedImage[] = [];
    for (const [index, bytes] of alternatives.entries()) {
      try {
        const image = await normaliseEngineOutput(bytes);
        if (await addsSomething(original, image.jpeg)) kept.push(image);
        else this.parts.logger?.warn({ jobId: job.id, index }, 'worker: a further variation added nothing to the photo; left out');
      } catch (err) {
        this.parts.logger?.warn({ err, jobId: job.id, index }, 'worker: a further variation was unreadable; left out');
      }
    }
    return kept;
  }
}
