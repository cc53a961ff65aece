import { ConfigError, loadConfig, type Config } from '../config.ts';
import { createContainer, describeParts, type ContainerOverrides } from '../container.ts';
import { createWorker, type WorkerParts } from './worker.ts';

export const PGLITE_REFUSAL =
  'npm run worker needs PostgreSQL (set DATABASE_URL): the embedded PGlite database belongs to the server process, ' +
  'which runs its own worker (RUN_WORKER, on by default).';

/**
 * A worker process on its own (`npm run worker`), for scaling out beside servers started with
 * RUN_WORKER=false. PostgreSQL only. SIGTERM or SIGINT stops it gracefully: the job in hand is
 * finished within the grace period or released to the queue.
 */
export async function runWorkerProcess(options: { env?: Record<string, string | undefined>; overrides?: ContainerOverrides } = {}): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(options.env ?? process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`RoomStager worker cannot start.\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  if (!config.DATABASE_URL) {
    process.stderr.write(`RoomStager worker cannot start.\n${PGLITE_REFUSAL}\n`);
    process.exit(1);
  }

  const logger = jsonLogger(config.LOG_LEVEL);
  const container = await createContainer(config, options.overrides);
  const worker = createWorker(container, { logger });
  worker.start();
  void container.engine.warm?.();
  const parts = describeParts(container)
    .filter(([role]) => role === 'database' || role === 'storage' || role === 'engine')
    .map(([role, part]) => `  ${role.padEnd(10)} ${role === 'engine' ? `${container.engine.name} x${config.WORKER_CONCURRENCY}` : part}`)
    .join('\n');
  process.stdout.write(`\nRoomStager worker is running (pid ${process.pid})\n${parts}\n\n`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'worker shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    worker
      .stop(10_000)
      .then(() => container.database.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'worker shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

/** One JSON line per entry on stdout, in the shape of the server's (pino) log lines. */
function jsonLogger(level: keyof typeof LEVELS): NonNullable<WorkerParts['logger']> {
  const threshold = LEVELS[level];
  const write = (lvl: 'info' | 'warn' | 'error') => (obj: unknown, msg?: string) => {
    if (LEVELS[lvl] < threshold) return;
    const fields: Record<string, unknown> = typeof obj === 'object' && obj !== null ? { ...(obj as Record<string, unknown>) } : { msg: String(obj) };
    if (fields.err instanceof Error) fields.err = { type: fields.err.name, message: fields.err.message, stack: fields.err.stack };
    process.stdout.write(`${JSON.stringify({ level: LEVELS[lvl], time: Date.now(), pid: process.pid, name: 'worker', ...fields, ...(msg ? { msg } : {}) })}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') } as NonNullable<WorkerParts['logger']>;
}
