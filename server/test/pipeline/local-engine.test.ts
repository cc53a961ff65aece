import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/worker/worker.ts';
import { createSignedInUser, createTestApp, ledgerViolations, type TestApp } from '../helpers.ts';
import { api } from './pipeline-helpers.ts';

const fixture = fileURLToPath(new URL('../fixtures/rooms/empty-living-portrait.jpg', import.meta.url));

/** The whole pipeline with the configured (local) engine and the worker the server would start. */
describe('staging a real photo with the local engine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uploads, queues, stages and serves the result', { timeout: 120_000 }, async () => {
    expect(t.container.engine.name).toBe('local');
    const user = await createSignedInUser(t);
    const a = api(t, user);
    const photo = await a.upload(await readFile(fixture));
    const worker = createWorker(t.container, { pollMs: 50 });
    const unsubscribe = t.container.jobs.onQueued(() => worker.wake());
    worker.start();
    try {
      const job = await a.stage(photo, 'modern', { roomType: 'living_room' });
      await expect.poll(async () => (await a.job(job.id)).status, { timeout: 110_000, interval: 250 }).toBe('completed');
      const done = await a.job(job.id);
      const staged = await a.call('GET', done.stagedImageUrl as string);
      const original = await a.call('GET', photo);
      const [sm, om] = await Promise.all([sharp(staged.rawPayload).metadata(), sharp(original.rawPayload).metadata()]);
      expect(sm.format).toBe('jpeg');
      expect(sm.width / (sm.height ?? 1)).toBeCloseTo((om.width ?? 1) / (om.height ?? 1), 2);
      expect(staged.rawPayload.equals(original.rawPayload)).toBe(false);
      expect(await a.credits()).toBe(2);
    } finally {
      await worker.stop(1_000);
      unsubscribe();
    }
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });
});
