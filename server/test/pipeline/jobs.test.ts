import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { jobPageResponseSchema, jobSchema, type Job } from '@roomstager/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { images, jobs } from '../../src/db/schema.ts';
import { FAILURE_MESSAGES } from '../../src/worker/retry-policy.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';
import { DrawingEngine, FailingEngine, invalidImageError } from './fakes.ts';
import { api, balanceOf, ledgerOf, workerFor, type Client } from './pipeline-helpers.ts';

async function fileCount(dir: string): Promise<number> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}

describe.each(databaseKinds)('jobs on %s', (kind) => {
  let t: TestApp;
  let alice: Client;
  let a: ReturnType<typeof api>;
  let photo: string;
  const drawing = new DrawingEngine();

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
    alice = await createSignedInUser(t, { name: 'alice', credits: 50 });
    a = api(t, alice);
    photo = await a.upload();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const run = (engine = drawing) => workerFor(t, engine).runOnce();

  it('creates a pending job, debiting one credit with a usage row tied to it', async () => {
    const before = await a.credits();
    const res = await a.createJob({ originalImageUrl: photo, style: 'luxury', userLabel: '  Oak Street  ', roomType: 'bedroom' });
    expect(res.statusCode).toBe(201);
    const job = jobSchema.parse(res.json());
    expect(job).toMatchObject({
      originalImageUrl: photo,
      stagedImageUrl: null,
      thumbnailUrl: `${photo}/thumbnail`,
      style: 'luxury',
      roomType: 'bedroom',
      userLabel: 'Oak Street',
      status: 'pending',
      errorMessage: null,
      creditsUsed: 1,
      processingStartedAt: null,
      processingCompletedAt: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await a.credits()).toBe(before - 1);
    const usage = (await ledgerOf(t, alice.id)).filter((r) => r.jobId === job.id);
    expect(usage).toMatchObject([{ type: 'usage', amount: -1, description: 'Staging: Luxury' }]);
    expect((await a.stage(photo, 'modern')).roomType).toBe('living_room');
  });

  it('runs the job: completed with its staged image, thumbnail and times; stats count it', async () => {
    const stats0 = (await a.call('GET', '/api/users/stats')).json().totalJobs as number;
    const job = await a.stage(photo, 'traditional');
    while (await run()) {
      // drain the queue
    }
    const done = await a.job(job.id);
    expect(done.status).toBe('completed');
    expect(done.stagedImageUrl).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
    expect(done.thumbnailUrl).toBe(`${done.stagedImageUrl}/thumbnail`);
    expect(done.creditsUsed).toBe(1);
    expect(Date.parse(done.processingCompletedAt as string)).toBeGreaterThanOrEqual(Date.parse(done.processingStartedAt as string));
    const staged = await a.call('GET', done.stagedImageUrl as string);
    expect(staged.statusCode).toBe(200);
    expect(staged.headers['content-type']).toBe('image/jpeg');
    const thumb = await a.call('GET', done.thumbnailUrl);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ engine: 'drawing', leaseToken: null, leaseExpiresAt: null, attempts: 1 });
    expect(row?.engineMs).toBeGreaterThanOrEqual(0);
    const stats = (await a.call('GET', '/api/users/stats')).json().totalJobs as number;
    expect(stats).toBeGreaterThan(stats0);
    const completed = (await t.container.database.db.select().from(jobs).where(eq(jobs.userId, alice.id))).filter((j) => j.status === 'completed');
    expect(stats).toBe(completed.length);
  });

  it('refunds a failed job in the same transaction: two ledger rows, balance back, a readable message', async () => {
    const before = await a.credits();
    const job = await a.stage(photo, 'minimalist');
    expect(await a.credits()).toBe(before - 1);
    while (await run(new FailingEngine())) {
      // drain
    }
    const failed = await a.job(job.id);
    expect(failed).toMatchObject({ status: 'failed', errorMessage: FAILURE_MESSAGES.generic, creditsUsed: 0, stagedImageUrl: null });
    expect(failed.processingCompletedAt).not.toBeNull();
    expect(await a.credits()).toBe(before);
    const rows = (await ledgerOf(t, alice.id)).filter((r) => r.jobId === job.id);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['usage', -1],
      ['refund', 1],
    ]);
  });

  it('tells the user when the photo could not be read', async () => {
    const job = await a.stage(photo, 'modern');
    while (await run(new FailingEngine(invalidImageError))) {
      // drain
    }
    expect((await a.job(job.id)).errorMessage).toBe('This photo could not be read. Please upload a JPEG or PNG photo of a room.');
  });

  it('retries a failed job: debited again, refunded again when it fails again, completed when it works', async () => {
    const before = await a.credits();
    const job = await a.stage(photo, 'modern');
    await run(new FailingEngine());
    expect(await a.credits()).toBe(before);

    const notFailed = await a.stage(photo, 'modern');
    const refused = await a.call('POST', `/api/jobs/${notFailed.id}/retry`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/failed/);
    await run();

    const retried = await a.call('POST', `/api/jobs/${job.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(jobSchema.parse(retried.json())).toMatchObject({ id: job.id, status: 'pending', errorMessage: null, creditsUsed: 1, createdAt: job.createdAt });
    expect(await a.credits()).toBe(before - 2);
    await run(new FailingEngine());
    expect((await a.job(job.id)).status).toBe('failed');
    expect(await a.credits()).toBe(before - 1);

    expect((await a.call('POST', `/api/jobs/${job.id}/retry`)).statusCode).toBe(200);
    await run();
    expect((await a.job(job.id)).status).toBe('completed');
    const rows = (await ledgerOf(t, alice.id)).filter((r) => r.jobId === job.id);
    expect(rows.map((r) => `${r.type} ${r.amount} ${r.description}`)).toEqual([
      'usage -1 Staging: Modern',
      'refund 1 Refund: staging failed',
      'usage -1 Staging retry: Modern',
      'refund 1 Refund: staging failed',
      'usage -1 Staging retry: Modern',
    ]);
    expect(await a.credits()).toBe(before - 2);
  });

  it('regenerates in another style without a label naming the old style; other labels are kept', async () => {
    const named = await a.stage(photo, 'modern', { userLabel: 'Modern staging of the lounge' });
    const restyled = await a.call('POST', `/api/jobs/${named.id}/regenerate`, { style: 'traditional' });
    expect(restyled.json()).toMatchObject({ style: 'traditional', userLabel: null });
    const sameStyle = await a.call('POST', `/api/jobs/${named.id}/regenerate`, { style: 'modern' });
    expect(sameStyle.json()).toMatchObject({ style: 'modern', userLabel: 'Modern staging of the lounge' });
    const modernist = await a.stage(photo, 'modern', { userLabel: 'Modernist villa' });
    expect((await a.call('POST', `/api/jobs/${modernist.id}/regenerate`, { style: 'luxury' })).json().userLabel).toBe('Modernist villa');
    while (await run()) {
      // drain
    }
  });

  it('regenerates: a new job on the same original, any style, one credit', async () => {
    const source = await a.stage(photo, 'modern', { roomType: 'office', userLabel: 'Desk' });
    const before = await a.credits();
    const res = await a.call('POST', `/api/jobs/${source.id}/regenerate`, { style: 'luxury' });
    expect(res.statusCode).toBe(201);
    const again = jobSchema.parse(res.json());
    expect(again.id).not.toBe(source.id);
    expect(again).toMatchObject({ originalImageUrl: source.originalImageUrl, style: 'luxury', roomType: 'office', userLabel: 'Desk', status: 'pending' });
    expect(await a.credits()).toBe(before - 1);
    const same = await a.call('POST', `/api/jobs/${source.id}/regenerate`);
    expect(same.statusCode).toBe(201);
    expect(same.json().style).toBe('modern');
    expect((await a.call('POST', `/api/jobs/${source.id}/regenerate`, { style: 'baroque' })).statusCode).toBe(400);
    while (await run()) {
      // drain
    }
  });

  it('validates labels: trimmed, at most 100 characters, empty clears', async () => {
    const job = await a.stage(photo);
    const ok = await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: '  Sunny loft  ' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().userLabel).toBe('Sunny loft');
    expect((await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: 'x'.repeat(100) })).statusCode).toBe(200);
    const long = await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('at most 100 characters');
    expect((await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: ` ${'y'.repeat(100)} ` })).json().userLabel).toBe('y'.repeat(100));
    expect((await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: 42 })).statusCode).toBe(400);
    expect((await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: 'a', status: 'completed' })).statusCode).toBe(400);
    expect((await a.call('PATCH', `/api/jobs/${job.id}`, { userLabel: '   ' })).json().userLabel).toBeNull();
    while (await run()) {
      // drain
    }
  });

  it('refuses bad job requests with 400 {message} and debits nothing', async () => {
    const before = await a.credits();
    for (const body of [
      {},
      { originalImageUrl: photo },
      { originalImageUrl: photo, style: 'baroque' },
      { originalImageUrl: photo, style: 'modern', roomType: 'garage' },
      { originalImageUrl: photo, style: 'modern', userLabel: 'x'.repeat(101) },
      { originalImageUrl: photo, style: 'modern', credits: 0 },
    ]) {
      const res = await a.createJob(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    for (const originalImageUrl of ['/api/images/00000000-0000-4000-8000-000000000000', 'https://evil.example/api/images/x', '../../etc/passwd']) {
      expect((await a.createJob({ originalImageUrl, style: 'modern' })).statusCode).toBe(404);
    }
    expect(await a.credits()).toBe(before);
  });

  it('lists jobs newest first (a bare array without a page) and pages of 20 with the total', async () => {
    const list = await a.call('GET', '/api/jobs');
    expect(list.statusCode).toBe(200);
    const all = (list.json() as Job[]).map((j) => jobSchema.parse(j));
    const total = all.length;
    for (let i = total; i < 45; i++) {
      await a.stage(photo, 'modern', { userLabel: `#${i}` });
      if (i % 10 === 0) while (await run()) continue;
    }
    const full = (await a.call('GET', '/api/jobs')).json() as Job[];
    expect(full.length).toBe(Math.max(total, 45));
    const times = full.map((j) => Date.parse(j.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const p1 = jobPageResponseSchema.parse((await a.call('GET', '/api/jobs?page=1')).json());
    expect(p1).toMatchObject({ total: full.length, page: 1, pageSize: 20 });
    expect(p1.jobs.map((j) => j.id)).toEqual(full.slice(0, 20).map((j) => j.id));
    const p3 = jobPageResponseSchema.parse((await a.call('GET', '/api/jobs?page=3')).json());
    expect(p3.jobs.map((j) => j.id)).toEqual(full.slice(40, 60).map((j) => j.id));
    const past = jobPageResponseSchema.parse((await a.call('GET', '/api/jobs?page=99')).json());
    expect(past).toEqual({ jobs: [], total: full.length, page: 99, pageSize: 20 });
    for (const page of ['0', '-1', 'abc', '1.5', '', '1e3', '01']) {
      const res = await a.call('GET', `/api/jobs?page=${page}`);
      expect(res.statusCode, page).toBe(400);
      expect(res.json().message).toMatch(/page/);
    }
    while (await run()) {
      // drain
    }
  });

  it("deletes a job and its staged image; the original only when no other job uses it; ledger rows stay", async () => {
    const own = await a.upload();
    const first = await a.stage(own, 'modern');
    const second = await a.stage(own, 'luxury');
    while (await run()) {
      // drain
    }
    const done1 = await a.job(first.id);
    const done2 = await a.job(second.id);
    const dir = path.join(t.container.config.DATA_DIR, 'images');
    const filesBefore = await fileCount(dir);
    const ledgerBefore = (await ledgerOf(t, alice.id)).length;
    const balance = await a.credits();

    expect((await a.call('DELETE', `/api/jobs/${first.id}`)).statusCode).toBe(204);
    expect((await a.call('GET', `/api/jobs/${first.id}`)).statusCode).toBe(404);
    expect((await a.call('GET', done1.stagedImageUrl as string)).statusCode).toBe(404);
    expect((await a.call('GET', own)).statusCode).toBe(200);
    expect(await fileCount(dir)).toBe(filesBefore - 2); // staged JPEG + its thumbnail

    expect((await a.call('DELETE', `/api/jobs/${second.id}`)).statusCode).toBe(204);
    expect((await a.call('GET', done2.stagedImageUrl as string)).statusCode).toBe(404);
    expect((await a.call('GET', own)).statusCode).toBe(404);
    const left = await t.container.database.db.select().from(images).where(eq(images.id, own.split('/').pop() as string));
    expect(left).toEqual([]);
    expect((await ledgerOf(t, alice.id)).length).toBe(ledgerBefore);
    expect(await a.credits()).toBe(balance);
    expect((await a.call('DELETE', `/api/jobs/${second.id}`)).statusCode).toBe(404);
  });

  it('cancels a pending job on delete and refunds its credit', async () => {
    const before = await a.credits();
    const job = await a.stage(photo);
    expect((await a.call('DELETE', `/api/jobs/${job.id}`)).statusCode).toBe(204);
    expect(await a.credits()).toBe(before);
    const rows = (await ledgerOf(t, alice.id)).filter((r) => r.jobId === job.id);
    expect(rows.map((r) => [r.type, r.description])).toEqual([
      ['usage', 'Staging: Modern'],
      ['refund', 'Refund: staging cancelled'],
    ]);
    expect(await run()).toBe(false);
  });

  it('answers 402 {message} at a zero balance and creates nothing', async () => {
    const poor = await createSignedInUser(t, { name: 'poor', credits: 0 });
    const p = api(t, poor);
    const image = await p.upload();
    const res = await p.createJob({ originalImageUrl: image, style: 'modern' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: expect.stringMatching(/^Insufficient credits/), error: 'INSUFFICIENT_CREDITS' });
    expect(await t.container.database.db.select().from(jobs).where(eq(jobs.userId, poor.id))).toEqual([]);
    expect(await ledgerOf(t, poor.id)).toHaveLength(2); // the grant and the test's adjustment, nothing else
  });

  it('makes exactly one job from 20 concurrent creations on a 1-credit account', async () => {
    const one = await createSignedInUser(t, { name: 'one', credits: 1 });
    const o = api(t, one);
    const image = await o.upload();
    const results = await Promise.all(Array.from({ length: 20 }, () => o.createJob({ originalImageUrl: image, style: 'modern' })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 402)).toHaveLength(19);
    expect(await t.container.database.db.select().from(jobs).where(eq(jobs.userId, one.id))).toHaveLength(1);
    expect(await balanceOf(t, one.id)).toBe(0);
    expect((await ledgerOf(t, one.id)).filter((r) => r.type === 'usage' && r.jobId)).toHaveLength(1);
    while (await run()) {
      // drain
    }
  });

  it('refuses more than 20 stagings in progress per user with 429 {message}, debiting nothing', async () => {
    const busy = await createSignedInUser(t, { name: 'busy', credits: 30 });
    const u = api(t, busy);
    const image = await u.upload();
    const results = await Promise.all(Array.from({ length: 24 }, () => u.createJob({ originalImageUrl: image, style: 'modern' })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(20);
    const refused = results.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(4);
    expect(refused[0]?.json().message).toMatch(/20 stagings in progress/);
    expect(await balanceOf(t, busy.id)).toBe(10);
    await t.container.database.db.delete(jobs).where(eq(jobs.userId, busy.id));
  });

  it('needs a session and a same-origin request', async () => {
    const job = await a.stage(photo);
    for (const [method, url] of [
      ['GET', '/api/jobs'],
      ['GET', '/api/jobs?page=1'],
      ['GET', `/api/jobs/${job.id}`],
      ['POST', '/api/jobs'],
      ['PATCH', `/api/jobs/${job.id}`],
      ['DELETE', `/api/jobs/${job.id}`],
      ['POST', `/api/jobs/${job.id}/retry`],
      ['POST', `/api/jobs/${job.id}/regenerate`],
      ['POST', '/api/upload'],
      ['GET', job.originalImageUrl],
      ['GET', job.thumbnailUrl],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: method === 'GET' ? {} : { origin: 'http://localhost:3000' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const cross = await a.call('DELETE', `/api/jobs/${job.id}`, undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(cross.statusCode).toBe(403);
    const crossRetry = await a.call('POST', `/api/jobs/${job.id}/regenerate`, undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossRetry.statusCode).toBe(403);
    expect((await a.job(job.id)).status).toBe('pending');
    while (await run()) {
      // drain
    }
  });

  describe("another user's ids: 404, nothing revealed, nothing changed", () => {
    let bob: Client;
    let b: ReturnType<typeof api>;
    let failedJob: Job;
    let doneJob: Job;
    beforeAll(async () => {
      bob = await createSignedInUser(t, { name: 'bob', credits: 5 });
      b = api(t, bob);
      failedJob = await a.stage(photo, 'modern', { userLabel: 'Alice failed' });
      await run(new FailingEngine());
      doneJob = await a.stage(photo, 'luxury', { userLabel: 'Alice done' });
      await run();
      doneJob = await a.job(doneJob.id);
    });

    it('every job and image endpoint', async () => {
      const snapshot = async () => ({
        jobs: await t.container.database.db.select().from(jobs).where(eq(jobs.userId, alice.id)),
        aliceLedger: await ledgerOf(t, alice.id),
        bobLedger: await ledgerOf(t, bob.id),
        bobJobs: await t.container.database.db.select().from(jobs).where(eq(jobs.userId, bob.id)),
      });
      const before = await snapshot();
      const attempts: Array<[string, () => ReturnType<typeof b.call>]> = [
        ['GET job', () => b.call('GET', `/api/jobs/${doneJob.id}`)],
        ['PATCH label', () => b.call('PATCH', `/api/jobs/${doneJob.id}`, { userLabel: 'pwned' })],
        ['DELETE', () => b.call('DELETE', `/api/jobs/${doneJob.id}`)],
        ['regenerate', () => b.call('POST', `/api/jobs/${doneJob.id}/regenerate`, { style: 'modern' })],
        ['retry', () => b.call('POST', `/api/jobs/${failedJob.id}/retry`)],
        ['create on her image', () => b.createJob({ originalImageUrl: doneJob.originalImageUrl, style: 'modern' })],
        ['create on her staged image', () => b.createJob({ originalImageUrl: doneJob.stagedImageUrl, style: 'modern' })],
        ['GET original', () => b.call('GET', doneJob.originalImageUrl)],
        ['GET staged', () => b.call('GET', doneJob.stagedImageUrl as string)],
        ['GET thumbnail', () => b.call('GET', doneJob.thumbnailUrl)],
        ['GET original thumbnail', () => b.call('GET', `${doneJob.originalImageUrl}/thumbnail`)],
      ];
      for (const [label, attempt] of attempts) {
        const res = await attempt();
        expect(res.statusCode, label).toBe(404);
        expect(res.body, label).not.toContain('Alice');
        expect(res.body, label).not.toContain(doneJob.id);
      }
      const bobsList = (await b.call('GET', '/api/jobs')).json();
      expect(bobsList).toEqual([]);
      expect((await b.call('GET', '/api/jobs?page=1')).json()).toMatchObject({ jobs: [], total: 0 });
      expect(await snapshot()).toEqual(before);
      expect((await a.call('GET', doneJob.stagedImageUrl as string)).statusCode).toBe(200);
    });
  });
});
