import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import type { ClaimedJob } from '../../src/domain/jobs/job-queue.ts';
import { normaliseEngineOutput } from '../../src/domain/images/image-files.ts';
import { createSignedInUser, createTestApp, ledgerViolations, postgresUrl, type TestApp } from '../helpers.ts';
import { DrawingEngine, makeJpeg } from './fakes.ts';
import { api, ledgerOf, workerFor } from './pipeline-helpers.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const childScript = fileURLToPath(new URL('./worker-child.ts', import.meta.url));
const mainScript = fileURLToPath(new URL('../../src/worker/main.ts', import.meta.url));

function spawnWorker(script: string, env: Record<string, string>): { child: ChildProcess; output: () => string; waitFor: (text: string, ms?: number) => Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    waitFor: (text, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no "${text}" within ${ms} ms; output:\n${out}`)), ms);
        const check = () => {
          if (out.includes(text)) {
            clearTimeout(deadline);
            clearInterval(timer);
            resolve();
          }
        };
        const timer = setInterval(check, 25);
        check();
      }),
  };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null || child.signalCode ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

describe('npm run worker', () => {
  it('refuses to start on PGlite with a clear message', async () => {
    const w = spawnWorker(mainScript, { DATABASE_URL: '' });
    expect(await exited(w.child)).toBe(1);
    expect(w.output()).toContain('npm run worker needs PostgreSQL (set DATABASE_URL)');
  });
});

describe.skipIf(!postgresUrl)('a worker killed in the middle of a job (PostgreSQL, real processes)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind: 'postgres', env: { UPLOAD_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is finished by another worker after its lease expires, with one debit; the dead lease changes nothing', async () => {
    const user = await createSignedInUser(t, { name: 'crash', credits: 2 });
    const a = api(t, user);
    const job = await a.stage(await a.upload(await makeJpeg(640, 480)));
    const env = { DATABASE_URL: t.databaseUrl as string, DATA_DIR: t.container.config.DATA_DIR, WORKER_LEASE_MS: '3000', WORKER_POLL_MS: '50' };

    const doomed = spawnWorker(childScript, { ...env, TEST_CHILD_ENGINE: 'slow' });
    await doomed.waitFor('ENGINE_STARTED');
    const [held] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(held).toMatchObject({ status: 'processing', attempts: 1 });
    const deadLease = held as ClaimedJob;
    // Its heartbeat keeps the lease while it lives.
    await new Promise((r) => setTimeout(r, 1_600));
    const [renewed] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(renewed?.leaseExpiresAt?.getTime()).toBeGreaterThan(deadLease.leaseExpiresAt?.getTime() ?? 0);

    doomed.child.kill('SIGKILL');
    await exited(doomed.child);
    expect(await t.container.queue.claim()).toBeNull(); // the lease has not expired yet

    // A second worker process takes it up once the lease has expired.
    const rescuer = spawnWorker(childScript, { ...env, TEST_CHILD_ENGINE: 'drawing' });
    await expect.poll(async () => (await a.job(job.id)).status, { timeout: 20_000, interval: 100 }).toBe('completed');
    rescuer.child.kill('SIGTERM');
    expect(await exited(rescuer.child)).toBe(0);

    const done = await a.job(job.id);
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row?.attempts).toBe(2);

    // The dead worker's lease token can neither complete, fail (refund) nor release the job.
    const image = await normaliseEngineOutput((await new DrawingEngine().stage({ image: await makeJpeg(), contentType: 'image/jpeg', style: 'modern', roomType: 'bedroom', signal: AbortSignal.timeout(5_000) })).image);
    const { id, storageKey } = await t.container.images.storeFiles(image);
    expect(await t.container.queue.complete(deadLease, { variations: [{ id, storageKey, image }], engine: 'slow', engineMs: 1 })).toBe(false);
    expect(await t.container.queue.fail(deadLease, 'late')).toBe(false);
    expect(await t.container.queue.release(deadLease)).toBe(false);
    expect(await t.container.queue.renew(deadLease)).toBe(false);
    expect(await a.job(job.id)).toEqual(done);

    const rows = (await ledgerOf(t, user.id)).filter((r) => r.jobId === job.id);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([['usage', -1]]);
    expect(await a.credits()).toBe(1);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
    expect(await workerFor(t, new DrawingEngine()).runOnce()).toBe(false);
  });
});
