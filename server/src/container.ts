import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';

/** Composition root: every long-lived part of the server, built once from the configuration. */
export interface Container {
  config: Config;
  database: Database;
}

/** Tests pass their own parts (a fresh database, a fake provider); the rest comes from config. */
export type ContainerOverrides = Partial<Omit<Container, 'config'>>;

export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const database =
    overrides.database ??
    (await openDatabase(
      config.DATABASE_URL
        ? { kind: 'postgres', url: config.DATABASE_URL }
        : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pglite` },
    ));
  return { config, database };
}

/** What runs for each role, printed at start so a newcomer sees what is real and what is a stand-in. */
export function describeParts(container: Container): Array<[role: string, part: string]> {
  return [['database', container.database.description]];
}
