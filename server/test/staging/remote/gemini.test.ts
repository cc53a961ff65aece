import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStagingPrompt } from '../../../src/staging/prompt.ts';
import { GeminiEngine } from '../../../src/staging/remote/gemini.ts';
import { RemoteEngineError, REMOTE_USER_MESSAGES } from '../../../src/staging/remote/http.ts';
import { expectOneRetryWarning, FAST, json, KEY, modelImage, photo, recordingLogger, slow, startFake, type Responder } from './fake-server.ts';

let fake: Awaited<ReturnType<typeof startFake>> | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MODEL = 'gemini-2.5-flash-image';

async function setup(responders: Responder[]) {
  fake = await startFake(responders);
  return { engine: new GeminiEngine({ ...FAST, baseUrl: fake.baseUrl, model: MODEL }), fake };
}

const stageWith = async (engine: GeminiEngine) =>
  engine.stage({ image: await photo(600, 800), contentType: 'image/jpeg', style: 'minimalist', roomType: 'kitchen', signal: new AbortController().signal });

const imageAnswer = async (key: 'inlineData' | 'inline_data' = 'inlineData'): Promise<Responder> => {
  const data = (await modelImage(768, 1024, 'png')).toString('base64');
  const inline = key === 'inlineData' ? { inlineData: { mimeType: 'image/png', data } } : { inline_data: { mime_type: 'image/png', data } };
  return json(200, { candidates: [{ content: { role: 'model', parts: [{ text: 'Here is the staged room.' }, inline] }, finishReason: 'STOP' }], usageMetadata: {} });
};

async function failure(engine: GeminiEngine): Promise<RemoteEngineError> {
  const err: unknown = await stageWith(engine).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(RemoteEngineError);
  expect((err as Error).message).not.toContain(KEY);
  return err as RemoteEngineError;
}

describe('Gemini engine', () => {
  it('sends the documented generateContent request and returns the photo-sized JPEG', async () => {
    const { engine, fake } = await setup([await imageAnswer()]);
    const out = await stageWith(engine);
    const req = fake.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(req.headers['x-goog-api-key']).toBe(KEY);
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body.toString()) as {
      contents: Array<{ parts: Array<{ text?: string; inline_data?: { mime_type: string; data: string } }> }>;
      generationConfig: unknown;
    };
    expect(body.generationConfig).toEqual({ responseModalities: ['IMAGE'] });
    const [text, inline] = body.contents[0]!.parts;
    expect(text).toEqual({ text: buildStagingPrompt('minimalist', 'kitchen') });
    expect(inline!.inline_data!.mime_type).toBe('image/jpeg');
    expect((await sharp(Buffer.from(inline!.inline_data!.data, 'base64')).metadata()).height).toBe(800);

    expect([out.model, out.costMicros, out.contentType]).toEqual([MODEL, 39_000, 'image/jpeg']);
    const meta = await sharp(out.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 600, 800]);
  });

  it('accepts snake_case inline_data in the answer', async () => {
    const { engine } = await setup([await imageAnswer('inline_data')]);
    expect((await stageWith(engine)).model).toBe(MODEL);
  });

  it('reports a blocked prompt or a safety stop as a refusal, without retrying', async () => {
    const { engine, fake } = await setup([json(200, { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } })]);
    const err = await failure(engine);
    expect([err.kind, err.userMessage]).toEqual(['refused', REMOTE_USER_MESSAGES.refused]);
    expect(err.message).toContain('PROHIBITED_CONTENT');
    expect(fake.requests).toHaveLength(1);
    await fake.close();

    const second = await setup([json(200, { candidates: [{ content: { parts: [{ text: 'I cannot do that.' }] }, finishReason: 'IMAGE_SAFETY' }] })]);
    expect((await failure(second.engine)).kind).toBe('refused');
    expect(second.fake.requests).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    const { engine, fake } = await setup([json(400, { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } })]);
    const err = await failure(engine);
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('INVALID_ARGUMENT');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not follow a redirect with the key to another address, nor retry it', async () => {
    const elsewhere = await startFake([json(200, {})]);
    try {
      const { engine, fake } = await setup([
        (_req, res) => {
          res.writeHead(307, { location: `${elsewhere.baseUrl}/collect` });
          res.end();
        },
      ]);
      const err = await failure(engine);
      expect(err.kind).toBe('bad_request');
      expect(err.message).toContain('redirect');
      expect(fake.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('retries a rate limit, then succeeds', async () => {
    const { engine, fake } = await setup([
      json(429, { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }),
      await imageAnswer(),
    ]);
    expect((await stageWith(engine)).costMicros).toBe(39_000);
    expect(fake.requests).toHaveLength(2);
  });

  it('logs one warning for the retry, with provider, attempt, status and wait, and without the key', async () => {
    const { engine, fake } = await setup([
      json(429, { error: { code: 429, message: `Quota exceeded for API key ${KEY}.`, status: 'RESOURCE_EXHAUSTED' } }),
      await imageAnswer(),
    ]);
    const logger = recordingLogger();
    await engine.stage({ image: await photo(600, 800), contentType: 'image/jpeg', style: 'modern', roomType: 'bedroom', signal: new AbortController().signal, logger });
    expect(fake.requests).toHaveLength(2);
    expectOneRetryWarning(logger, { provider: 'gemini', status: 429 });
    // No Retry-After: the first backoff step (FAST's 5 ms, with jitter).
    expect(logger.entries[0]?.obj.delayMs).toBeLessThanOrEqual(7);
  });

  it('retries a server error, then succeeds', async () => {
    const { engine, fake } = await setup([json(503, { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }), await imageAnswer()]);
    expect((await stageWith(engine)).model).toBe(MODEL);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up on a slow answer past the timeout', async () => {
    const { engine, fake } = await setup([slow(3_000, await imageAnswer())]);
    expect((await failure(engine)).kind).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('treats an answer without an image, or a malformed one, as a failure', async () => {
    const { engine } = await setup([json(200, { candidates: [{ content: { parts: [{ text: 'Sure!' }] }, finishReason: 'STOP' }] })]);
    expect((await failure(engine)).kind).toBe('invalid_response');
    await fake!.close();
    const second = await setup([json(200, { candidates: 'nope' })]);
    expect((await failure(second.engine)).kind).toBe('invalid_response');
  });
});
