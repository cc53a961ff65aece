import { AppError } from '../api/errors.ts';

/**
 * Runs at most `limit` tasks at once and lets `queueLimit` more wait; beyond that it refuses
 * with 503 at once, so a burst of uploads cannot pile up decodes in memory (UP-09).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(
    private readonly limit: number,
    private readonly queueLimit: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.queueLimit) {
        throw new AppError(503, 'The server is busy processing other photos. Please try again in a moment.', 'BUSY');
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
