// The staging pipeline's figures for `npm run bench` (printed, never asserted): upload of a 10 MB
// photo, job overhead from creation to claim, and GET /api/jobs?page=1 for a user with 200 jobs at
// 50 connections, on PGlite and (with TEST_DATABASE_URL or DATABASE_URL) PostgreSQL, beside a
// bare Fastify hello-world on this machine in the same run.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import sharp from 'sharp';
import { buildApp } from '../server/src/api/app.ts';
import { cookieNames } from '../server/src/api/session.ts';
import { loadConfig } from '../server/src/config.ts';
import { createContainer } from '../server/src/container.ts';
import { jobs } from '../server/src/db/schema.ts';
import { createWorker } from '../server/src/worker/worker.ts';
import { freePort, load, median } from './bench-support.ts';

const CONNECTIONS = 50;
const SECONDS = 10;

/** A JPEG just under the 10 MB limit: noise does not compress, so its size follows its pixels. */
async function tenMegabytePhoto(): Promise<Buffer> {
  for (let width = 4000; width > 1000; width -= 100) {
    const height = Math.round((width * 3) / 4);
    const noise = randomBytes(width * height * 3);
    const jpeg = await sharp(noise, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
    if (jpeg.length <= 10_485_760) return jpeg;
  }
  throw new Error('could not make the photo');
}

async function newDatabaseUrl(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rs_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function benchOn(kind: 'pglite' | 'postgres', databaseUrl: string, photo: Buffer): Promise<void> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'roomstager-bench-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PORT: String(port),
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    UPLOAD_RATE_LIMIT: '100000',
  });
  const container = await createContainer(config);
  const app = await buildApp(container, { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  const worker = createWorker(container, { logger: app.log });
  container.jobs.onQueued(() => worker.wake());
  worker.start();
  try {
    const { user } = await container.users.findOrCreateBySubject({ subject: `bench|${randomBytes(4).toString('hex')}`, email: 'bench@example.com', name: 'Bench' });
    await container.database.db.transaction((tx) =>
      container.credits.record(tx, { userId: user.id, type: 'grant', amount: 1000, description: 'Bench credits' }),
    );
    const { token } = await container.auth.createSession(user.id);
    const headers = { cookie: `${cookieNames(false).session}=${token}`, origin, 'content-type': 'application/json' };
    const body = JSON.stringify({ imageData: photo.toString('base64'), filename: 'bench.jpg' });

    const uploads: number[] = [];
    let imageUrl = '';
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await fetch(`${origin}/api/upload`, { method: 'POST', headers, body });
      uploads.push(performance.now() - started);
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      imageUrl = ((await res.json()) as { imageUrl: string }).imageUrl;
    }
    console.log(`[${kind}] upload of a ${(photo.length / 1048576).toFixed(1)} MB photo to stored: median ${Math.round(median(uploads))} ms (target <= 1000 ms)`);

    // One job at a time on an idle worker, so the figure is the pipeline's own overhead, not a queue.
    const overheads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${origin}/api/jobs`, { method: 'POST', headers, body: JSON.stringify({ originalImageUrl: imageUrl, style: 'modern', userLabel: null }) });
      const { id } = (await res.json()) as { id: string };
      for (;;) {
        const job = (await (await fetch(`${origin}/api/jobs/${id}`, { headers })).json()) as { status: string; createdAt: string; processingStartedAt: string | null };
        if (job.status === 'completed' || job.status === 'failed') {
          if (job.processingStartedAt) overheads.push(Date.parse(job.processingStartedAt) - Date.parse(job.createdAt));
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    console.log(`[${kind}] job overhead, creation to claim: median ${Math.round(median(overheads))} ms (target <= 200 ms)`);
    await worker.stop(60_000);

    // Fill the gallery to 200 jobs directly, then measure the page route alone.
    const imageId = imageUrl.split('/').pop() as string;
    const rows = Array.from({ length: 200 - overheads.length }, (_, i) => ({
      userId: user.id,
      originalImageId: imageId,
      style: 'luxury' as const,
      roomType: 'living_room' as const,
      status: 'failed' as const,
      errorMessage: 'bench',
      createdAt: new Date(Date.now() - i * 1000),
    }));
    await container.database.db.insert(jobs).values(rows);
    const page = await load(`${origin}/api/jobs?page=1`, { connections: CONNECTIONS, seconds: SECONDS, headers: { cookie: headers.cookie } });
    console.log(
      `[${kind}] GET /api/jobs?page=1 (200 jobs): ${page.rps} requests/s, p99 ${page.p99} ms, ${page.non2xx} non-2xx (${CONNECTIONS} connections, ${SECONDS} s; target on PostgreSQL >= 2000/s, p99 < 50 ms)`,
    );
  } finally {
    await worker.stop(5_000);
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function helloWorld(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  const res = await load(`http://127.0.0.1:${port}/`, { connections: CONNECTIONS, seconds: SECONDS });
  console.log(`bare Fastify hello-world on this machine: ${res.rps} requests/s, p99 ${res.p99} ms`);
  await app.close();
}

const photo = await tenMegabytePhoto();
await helloWorld();
await benchOn('pglite', '', photo);
const postgres = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (postgres) {
  const db = await newDatabaseUrl(postgres);
  try {
    await benchOn('postgres', db.url, photo);
  } finally {
    await db.drop();
  }
} else {
  console.log('PostgreSQL figures skipped: set TEST_DATABASE_URL (or DATABASE_URL) to a server the bench may create a database on');
}
process.exit(0);
