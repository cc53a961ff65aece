import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { shares } from '../../db/schema.ts';

export type ShareRow = typeof shares.$inferSelect;

/** A foreign key's referenced row is gone (PostgreSQL's 23503, as node-postgres and PGlite report it, wrapped by Drizzle or not). */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if ((e as { code?: unknown }).code === '23503') return true;
  return false;
}

/** Every statement on `shares`. */
export class SharesRepository {
  constructor(private readonly db: Db) {}

  /**
   * The job's share under a new token hash, in one statement: the job's earlier link (if any)
   * stops working as this one starts. Null when the job was deleted meanwhile.
   */
  async replaceForJob(userId: string, jobId: string, tokenHash: string): Promise<ShareRow | null> {
    try {
      const [row] = await this.db
        .insert(shares)
        .values({ userId, jobId, tokenHash })
        .onConflictDoUpdate({ target: shares.jobId, set: { tokenHash, userId, createdAt: sql`now()` } })
        .returning();
      return row ?? null;
    } catch (err) {
      if (isForeignKeyViolation(err)) return null;
      throw err;
    }
  }

  async findByTokenHash(tokenHash: string): Promise<ShareRow | undefined> {
    const [row] = await this.db.select().from(shares).where(eq(shares.tokenHash, tokenHash));
    return row;
  }

  /** The user's share of the job, if it has one. */
  async findForJob(userId: string, jobId: string): Promise<ShareRow | undefined> {
    const [row] = await this.db.select().from(shares).where(and(eq(shares.jobId, jobId), eq(shares.userId, userId)));
    return row;
  }

  /** Deletes the user's share of the job; false when it has none. */
  async deleteForJob(userId: string, jobId: string): Promise<boolean> {
    const rows = await this.db
      .delete(shares)
      .where(and(eq(shares.jobId, jobId), eq(shares.userId, userId)))
      .returning({ id: shares.id });
    return rows.length > 0;
  }

  /** Deletes the user's share with this token hash; false when there is none (or it is another user's). */
  async deleteOwned(userId: string, tokenHash: string): Promise<boolean> {
    const rows = await this.db
      .delete(shares)
      .where(and(eq(shares.tokenHash, tokenHash), eq(shares.userId, userId)))
      .returning({ id: shares.id });
    return rows.length > 0;
  }
}
