import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/api/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createContainer, type Container, type ContainerOverrides } from '../src/container.ts';
import { openDatabase, type Database } from '../src/db/client.ts';

/** True when the tests also run against a real PostgreSQL (CI sets it). */
export const postgresUrl = process.env.TEST_DATABASE_URL || undefined;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL of TEST_DATABASE_URL when `kind` is 'postgres' (dropped again by close()).
 */
export async function openTestDatabase(kind: 'pglite' | 'postgres' = 'pglite'): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite' });
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
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: postgresUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** The database kinds a test file runs on: PGlite always, PostgreSQL too when CI provides it. */
export const databaseKinds: Array<'pglite' | 'postgres'> = postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', ...overrides });
}

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { kind?: 'pglite' | 'postgres'; env?: Record<string, string>; overrides?: ContainerOverrides } = {},
): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = await openTestDatabase(options.kind ?? 'pglite');
  const container = await createContainer(config, { database, ...options.overrides });
  const app = await buildApp(container);
  await app.ready();
  return { app, container, close: () => app.close() };
}

/** Headers a same-origin browser request carries. */
export const sameOrigin = { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' } as const;
