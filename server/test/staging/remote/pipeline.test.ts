import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { describeParts } from '../../../src/container.ts';
import { jobs } from '../../../src/db/schema.ts';
import { stageToJpeg } from '../../../src/staging/local/index.ts';
import { REMOTE_USER_MESSAGES } from '../../../src/staging/remote/http.ts';
import { createWorker, type WorkerParts } from '../../../src/worker/worker.ts';
import { createSignedInUser, createTestApp, type TestApp } from '../../helpers.ts';
import { api, workerFor } from '../../pipeline/pipeline-helpers.ts';
import { expectOneRetryWarning, json, KEY, recordingLogger, startFake, type Responder } from './fake-server.ts';

describe('remote engine configuration', () => {
  it('refuses to start a remote engine without its key, naming the variable', () => {
    expect(() => loadConfig({ STAGING_ENGINE: 'openai' })).toThrow(/OPENAI_API_KEY: STAGING_ENGINE=openai needs OPENAI_API_KEY/);
    expect(() => loadConfig({ STAGING_ENGINE: 'gemini' })).toThrow(/needs GEMINI_API_KEY/);
    expect(() => loadConfig({ STAGING_ENGINE: 'replicate', REPLICATE_API_TOKEN: '' })).toThrow(/needs REPLICATE_API_TOKEN/);
    expect(() => loadConfig({ STAGING_ENGINE: 'replicate', REPLICATE_API_TOKEN: 't', REPLICATE_MODEL: 'flux' })).toThrow(/REPLICATE_MODEL/);
    expect(() => loadConfig({ STAGING_ENGINE: 'openai', OPENAI_API_KEY: 'k', OPENAI_QUALITY: 'ultra' })).toThrow(/OPENAI_QUALITY/);
    const config = loadConfig({ STAGING_ENGINE: 'openai', OPENAI_API_KEY: 'k' });
    expect([config.OPENAI_MODEL, config.OPENAI_QUALITY, config.OPENAI_BASE_URL]).toEqual(['gpt-image-1', 'medium', 'https://api.openai.com']);
    expect(loadConfig({ STAGING_ENGINE: 'gemini', GEMINI_API_KEY: 'k' }).GEMINI_MODEL).toBe('gemini-2.5-flash-image');
    expect(loadConfig({ STAGING_ENGINE: 'replicate', REPLICATE_API_TOKEN: 'k' }).REPLICATE_MODEL).toBe('black-forest-labs/flux-kontext-pro');
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        GOOGLE_CLIENT_ID: 'i',
        GOOGLE_CLIENT_SECRET: 's',
        STAGING_ENGINE: 'gemini',
        GEMINI_API_KEY: 'k',
        GEMINI_BASE_URL: 'http://127.0.0.1:1',
      }),
    ).toThrow(/GEMINI_BASE_URL: must be an https:\/\/ URL in production/);
  });
});

describe('a remote engine in the pipeline', () => {
  let t: TestApp;
  let a: ReturnType<typeof api>;
  let photo: string;
  /** A faithful answer, as a model sends it (about 1 MP): the room with furniture added, nothing else changed. */
  let answer: string;
  let fake: Awaited<ReturnType<typeof startFake>>;
  let next: Responder;

  beforeAll(async () => {
    fake = await startFake([(req, res) => next(req, res)]);
    t = await createTestApp({ env: { UPLOAD_RATE_LIMIT: '1000', STAGING_ENGINE: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl } });
    a = api(t, await createSignedInUser(t, { name: 'remote', credits: 5 }));
    const room = await readFile(fileURLToPath(new URL('../../fixtures/generative/empty-room-pruna-before.jpg', import.meta.url)));
    photo = await a.upload(room);
    const staged = await stageToJpeg(room, 'modern', 'living_room', new AbortController().signal);
    answer = (await sharp(staged).resize({ width: 1024 }).jpeg().toBuffer()).toString('base64');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('is the configured engine and is described with its model', () => {
    expect(t.container.engine.name).toBe('openai');
    expect(Object.fromEntries(describeParts(t.container)).engine).toContain(`openai gpt-image-1 at ${new URL(fake.baseUrl).host}`);
  });

  it('records the engine, model, provider time and cost on the job', async () => {
    next = json(200, { created: 1, data: [{ b64_json: answer }] });
    const job = await a.stage(photo, 'modern');
    // The answer goes through the structure lock at full size: on a loaded two-core machine the
    // helpers' ten-second engine budget ran out ('Staging took too long'); production allows 120 s.
    await workerFor(t, t.container.engine, { engineTimeoutMs: 120_000 }).runOnce();
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    // Failed, the stored error says why.
    expect((await a.job(job.id)).status, row?.errorMessage ?? '').toBe('completed');
    expect(row).toMatchObject({ engine: 'openai', engineModel: 'gpt-image-1', engineCostMicros: 42_000 });
    // Through the structure lock: faithful, and the stored result is at the photo's full size.
    expect(row?.structure).toMatchObject({ verdict: 'faithful', reasons: [] });
    expect(row?.engineMs).toBeGreaterThanOrEqual(0);
  });

  it("logs a provider's rate limit through the worker's logger, tied to the job", async () => {
    const answers = [
      json(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '0' }),
      json(200, { created: 1, data: [{ b64_json: answer }] }),
    ];
    next = (req, res) => answers.shift()!(req, res);
    const job = await a.stage(photo, 'modern');
    const warnings = recordingLogger();
    // The worker's logger is pino's shape; only warn matters here.
    const logger = { info: () => undefined, error: () => undefined, warn: warnings.warn } as unknown as NonNullable<WorkerParts['logger']>;
    await createWorker(t.container, { logger }).runOnce();
    expect((await a.job(job.id)).status).toBe('completed');
    expectOneRetryWarning(warnings, { provider: 'openai', status: 429, delayMs: 0 });
    expect(warnings.entries[0]?.obj.jobId).toBe(job.id);
  });

  it('fails a refused photo at once with a clear message, and refunds it', async () => {
    next = json(400, { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', code: 'moderation_blocked' } });
    const before = await a.credits();
    const requests = fake.requests.length;
    const job = await a.stage(photo, 'luxury');
    await workerFor(t, t.container.engine).runOnce();
    const failed = await a.job(job.id);
    expect(failed).toMatchObject({ status: 'failed', errorMessage: REMOTE_USER_MESSAGES.refused, creditsUsed: 0 });
    expect(fake.requests.length - requests).toBe(1);
    expect(await a.credits()).toBe(before);
    const [row] = await t.container.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ engine: 'openai', engineModel: 'gpt-image-1', engineCostMicros: null });
  });
});
