import type { WorkerLogger } from './job-runner.ts';

/** Rows one sweep step handles (per transaction, or per claim): short locks, and a bounded query. */
export const SWEEP_BATCH = 100;

/** One periodic task of the worker's sweep. */
export interface SweepTask {
  /** What the task does, for the log line of its failure ("worker: <name> failed"). */
  name: string;
  /** Runs the task once; answers how many rows it handled. */
  run(): Promise<number>;
  /** The log line when it handled any (nothing is logged for none). */
  done?: (count: number) => [fields: object, msg: string];
}

/**
 * Runs every task once, each in the same guard: a failing task is logged and does not keep the
 * others from running.
 */
export async function runSweep(tasks: readonly SweepTask[], logger: WorkerLogger | undefined): Promise<void> {
  for (const task of tasks) {
    try {
      const count = await task.run();
      const line = count > 0 ? task.done?.(count) : undefined;
      if (line) logger?.info(line[0], line[1]);
    } catch (err) {
      logger?.error({ err }, `worker: ${task.name} failed`);
    }
  }
}

/**
 * Runs `batch` (handling at most SWEEP_BATCH rows) until a batch comes back short or `stopping`
 * says so; answers the total. A candidate another worker took meanwhile is no longer one next time.
 */
export async function inBatches(batch: (limit: number) => Promise<number>, stopping: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await batch(SWEEP_BATCH);
    total += handled;
    if (handled < SWEEP_BATCH || stopping()) return total;
  }
}
