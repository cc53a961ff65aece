import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import type { ClaimedJob } from '../../src/domain/jobs/job-queue.ts';
import { createSignedInUser, createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { DrawingEngine } from './fakes.ts';
import { api, workerFor, type Client } from './pipeline-helpers.ts';

const BACKLOG_USERS = 5;
const BACKLOG = 20;

/** Issue 11.4: within a priority tier the workers are shared between users, not first in, first out. */
describe.each(databaseKinds)('fair job queue on %s', (kind) => {
  let t: TestApp;
  let backlogUsers: Client[];
  const owners = new Map<string, string>();

  const queueJobs = async (who: Client, count: number) => {
    const a = api(t, who);
    const photo = await a.upload();
    for (let i = 0; i < count; i++) {
      const job = await t.container.jobs.create(who.id, { originalImageUrl: photo, style: 'modern', userLabel: null });
      owners.set(job.id, who.id);
    }
  };
  const claimedOwners = (claimed: ClaimedJob[]) => claimed.map((j) => owners.get(j.id));

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000' } });
    backlogUsers = [];
    for (let u = 0; u < BACKLOG_USERS; u++) {
      const who = await createSignedInUser(t, { name: `backlog-${u}`, credits: BACKLOG });
      backlogUsers.push(who);
      await queueJobs(who, BACKLOG);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes the backlogs in turns, and a new user with one job is among the next claimed, not the 101st', async () => {
    // Ten jobs run to the end: two rounds over the five backlogs, one job per user per round.
    const worker = workerFor(t, new DrawingEngine());
    const done: string[] = [];
    for (let i = 0; i < 2 * BACKLOG_USERS; i++) {
      expect(await worker.runOnce()).toBe(true);
      const [latest] = await t.container.database.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(eq(jobs.status, 'completed'))
        .orderBy(jobs.processingCompletedAt)
        .offset(i)
        .limit(1);
      done.push(owners.get(latest?.id ?? '') ?? '?');
    }
    for (const who of backlogUsers) expect(done.filter((o) => o === who.id)).toHaveLength(2);

    const newcomer = await createSignedInUser(t, { name: 'newcomer', credits: 1 });
    await queueJobs(newcomer, 1);
    // Workers holding leases (jobs running) count against their users' turns.
    const claimed: ClaimedJob[] = [];
    for (let i = 0; i < BACKLOG_USERS + 1; i++) {
      const job = await t.container.queue.claim();
      if (job) claimed.push(job);
    }
    const order = claimedOwners(claimed);
    // Never served, nothing running: the newcomer goes first, before the backlogs' third jobs.
    expect(order[0]).toBe(newcomer.id);
    // One job per user in this round.
    expect(new Set(order).size).toBe(order.length);
  });

  it('keeps the paid tier first: a priority job is claimed before every free backlog', async () => {
    const payer = await createSignedInUser(t, { name: 'payer', credits: 3 });
    await queueJobs(payer, 2);
    const payersJobs = [...owners].filter(([, owner]) => owner === payer.id).map(([id]) => id);
    for (const id of payersJobs) await t.container.database.db.update(jobs).set({ priority: 1 }).where(eq(jobs.id, id));
    const first = await t.container.queue.claim();
    const second = await t.container.queue.claim();
    expect([first?.id, second?.id].sort()).toEqual([...payersJobs].sort());
  });
});
