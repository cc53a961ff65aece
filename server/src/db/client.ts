import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the services see, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The transaction `db.transaction(cb)` hands to `cb`: pass it explicitly, never use `db` inside. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Where the data lives, for the start banner (never includes a password). */
  description: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /**
   * dataDir undefined: an in-memory database (tests). `template`: a dump of a migrated database
   * (PGlite's dumpDataDir) to start from instead of a fresh cluster, which saves the cluster's
   * creation and the migrations (tests open hundreds); the migrations still run and apply
   * whatever the dump lacks.
   */
  | { kind: 'pglite'; dataDir?: string; template?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client's network error must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    const db = drizzleNodePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    await migrateNodePg(drizzleNodePg(pool, { schema, casing: 'snake_case' }), { migrationsFolder });
    const url = new URL(options.url);
    return wrap(db, 'postgres', `PostgreSQL at ${url.host}${url.pathname}`, () => pool.end());
  }
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const client = await PGlite.create(options.dataDir, options.template ? { loadDataDir: options.template } : {});
  const pgliteDb = drizzlePglite(client, { schema, casing: 'snake_case' });
  await migratePglite(pgliteDb, { migrationsFolder });
  const where = options.dataDir ? `PGlite (embedded) in ${path.resolve(options.dataDir)}` : 'PGlite (in memory)';
  return wrap(pgliteDb as unknown as Db, 'pglite', where, () => client.close());
}

function wrap(db: Db, kind: Database['kind'], description: string, close: () => Promise<void>): Database {
  return {
    db,
    kind,
    description,
    async ping() {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    close,
  };
}
