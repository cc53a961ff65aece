import { UploadRejectedError } from './errors.ts';

export interface SemaphoreLimits {
  /** Tasks running at once, in all. */
  limit: number;
  /** Tasks waiting, in all; beyond that a task is refused with 503 at once. */
  queueLimit: number;
  /** Tasks one key (an account) may have running at once: with fewer than `limit`, nobody holds every slot. */
  perKey: number;
  /** Tasks one key may have in flight (running or waiting); beyond that its next task is refused with 429 at once. */
  perKeyQueued: number;
}

interface Waiter {
  key: string;
  start: () => void;
}

/**
 * Runs at most `limit` tasks at once and lets `queueLimit` more wait; beyond that it refuses
 * with 503 at once, so a burst of uploads cannot pile up decodes in memory. Slots are
 * shared fairly between keys: one key runs at most `perKey` tasks and queues at most
 * `perKeyQueued`, and a freed slot goes to the longest-waiting task whose key is under its share,
 * so one account's slow files cannot stall everyone else's uploads.
 */
export class Semaphore {
  private active = 0;
  private readonly activeByKey = new Map<string, number>();
  private readonly inFlightByKey = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: SemaphoreLimits) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const inFlight = this.inFlightByKey.get(key) ?? 0;
    if (inFlight >= this.limits.perKeyQueued) {
      throw new UploadRejectedError('TOO_MANY_UPLOADS', 'You have several photos uploading already. Please wait for them to finish, then try again.');
    }
    const startNow = this.canStart(key);
    if (!startNow && this.waiting.length >= this.limits.queueLimit) {
      throw new UploadRejectedError('BUSY', 'The server is busy processing other photos. Please try again in a moment.');
    }
    this.inFlightByKey.set(key, inFlight + 1);
    if (startNow) this.take(key);
    else await new Promise<void>((resolve) => this.waiting.push({ key, start: resolve }));
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  private canStart(key: string): boolean {
    return this.active < this.limits.limit && (this.activeByKey.get(key) ?? 0) < this.limits.perKey;
  }

  private take(key: string): void {
    this.active++;
    this.activeByKey.set(key, (this.activeByKey.get(key) ?? 0) + 1);
  }

  private release(key: string): void {
    this.active--;
    const active = (this.activeByKey.get(key) ?? 1) - 1;
    if (active > 0) this.activeByKey.set(key, active);
    else this.activeByKey.delete(key);
    const left = (this.inFlightByKey.get(key) ?? 1) - 1;
    if (left > 0) this.inFlightByKey.set(key, left);
    else this.inFlightByKey.delete(key);
    // Fill every slot that is free now with the longest-waiting task allowed to start.
    for (let i = 0; i < this.waiting.length && this.active < this.limits.limit; ) {
      const next = this.waiting[i] as Waiter;
      if (!this.canStart(next.key)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(next.key);
      next.start();
    }
  }
}
