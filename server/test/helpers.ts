import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { cookieNames } from '../src/api/session.ts';
import { buildApp } from '../src/api/app.ts';
import { ConfigError, loadConfig, type Config } from '../src/config.ts';
import { createContainer, type Container, type ContainerOverrides } from '../src/container.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { CreditsService, type LedgerViolation } from '../src/domain/credits/credits.service.ts';

/** True when the tests also run against a real PostgreSQL (CI sets it). */
export const postgresUrl = process.env.TEST_DATABASE_URL || undefined;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL of TEST_DATABASE_URL when `kind` is 'postgres' (dropped again by close()).
 */
export async function openTestDatabase(kind: 'pglite' | 'postgres' = 'pglite'): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite', template: await migratedPgliteTemplate() });
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `rs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 20 });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: postgresUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

const migrationsDir = new URL('../src/db/migrations/', import.meta.url);

/**
 * A dump of a freshly migrated PGlite, made once per set of migrations and kept under
 * node_modules/.cache: starting from it instead of creating and migrating a cluster makes each
 * test database several times quicker to open. Test files run in their own processes, so the dump
 * is shared through the file (written under a temporary name and renamed: concurrent writers
 * cannot leave half a file).
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  const hash = createHash('sha256');
  const walk = async (dir: URL): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const url = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir);
      if (entry.isDirectory()) await walk(url);
      else hash.update(entry.name).update(await readFile(url));
    }
  };
  await walk(migrationsDir);
  const cacheDir = new URL('../../node_modules/.cache/roomstager-test-db/', import.meta.url);
  const file = new URL(`${hash.digest('hex').slice(0, 16)}.tar`, cacheDir);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const fresh = await openDatabase({ kind: 'pglite' });
    const dump = await (fresh.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
    await fresh.close();
    await mkdir(cacheDir, { recursive: true });
    const partial = new URL(`${file.pathname}.${process.pid}.${randomBytes(4).toString('hex')}`, file);
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  }
}

/**
 * The database kinds a test file runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is
 * set. TEST_POSTGRES_ONLY=1 leaves PGlite out, for a run that follows one on PGlite (.ci/run).
 */
export const databaseKinds: Array<'pglite' | 'postgres'> = !postgresUrl ? ['pglite'] : process.env.TEST_POSTGRES_ONLY === '1' ? ['postgres'] : ['pglite', 'postgres'];

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', ...overrides });
}

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  /** The PostgreSQL database of this app (for a second process), when it runs on PostgreSQL. */
  databaseUrl?: string | undefined;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    kind?: 'pglite' | 'postgres';
    env?: Record<string, string>;
    overrides?: ContainerOverrides;
    /** Another app's PostgreSQL database (its databaseUrl): this app is a second server process on it; close it first. */
    joinDatabaseUrl?: string;
  } = {},
): Promise<TestApp> {
  // Image files go to a temporary folder of this app unless the test chose one.
  const dataDir = options.env?.DATA_DIR ? undefined : await mkdtemp(path.join(tmpdir(), 'roomstager-test-'));
  const config = testConfig({ ...(dataDir ? { DATA_DIR: dataDir } : {}), ...options.env });
  const database: Database & { url?: string } = options.joinDatabaseUrl
    ? await openDatabase({ kind: 'postgres', url: options.joinDatabaseUrl })
    : await openTestDatabase(options.kind ?? 'pglite');
  const container = await createContainer(config, { database, ...options.overrides });
  const app = await buildApp(container);
  await app.ready();
  return {
    app,
    container,
    databaseUrl: database.url,
    close: async () => {
      await app.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headers a same-origin browser request carries. */
export const sameOrigin = { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' } as const;

/** A signed-in user made directly through the services (no sign-in flow): its id and Cookie header. */
export async function createSignedInUser(
  t: Pick<TestApp, 'container'>,
  options: { name?: string; credits?: number } = {},
): Promise<{ id: string; cookie: string }> {
  const name = options.name ?? `user-${randomBytes(4).toString('hex')}`;
  const { user } = await t.container.users.findOrCreateBySubject({ subject: `test|${name}|${randomBytes(4).toString('hex')}`, email: `${name}@example.com`, name });
  if (options.credits !== undefined && options.credits !== user.credits) {
    const amount = options.credits - user.credits;
    await t.container.database.db.transaction((tx) =>
      t.container.credits.record(tx, { userId: user.id, type: amount > 0 ? 'grant' : 'usage', amount, description: 'Test balance' }),
    );
  }
  const { token } = await t.container.auth.createSession(user.id);
  return { id: user.id, cookie: `${cookieNames(false).session}=${token}` };
}

/** Users whose balance differs from the sum of their ledger rows (the invariant says: none). */
export function ledgerViolations(database: Database): Promise<LedgerViolation[]> {
  return new CreditsService(database.db).violations(1000);
}

/** The problems loadConfig reports for an environment (none when it loads). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
}
