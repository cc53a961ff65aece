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

/** Every statement on `rate_limits`. */
export class RateLimitsRepository {
  private readonly hitQuery: ReturnType<typeof prepareHit>;

  constructor(private readonly db: Db) {
    this.hitQuery = prepareHit(db);
  }

  /**
   * Counts one hit on `key` in one statement (an upsert that starts a new window once the last one
   * ended); the hits in the window and the milliseconds left, or undefined if no row came back.
   */
  async hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number } | undefined> {
    const [row] = await this.hitQuery.execute({ key, windowMs });
    return row;
  }

  /**
   * Deletes up to `limit` rows whose window has ended; answers how many. Rows another statement
   * holds are skipped, and the condition is checked again on the row deleted.
   */
  async deleteExpired(limit: number): Promise<number> {
    const expired = lte(rateLimits.resetsAt, sql`now()`);
    const batch = lockedBatch(this.db, rateLimits, rateLimits.key, expired, limit);
    const deleted = await this.db.delete(rateLimits).where(and(inArray(rateLimits.key, batch), expired)).returning({ key: rateLimits.key });
    return deleted.length;
  }
}
