import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * The subquery of a batch claim: up to `limit` keys of `table` rows matching `where`, locked FOR
 * UPDATE SKIP LOCKED, for `UPDATE/DELETE ... WHERE key IN (this)`. Concurrent claimers (every
 * worker's sweep) each get rows the others do not hold, and no lock outlives the statement.
 */
export function lockedBatch(db: Db, table: PgTable, key: PgColumn, where: SQL | undefined, limit: number, orderBy?: PgColumn | SQL) {
  const query = db.select({ key }).from(table).where(where).$dynamic();
  return (orderBy ? query.orderBy(orderBy) : query).limit(limit).for('update', { skipLocked: true });
}
