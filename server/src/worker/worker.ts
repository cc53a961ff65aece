import type { Container } from '../container.ts';
import type { CreditsService } from '../domain/credits/credits.service.ts';
import type { EventLog, PaymentsService } from '../domain/payments/payments.service.ts';
import type { RateLimitsService } from '../domain/rate-limits/rate-limits.service.ts';
import type { WebhooksService } from '../domain/webhooks/webhooks.service.ts';
import { sleep } from './abort.ts';
import { JobRunner, type JobRunnerOptions, type JobRunnerParts, type Running, type WorkerLogger } from './job-runner.ts';
import { inBatches, runSweep, type SweepTask } from './sweeps.ts';

export interface WorkerOptions extends JobRunnerOptions {
  /** Jobs run at a time. */
  concurrency: number;
  /** Idle polling interval; wake() short-cuts it. */
  pollMs: number;
  /**
   * Deleting uploads no job uses once `ageMs` old, and rate-limit rows whose window has ended, and
   * asking PayPal about payments unsettled `paymentsAfterMs` after their order, at start and
   * every `intervalMs`; off when absent.
   */
  sweep?: { ageMs: number; intervalMs: number; paymentsAfterMs?: number };
  /** Sending the due webhooks every `intervalMs` (a sweep of its own: a job's end is told within about that); off when absent. */
  webhookSweep?: { intervalMs: number };
}

export interface WorkerParts extends JobRunnerParts {
  /** Rate-limit counters, swept with the uploads. */
  rateLimits?: RateLimitsService;
  /** Payments left unsettled, reconciled with PayPal by the sweep. */
  payments?: PaymentsService;
  /** The ledger, checked by the sweep against every balance. */
  credits?: CreditsService;
  /** Webhook deliveries, sent by the webhook sweep. */
  webhooks?: WebhooksService;
  logger?: WorkerLogger;
}

/** The payments' log when the worker has none. */
const QUIET: EventLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Claims jobs from the jobs table and runs them (job-runner.ts): `concurrency` loops, each
 * claiming one job at a time, polling every pollMs when idle and woken at once by jobs queued in
 * this process; and one loop running the periodic sweeps (sweeps.ts). stop() finishes the jobs
 * in hand within a grace period and releases whatever is still running after it.
 */
export class Worker {
  private readonly running = new Map<string, Running>();
  private readonly loops: Promise<void>[] = [];
  private readonly runner: JobRunner;
  private stopping = false;
  private idle = new AbortController();
  /** Aborted by stop(): ends the sweep's wait, which wake() must not cut short. */
  private readonly stopped = new AbortController();

  constructor(
    private readonly parts: WorkerParts,
    private readonly options: WorkerOptions,
  ) {
    this.runner = new JobRunner(parts, options);
  }

  start(): void {
    if (this.loops.length) return;
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
    if (this.options.sweep) this.loops.push(this.sweepLoop(this.sweepTasks, this.options.sweep.intervalMs));
    if (this.options.webhookSweep) this.loops.push(this.sweepLoop(this.webhookTasks, this.options.webhookSweep.intervalMs));
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
    const run: Running = { job, abort: new AbortController(), stopping: false };
    this.running.set(job.id, run);
    try {
      await this.runner.run(run);
    } finally {
      this.running.delete(job.id);
    }
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

  /**
   * Every balance must equal the sum of its ledger rows. A mismatch means a bug or a manual edit;
   * it is logged as an error for each user (no automatic repair: which side is right needs a
   * person). Answers how many were found.
   */
  async checkLedger(): Promise<number> {
    const { credits, logger } = this.parts;
    if (!credits) return 0;
    const found = await credits.violations();
    for (const v of found) logger?.error({ event: 'credits.ledger_mismatch', userId: v.id, balance: v.credits, ledger: v.ledger }, 'worker: balance differs from the ledger');
    return found.length;
  }

  /** Sends the webhooks that are due, a batch at a time; answers how many were attempted. */
  async deliverWebhooks(): Promise<number> {
    const { webhooks, logger } = this.parts;
    return webhooks ? this.inBatches((limit) => webhooks.deliverDue(limit, logger ?? QUIET)) : 0;
  }

  /** The webhook sweep: often, so an event goes out within about its interval of the job's end. */
  private readonly webhookTasks: readonly SweepTask[] = [{ name: 'delivering webhooks', run: () => this.deliverWebhooks() }];

  /** The sweep, in the order it runs. */
  private readonly sweepTasks: readonly SweepTask[] = [
    { name: 'sweeping unused uploads', run: () => this.sweepUnused(), done: (deleted) => [{ deleted }, 'worker: unused uploads deleted'] },
    { name: 'sweeping ended rate-limit windows', run: () => this.sweepRateLimits() },
    { name: 'reconciling payments', run: () => this.reconcilePayments(), done: (checked) => [{ checked }, 'worker: unsettled payments checked with PayPal'] },
    { name: 'checking the ledger', run: () => this.checkLedger() },
  ];

  private inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
    return inBatches(batch, () => this.stopping);
  }

  private async sweepLoop(tasks: readonly SweepTask[], intervalMs: number): Promise<void> {
    while (!this.stopping) {
      await runSweep(tasks, this.parts.logger);
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
      webhooks: container.webhooks,
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
      webhookSweep: { intervalMs: config.WEBHOOK_SWEEP_MS },
      ...overrides,
    },
  );
}
