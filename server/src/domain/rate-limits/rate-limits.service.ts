import { and, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { lockedBatch } from '../../db/locked-batch.ts';
import { rateLimits } from '../../db/schema.ts';

/** Counting a hit runs on every limited request: a prepared statement (planned once per connection). */
function prepareHit(db: Db) {
  const now = sql`now()`;
  const window = sql`${sql.placeholder('windowMs')} * interval '1 millisecond'`;
  const ended = sql`${rateLimits.resetsAt} <= ${now}`;
  return db
    .insert(rateLimits)
    .values({ key: sql.placeholder('key'), count: 1, resetsAt: sql`${now} + ${window}` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${ended} then 1 else ${rateLimits.count} + 1 end`,
        resetsAt: sql`case when ${ended} then ${now} + ${window} else ${rateLimits.resetsAt} end`,
      },
    })
    .returning({ count: rateLimits.count, ttlMs: sql<number>`ceil(extract(epoch from ${rateLimits.resetsAt} - ${now}) * 1000)::float8` })
    .prepare('rate_limit_hit');
}

/**
 * Fixed-window hit counters in the `rate_limits` table, shared by every process on the database.
 * Times are the database's clock, so processes on several machines agree on every window.
 */
export class RateLimitsService {
  private readonly hitQuery: ReturnType<typeof prepareHit>;

  constructor(private readonly db: Db) {
    this.hitQuery = prepareHit(db);
  }

  /**
   * Counts one hit on `key` and answers the hits in its current window, this one included, and the
   * milliseconds until the window ends. One statement: concurrent hits from any number of
   * processes serialise on the row, so none is lost; a hit after the window ended starts a new one.
   */
  async hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
    const [row] = await this.hitQuery.execute({ key, windowMs });
    if (!row) throw new Error('rate limit upsert returned no row');
    return row;
  }

  /**
   * Deletes up to `limit` rows whose window has ended; answers how many. Rows another statement
   * holds are skipped, and the condition is checked again on the row deleted, so a window a hit
   * has just restarted is never deleted.
   */
  async deleteExpired(limit: number): Promise<number> {
    const expired = lte(rateLimits.resetsAt, sql`now()`);
    const batch = lockedBatch(this.db, rateLimits, rateLimits.key, expired, limit);
    const deleted = await this.db.delete(rateLimits).where(and(inArray(rateLimits.key, batch), expired)).returning({ key: rateLimits.key });
    return deleted.length;
  }
}
