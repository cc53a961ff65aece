import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** A key's columns an answer shows (never the hash). */
const shown = { id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt };
export type ApiKeyView = { [K in keyof typeof shown]: ApiKeyRow[K] };

const active = (userId: string) => and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));

/** Every statement on `api_keys`. */
export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a key unless the user already holds `limit` active ones (undefined then). Two creations
   * at the same moment may pass the limit by one: it keeps the list short, it guards nothing.
   */
  async insertWithin(values: { userId: string; name: string; prefix: string; secretHash: string }, limit: number): Promise<ApiKeyView | undefined> {
    const [held] = await this.db.select({ n: count() }).from(apiKeys).where(active(values.userId));
    if ((held?.n ?? 0) >= limit) return undefined;
    const [row] = await this.db.insert(apiKeys).values(values).returning(shown);
    return row;
  }

  /** The user's active keys, newest first. */
  listActive(userId: string): Promise<ApiKeyView[]> {
    return this.db.select(shown).from(apiKeys).where(active(userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  }

  /** Revokes the user's active key; false when there is none by that id. */
  async revoke(userId: string, keyId: string): Promise<boolean> {
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, keyId), active(userId)))
      .returning({ id: apiKeys.id });
    return rows.length === 1;
  }

  /** The active key with this hash. */
  async findActiveByHash(secretHash: string): Promise<Pick<ApiKeyRow, 'id' | 'userId' | 'name' | 'prefix' | 'lastUsedAt'> | undefined> {
    const [row] = await this.db
      .select({ id: apiKeys.id, userId: apiKeys.userId, name: apiKeys.name, prefix: apiKeys.prefix, lastUsedAt: apiKeys.lastUsedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)));
    return row;
  }

  /** Sets the last use to now unless it was set less than `granularityMs` ago (one write a minute, not one a call). */
  async touch(keyId: string, granularityMs: number): Promise<void> {
    await this.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - make_interval(secs => ${granularityMs / 1000})`))));
  }
}
