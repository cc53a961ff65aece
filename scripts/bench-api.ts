// Public API throughput with one key: job creations and status reads per second (autocannon,
// in its own process, against an in-process server on PGlite). Prints figures, asserts nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../server/src/api/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { createContainer } from '../server/src/container.ts';
import { payments } from '../server/src/db/schema.ts';
import { createWorker } from '../server/src/worker/worker.ts';
import { freePort, load } from './bench-support.ts';

const SECONDS = 10;
const dataDir = await mkdtemp(path.join(tmpdir(), 'roomstager-bench-api-'));
const port = await freePort();
// Jobs fail at once (the test engine), refunded, so creations are not held back by the active-jobs cap for long.
const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', PORT: String(port), DATA_DIR: dataDir, API_RATE_LIMIT: '1000000', STAGING_ENGINE: 'fail', WORKER_CONCURRENCY: '4' });
const container = await createContainer(config);
const app = await buildApp(container, { logger: false });
await app.listen({ port, host: '127.0.0.1' });
const worker = createWorker(container);
container.jobs.onQueued(() => worker.wake());
worker.start();
try {
  const { user } = await container.users.findOrCreateBySubject({ subject: 'bench|api', email: 'bench@example.com', name: 'bench' });
  await container.database.db.transaction((tx) => container.credits.record(tx, { userId: user.id, type: 'grant', amount: 1_000_000, description: 'Bench balance' }));
  // A captured Enterprise purchase, as the capture path leaves it.
  await container.database.db.insert(payments).values({ userId: user.id, pack: 'enterprise', credits: 250, amountCents: 39_900, currency: 'USD', status: 'completed', providerOrderId: 'bench', completedAt: new Date() });
  const { secret } = await container.apiKeys.create(user.id, 'bench');
  const auth = { authorization: `Bearer ${secret}` };
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d8d2c8' } }).jpeg().toBuffer();
  const base = `http://localhost:${port}`;
  const post = (url: string, body: unknown) => fetch(base + url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ id: string }>);
  const image = await post('/api/v1/images', { imageData: jpeg.toString('base64'), filename: 'room.jpg' });
  const job = await post('/api/v1/jobs', { imageId: image.id, style: 'modern' });

  const status = await load(`${base}/api/v1/jobs/${job.id}`, { connections: 10, seconds: SECONDS, headers: auth });
  console.log(`GET /api/v1/jobs/{id} with a key: ${status.rps} requests/s, p99 ${status.p99} ms, non-2xx ${status.non2xx} (10 connections, ${SECONDS} s)`);
  const creation = await load(`${base}/api/v1/jobs`, {
    connections: 10,
    seconds: SECONDS,
    method: 'POST',
    body: JSON.stringify({ imageId: image.id, style: 'modern' }),
    headers: { ...auth, 'content-type': 'application/json' },
  });
  const accepted = Math.round(creation.rps - creation.non2xx / SECONDS);
  console.log(`POST /api/v1/jobs with a key: ${creation.rps} requests/s, ${accepted}/s accepted (202, one credit each), p99 ${creation.p99} ms, non-2xx ${creation.non2xx} (429: the 20 active jobs cap) (10 connections, ${SECONDS} s)`);
  const balance = await container.credits.balance(user.id);
  const violations = await container.credits.violations();
  console.log(`ledger after the run: balance ${balance}, ${violations.length} balance/ledger mismatches`);
} finally {
  await worker.stop();
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
