import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStagingPrompt } from '../../../src/staging/prompt.ts';
import { RemoteEngineError, REMOTE_USER_MESSAGES } from '../../../src/staging/remote/http.ts';
import { OpenAiEngine, openAiSize } from '../../../src/staging/remote/openai.ts';
import { expectOneRetryWarning, FAST, json, KEY, modelImage, photo, recordingLogger, slow, startFake, type Responder } from './fake-server.ts';

let fake: Awaited<ReturnType<typeof startFake>> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(responders: Responder[], quality?: 'low' | 'medium' | 'high') {
  fake = await startFake(responders);
  const engine = new OpenAiEngine({ ...FAST, baseUrl: fake.baseUrl, model: 'gpt-image-1', ...(quality ? { quality } : {}) });
  return { engine, fake };
}

const stageWith = async (engine: OpenAiEngine) =>
  engine.stage({ image: await photo(800, 600), contentType: 'image/jpeg', style: 'luxury', roomType: 'bedroom', signal: new AbortController().signal });

const success = async (): Promise<Responder> =>
  json(200, { created: 1, data: [{ b64_json: (await modelImage(1536, 1024)).toString('base64') }], usage: { total_tokens: 10 } });

async function failure(engine: OpenAiEngine): Promise<RemoteEngineError> {
  const err: unknown = await stageWith(engine).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(RemoteEngineError);
  const e = err as RemoteEngineError;
  expect(e.message).not.toContain(KEY);
  expect(JSON.stringify({ ...e, message: e.message, stack: e.stack })).not.toContain(KEY);
  expect(e.transient).toBe(false);
  return e;
}

describe('OpenAI engine', () => {
  it('sends the documented multipart image edit and returns the photo-sized JPEG', async () => {
    const { engine, fake } = await setup([await success()], 'high');
    const out = await stageWith(engine);
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/images/edits');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': req.headers['content-type']! }, body: req.body }).formData();
    expect(form.get('model')).toBe('gpt-image-1');
    // Multipart text fields travel with CRLF line breaks (the HTML form encoding).
    expect(String(form.get('prompt')).replace(/\r\n/g, '\n')).toBe(buildStagingPrompt('luxury', 'bedroom'));
    expect(form.get('size')).toBe('1536x1024');
    expect(form.get('quality')).toBe('high');
    expect(form.get('n')).toBe('1');
    const image = form.get('image') as File;
    expect(image.type).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(800);

    expect(out.contentType).toBe('image/jpeg');
    expect(out.model).toBe('gpt-image-1');
    expect(out.costMicros).toBe(167_000);
    const meta = await sharp(out.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 800, 600]);
  });

  it('picks the size by orientation', () => {
    expect(openAiSize(4000, 3000)).toBe('1536x1024');
    expect(openAiSize(3000, 4000)).toBe('1024x1536');
    expect(openAiSize(1000, 1000)).toBe('1024x1024');
  });

  it('reports a content refusal without retrying', async () => {
    const { engine, fake } = await setup([
      json(400, { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', code: 'moderation_blocked' } }),
    ]);
    const err = await failure(engine);
    expect(err.kind).toBe('refused');
    expect(err.userMessage).toBe(REMOTE_USER_MESSAGES.refused);
    expect(err.message).toContain('moderation_blocked');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry other 4xx, and never repeats the key the provider echoes', async () => {
    const { engine, fake } = await setup([json(401, { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } })]);
    const err = await failure(engine);
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('[redacted]');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a rate limit, honouring Retry-After, then succeeds', async () => {
    const { engine, fake } = await setup([json(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '0.2' }), await success()]);
    const started = Date.now();
    const out = await stageWith(engine);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(out.model).toBe('gpt-image-1');
    expect(fake.requests).toHaveLength(2);
  });

  it('logs one warning for the retry, with provider, attempt, status and wait, and without the key', async () => {
    const { engine, fake } = await setup([
      json(429, { error: { message: `Rate limit reached for key ${KEY}`, type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '0.05' }),
      await success(),
    ]);
    const logger = recordingLogger();
    await engine.stage({ image: await photo(800, 600), contentType: 'image/jpeg', style: 'modern', roomType: 'bedroom', signal: new AbortController().signal, logger });
    expect(fake.requests).toHaveLength(2);
    expectOneRetryWarning(logger, { provider: 'openai', status: 429, delayMs: 50 });
    expect(logger.entries[0]?.obj.detail).toContain('[redacted]');
  });

  it('gives up on a rate limit whose Retry-After is too long', async () => {
    const { engine, fake } = await setup([json(429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '3600' })]);
    const err = await failure(engine);
    expect(err.kind).toBe('rate_limited');
    expect(err.httpStatus).toBe(429);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a server error, then succeeds', async () => {
    const { engine, fake } = await setup([json(500, { error: { message: 'The server had an error', type: 'server_error' } }), await success()]);
    expect((await stageWith(engine)).costMicros).toBe(42_000);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails after three server errors', async () => {
    const { engine, fake } = await setup([json(503, { error: { message: 'overloaded' } })]);
    expect((await failure(engine)).kind).toBe('unavailable');
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up on a slow answer past the timeout, without retrying', async () => {
    const { engine, fake } = await setup([slow(3_000, await success())]);
    const started = Date.now();
    const err = await failure(engine);
    expect(err.kind).toBe('timeout');
    expect(err.userMessage).toBe(REMOTE_USER_MESSAGES.timeout);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('treats a malformed or empty answer as a failure', async () => {
    const { engine } = await setup([json(200, { created: 1, data: [] })]);
    expect((await failure(engine)).kind).toBe('invalid_response');
    await fake!.close();
    fake = await startFake([json(200, { created: 1, data: [{ b64_json: Buffer.from('not an image').toString('base64') }] })]);
    const broken = new OpenAiEngine({ ...FAST, baseUrl: fake.baseUrl, model: 'gpt-image-1' });
    expect((await failure(broken)).kind).toBe('invalid_response');
  });

  it('rethrows the caller abort as is', async () => {
    const { engine } = await setup([slow(3_000, await success())]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('lease lost')), 100);
    await expect(
      engine.stage({ image: await photo(), contentType: 'image/jpeg', style: 'modern', roomType: 'office', signal: controller.signal }),
    ).rejects.toThrow('lease lost');
  });
});
