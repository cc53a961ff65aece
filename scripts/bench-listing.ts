// A 10-photo listing staged end to end for `npm run bench` (printed, never asserted): upload, add,
// one stage call, then one in-process worker with the configured engine (local by default) until
// every photo is done, on PGlite; the ZIP of the result is timed too.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listingSchema, type RoomType } from '@roomstager/contracts';
import { buildApp } from '../server/src/api/app.ts';
import { cookieNames } from '../server/src/api/session.ts';
import { loadConfig } from '../server/src/config.ts';
import { createContainer } from '../server/src/container.ts';
import { createWorker } from '../server/src/worker/worker.ts';

const PHOTOS = 10;
const ROOMS: Array<[file: string, roomType: RoomType]> = [
  ['living-before.jpg', 'living_room'],
  ['bedroom-before.jpg', 'bedroom'],
  ['kitchen-before.jpg', 'kitchen'],
  ['dining-before.jpg', 'dining_room'],
];

const dataDir = await mkdtemp(path.join(tmpdir(), 'roomstager-bench-listing-'));
const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, UPLOAD_RATE_LIMIT: '1000', WORKER_CONCURRENCY: '1' });
const container = await createContainer(config);
const app = await buildApp(container, { logger: false });
const worker = createWorker(container);
container.jobs.onQueued(() => worker.wake());
worker.start();
try {
  const { user } = await container.users.findOrCreateBySubject({ subject: 'bench|listing', email: 'bench@example.com', name: 'Bench' });
  await container.database.db.transaction((tx) => container.credits.record(tx, { userId: user.id, type: 'grant', amount: PHOTOS, description: 'Bench credits' }));
  const { token } = await container.auth.createSession(user.id);
  const headers = { cookie: `${cookieNames(false).session}=${token}`, origin: config.publicOrigin, 'sec-fetch-site': 'same-origin' };
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const json = body === undefined ? {} : { headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) };
    const res = await app.inject({ method, url, headers, ...json });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const listingId = (await call('POST', '/api/listings', { title: 'Bench listing', style: 'modern' })).json<{ id: string }>().id;
  const started = performance.now();
  for (let i = 0; i < PHOTOS; i++) {
    const [file, roomType] = ROOMS[i % ROOMS.length] as [string, RoomType];
    const photo = await readFile(path.join('web/assets/rooms', file));
    const { imageUrl } = (await call('POST', '/api/upload', { imageData: photo.toString('base64'), filename: file })).json<{ imageUrl: string }>();
    await call('POST', `/api/listings/${listingId}/photos`, { imageUrl, roomType });
  }
  const added = performance.now();
  await call('POST', `/api/listings/${listingId}/stage`);
  let listing = listingSchema.parse((await call('GET', `/api/listings/${listingId}`)).json());
  while (listing.photos.some((p) => p.job?.status === 'pending' || p.job?.status === 'processing')) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    listing = listingSchema.parse((await call('GET', `/api/listings/${listingId}`)).json());
  }
  const staged = performance.now();
  const zip = await call('GET', `/api/listings/${listingId}/download`);
  const zipped = performance.now();
  const done = listing.photos.filter((p) => p.job?.status === 'completed');
  const variations = done.reduce((n, p) => n + (p.job?.variations.length ?? 0), 0);
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `listing of ${PHOTOS} photos, engine ${container.engine.name}, one worker: uploads and additions ${seconds(added - started)} s; ` +
      `staging ${seconds(staged - added)} s (${seconds((staged - added) / PHOTOS)} s a photo, ${done.length} completed, ${variations} variations); ` +
      `ZIP ${(zip.rawPayload.length / 1_048_576).toFixed(1)} MB in ${seconds(zipped - staged)} s`,
  );
} finally {
  await worker.stop();
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
