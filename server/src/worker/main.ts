import { runWorkerProcess } from './process.ts';

runWorkerProcess().catch((err: unknown) => {
  process.stderr.write(`RoomStager worker failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
