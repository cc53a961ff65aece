import type { Db } from '../../db/client.ts';
import { RateLimitsRepository } from './rate-limits.repository.ts';

/**
 * Fixed-window hit counters in the `rate_limits` table, shared by every process on the database.
 * Times are the database's clock, so processes on several machines agree on every window.
 */
export class RateLimitsService {
  private readonly repository: RateLimitsRepository;

  constructor(db: Db) {
    this.repository = new RateLimitsRepository(db);
  }

  /**
   * Counts one hit on `key` and answers the hits in its current window, this one included, and the
   * milliseconds until the window ends. One statement: concurrent hits from any number of
   * processes serialise on the row, so none is lost; a hit after the window ended starts a new one.
   */
  async hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
    const row = await this.repository.hit(key, windowMs);
    if (!row) throw new Error('rate limit upsert returned no row');
    return row;
  }

  /**
   * Deletes up to `limit` rows whose window has ended; answers how many. A window a hit has just
   * restarted is never deleted.
   */
  deleteExpired(limit: number): Promise<number> {
    return this.repository.deleteExpired(limit);
  }
}
