import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createContainer, describeParts } from '../container.ts';
import { createWorker } from '../worker/worker.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`RoomStager cannot start.\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const container = await createContainer(config);
  const app = await buildApp(container);
  await app.listen({ port: config.PORT, host: config.HOST });

  // The embedded worker (RUN_WORKER, default on): woken at once by jobs created here.
  const worker = config.RUN_WORKER ? createWorker(container, { logger: app.log }) : undefined;
  if (worker) {
    container.jobs.onQueued(() => worker.wake());
    worker.start();
    void container.engine.warm?.();
  }

  const url = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const parts = describeParts(container)
    .map(([role, part]) => `  ${role.padEnd(10)} ${part}`)
    .join('\n');
  process.stdout.write(`\nRoomStager is running at ${url}\n${parts}\n\n`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // The worker first (it finishes or releases its job while the database is still open).
    Promise.resolve(worker?.stop(5_000))
      .then(() => app.close())
      .then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`RoomStager failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
