import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { DriftReason } from '@roomstager/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import type { StageInput, StageOutput, StagingEngine } from '../../src/staging/engine.ts';
import { decodeImage } from '../../src/staging/local/image.ts';
import { LocalStagingEngine, stageToJpeg } from '../../src/staging/local/index.ts';
import { driftMessage, LockedEngine } from '../../src/staging/lock/engine.ts';
import { buildStagingPrompt, EMPHASIS_FRAGMENTS } from '../../src/staging/prompt.ts';
import { createSignedInUser, createTestApp, ledgerViolations, type TestApp } from '../helpers.ts';
import { api, ledgerOf, workerFor, type Client } from './pipeline-helpers.ts';

const fixture = (name: string) => readFile(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)));

/** A generative provider that answers from a script, recording what it was asked to insist on. */
class ScriptedProvider implements StagingEngine {
  readonly name = 'scripted';
  readonly model = 'scripted-model-1';
  readonly emphasis: Array<readonly DriftReason[]> = [];
  constructor(private readonly answers: Buffer[]) {}
  async stage(input: StageInput): Promise<StageOutput> {
    this.emphasis.push(input.emphasis ?? []);
    const image = this.answers[Math.min(this.emphasis.length - 1, this.answers.length - 1)] as Buffer;
    return { image, contentType: 'image/jpeg', costMicros: 40_000 };
  }
}

/** Issue 13: every generative answer goes through the lock; a drift is retried once, then refunded. */
describe('the structure lock in the pipeline', () => {
  let t: TestApp;
  let room: Buffer;
  let faithful: Buffer;
  let drifted: Buffer;
  let user: Client;
  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
    room = await fixture('generative/empty-room-pruna-before.jpg');
    // Furniture only, pixel-aligned: the local engine's staging stands in for a faithful model.
    faithful = await stageToJpeg(room, 'modern', 'living_room', new AbortController().signal);
    // A real model's answer that redecorated the walls, the window and the floor.
    drifted = await fixture('generative/decorated-by-pruna-after.jpg');
    user = await createSignedInUser(t, { name: 'locked', credits: 10 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const stageWith = async (engine: StagingEngine) => {
    const a = api(t, user);
    const job = await a.stage(await a.upload(room));
    expect(await workerFor(t, engine, { engineTimeoutMs: 60_000 }).runOnce()).toBe(true);
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    return { done: await a.job(job.id), row, a };
  };

  it('a drift, then a faithful answer: one retry with the prompt firmer, one credit, a locked result', { timeout: 120_000 }, async () => {
    const provider = new ScriptedProvider([drifted, faithful]);
    const before = await api(t, user).credits();
    const { done, row, a } = await stageWith(new LockedEngine(provider));
    expect(done.status).toBe('completed');
    expect(provider.emphasis).toHaveLength(2);
    expect(provider.emphasis[0]).toEqual([]);
    expect(provider.emphasis[1]?.length).toBeGreaterThan(0);
    expect(done.structure).toMatchObject({ verdict: 'faithful', reasons: [] });
    expect(row).toMatchObject({ engine: 'scripted', engineModel: 'scripted-model-1', engineCostMicros: 80_000 });
    expect(await a.credits()).toBe(before - 1);
    // The room is the original's pixels: the ceiling band of the result matches the upload.
    const staged = await decodeImage((await a.call('GET', done.stagedImageUrl as string)).rawPayload);
    const original = await decodeImage((await a.call('GET', done.originalImageUrl)).rawPayload);
    let diff = 0;
    const band = 3 * staged.width * Math.round(staged.height * 0.08);
    for (let i = 0; i < band; i++) diff += Math.abs(staged.data[i]! - original.data[i]!);
    expect(diff / band).toBeLessThan(3);
  });

  it('two drifts: the job fails with a message saying the model changed the room, and is refunded', { timeout: 120_000 }, async () => {
    const provider = new ScriptedProvider([drifted]);
    const before = await api(t, user).credits();
    const { done, row } = await stageWith(new LockedEngine(provider));
    expect(provider.emphasis).toHaveLength(2);
    expect(done.status).toBe('failed');
    expect(done.structure?.verdict).toBe('drift');
    expect(done.errorMessage).toBe(driftMessage(done.structure?.reasons ?? []));
    expect(done.errorMessage).toMatch(/changed the room/);
    expect(await api(t, user).credits()).toBe(before);
    expect((await ledgerOf(t, user.id)).filter((r) => r.jobId === row?.id).map((r) => r.type)).toEqual(['usage', 'refund']);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('two drifts with STRUCTURE_FALLBACK=local: the local engine stages it and the job says so', { timeout: 120_000 }, async () => {
    const { done, row } = await stageWith(new LockedEngine(new ScriptedProvider([drifted]), new LocalStagingEngine()));
    expect(done.status).toBe('completed');
    expect(done.structure).toBeNull();
    expect(row).toMatchObject({ engine: 'local', engineModel: null });
  });

  it('asks a provider again with the reasons it failed on, word for word', () => {
    const prompt = buildStagingPrompt('modern', 'living_room', ['opening_changed', 'walls_recoloured']);
    expect(prompt.split('\n').slice(-2)).toEqual([EMPHASIS_FRAGMENTS.opening_changed, EMPHASIS_FRAGMENTS.walls_recoloured]);
    expect(buildStagingPrompt('modern', 'living_room')).toBe(buildStagingPrompt('modern', 'living_room', []));
  });
});
