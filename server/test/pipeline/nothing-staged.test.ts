import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoRoomError, type StageInput, type StageOutput, type StagingEngine } from '../../src/staging/engine.ts';
import { LocalStagingEngine, ThreadedLocalEngine } from '../../src/staging/local/index.ts';
import { NO_ROOM_MESSAGES } from '../../src/staging/local/room-check.ts';
import { FAILURE_MESSAGES } from '../../src/worker/retry-policy.ts';
import { createSignedInUser, createTestApp, ledgerViolations, type TestApp } from '../helpers.ts';
import { api, ledgerOf, workerFor } from './pipeline-helpers.ts';

const fixture = fileURLToPath(new URL('../fixtures/rooms/empty-open-plan-living-dining.jpg', import.meta.url));

/** Photos with no room in them, as users have sent them. */
async function notRooms(): Promise<Array<[string, Buffer, string]>> {
  const room = await readFile(fixture);
  return [
    // A strip cut from a real room photo: 8000x320.
    ['an 8000x320 strip', await sharp(room).resize(8000, 320, { fit: 'fill' }).jpeg().toBuffer(), NO_ROOM_MESSAGES.shape],
    ['an all-black photo', await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#000' } }).jpeg().toBuffer(), NO_ROOM_MESSAGES.blank],
    // A close-up of the floor boards of the same photo, filling the frame.
    [
      'a close-up of a floor texture',
      await sharp(room).extract({ left: 800, top: 1200, width: 400, height: 300 }).resize(1600, 1200).jpeg({ quality: 90 }).toBuffer(),
      NO_ROOM_MESSAGES.noRoom,
    ],
  ];
}

/** An engine that answers the photo unchanged (a provider that ignored the prompt). */
class EchoEngine implements StagingEngine {
  readonly name = 'echo';
  async stage(input: StageInput): Promise<StageOutput> {
    return { image: input.image, contentType: 'image/jpeg' };
  }
}

describe('nothing staged, nothing charged (issue 11.5)', () => {
  let t: TestApp;
  let cases: Array<[string, Buffer, string]>;
  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
    cases = await notRooms();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the local engine says it found no room, on its own thread and on a worker thread', { timeout: 60_000 }, async () => {
    const threaded = new ThreadedLocalEngine();
    try {
      for (const engine of [new LocalStagingEngine(), threaded]) {
        for (const [label, image, message] of cases) {
          const err = await engine
            .stage({ image, contentType: 'image/jpeg', style: 'modern', roomType: 'living_room', signal: new AbortController().signal })
            .then(() => null, (e: unknown) => e);
          expect(err, label).toBeInstanceOf(NoRoomError);
          expect((err as NoRoomError).userMessage, label).toBe(message);
        }
      }
    } finally {
      await threaded.close();
    }
  });

  it('each such job fails with the message and refunds its credit', { timeout: 120_000 }, async () => {
    const user = await createSignedInUser(t, { name: 'no-room', credits: 5 });
    const a = api(t, user);
    const worker = workerFor(t, new LocalStagingEngine(), { engineTimeoutMs: 60_000 });
    for (const [label, image, message] of cases) {
      const job = await a.stage(await a.upload(image));
      expect(await worker.runOnce()).toBe(true);
      const done = await a.job(job.id);
      expect(done, label).toMatchObject({ status: 'failed', errorMessage: message, stagedImageUrl: null, creditsUsed: 0 });
      expect(message).toMatch(/refunded/);
      expect((await ledgerOf(t, user.id)).filter((r) => r.jobId === job.id).map((r) => r.type)).toEqual(['usage', 'refund']);
    }
    expect(await a.credits()).toBe(5);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('a real room photo is still staged by the same engine', { timeout: 120_000 }, async () => {
    const user = await createSignedInUser(t, { name: 'real-room', credits: 1 });
    const a = api(t, user);
    const job = await a.stage(await a.upload(await readFile(fixture)));
    expect(await workerFor(t, new LocalStagingEngine(), { engineTimeoutMs: 60_000 }).runOnce()).toBe(true);
    expect((await a.job(job.id)).status).toBe('completed');
    expect(await a.credits()).toBe(0);
  });

  it('any engine that gives the photo back unchanged: the job fails and is refunded', async () => {
    const user = await createSignedInUser(t, { name: 'echo', credits: 1 });
    const a = api(t, user);
    const job = await a.stage(await a.upload(await readFile(fixture)));
    expect(await workerFor(t, new EchoEngine()).runOnce()).toBe(true);
    expect(await a.job(job.id)).toMatchObject({ status: 'failed', errorMessage: FAILURE_MESSAGES.nothingAdded, stagedImageUrl: null });
    expect(await a.credits()).toBe(1);
  });
});
