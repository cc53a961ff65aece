import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStagingPrompt } from '../../../src/staging/prompt.ts';
import { RemoteEngineError, REMOTE_USER_MESSAGES } from '../../../src/staging/remote/http.ts';
import { parseReplicateModel, ReplicateEngine } from '../../../src/staging/remote/replicate.ts';
import { expectOneRetryWarning, FAST, json, KEY, modelImage, photo, recordingLogger, slow, startFake, type Responder } from './fake-server.ts';

type Fake = Awaited<ReturnType<typeof startFake>>;
const fakes: Fake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const MODEL = 'black-forest-labs/flux-kontext-pro';

/** The file host Replicate serves outputs from (another origin than the API). */
async function files(): Promise<Fake> {
  const jpeg = await modelImage(1024, 768, 'jpeg');
  const f = await startFake([
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(jpeg);
    },
  ]);
  fakes.push(f);
  return f;
}

/** The API fake; responders get the API's own base URL to build urls.get and urls.cancel. */
async function startApi(make: (base: string) => Responder[], model = MODEL) {
  const responders: Responder[] = [];
  const api = await startFake([(req, res) => responders[Math.min(api.requests.length - 1, responders.length - 1)]!(req, res)]);
  fakes.push(api);
  responders.push(...make(api.baseUrl));
  const engine = new ReplicateEngine({ ...FAST, baseUrl: api.baseUrl, model, pollIntervalMs: 20 });
  return { engine, api };
}

const prediction = (base: string, status: string, extra: Record<string, unknown> = {}) => ({
  id: 'p1',
  model: MODEL,
  status,
  output: null,
  error: null,
  urls: { get: `${base}/v1/predictions/p1`, cancel: `${base}/v1/predictions/p1/cancel`, stream: `${base}/stream` },
  ...extra,
});

const stageWith = async (engine: ReplicateEngine, signal = new AbortController().signal) =>
  engine.stage({ image: await photo(800, 600), contentType: 'image/jpeg', style: 'traditional', roomType: 'dining_room', signal });

async function failure(engine: ReplicateEngine): Promise<RemoteEngineError> {
  const err: unknown = await stageWith(engine).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(RemoteEngineError);
  expect((err as Error).message).not.toContain(KEY);
  return err as RemoteEngineError;
}

describe('Replicate engine', () => {
  it('creates the documented prediction, downloads the output without the token, and returns the photo-sized JPEG', async () => {
    const host = await files();
    const { engine, api } = await startApi((base) => [json(201, prediction(base, 'succeeded', { output: `${host.baseUrl}/xezq/out.jpg` }))]);
    const out = await stageWith(engine);
    expect(api.requests).toHaveLength(1);
    const req = api.requests[0]!;
    expect([req.method, req.url]).toEqual(['POST', `/v1/models/${MODEL}/predictions`]);
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers.prefer).toMatch(/^wait=\d+$/);
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body.toString()) as { input: Record<string, string>; version?: string };
    expect(body.version).toBeUndefined();
    expect(body.input.prompt).toBe(buildStagingPrompt('traditional', 'dining_room'));
    expect(body.input.aspect_ratio).toBe('match_input_image');
    expect(body.input.output_format).toBe('jpg');
    expect(body.input.input_image).toMatch(/^data:image\/jpeg;base64,/);
    expect((await sharp(Buffer.from(body.input.input_image!.split(',')[1]!, 'base64')).metadata()).width).toBe(800);

    expect(host.requests).toHaveLength(1);
    expect(host.requests[0]!.url).toBe('/xezq/out.jpg');
    expect(host.requests[0]!.headers.authorization).toBeUndefined();
    expect([out.model, out.costMicros]).toEqual([MODEL, 40_000]);
    const meta = await sharp(out.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 800, 600]);
  });

  it('polls an unfinished prediction with the version endpoint for owner/name:version', async () => {
    const host = await files();
    const { engine, api } = await startApi(
      (base) => [
        json(201, prediction(base, 'starting')),
        json(200, prediction(base, 'processing')),
        json(200, prediction(base, 'succeeded', { output: [`${host.baseUrl}/a.jpg`, `${host.baseUrl}/b.jpg`] })),
      ],
      `${MODEL}:0123abcd`,
    );
    const out = await stageWith(engine);
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/predictions', 'GET /v1/predictions/p1', 'GET /v1/predictions/p1']);
    expect((JSON.parse(api.requests[0]!.body.toString()) as { version: string }).version).toBe('0123abcd');
    expect(api.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(host.requests.map((r) => r.url)).toEqual(['/a.jpg']);
    expect(out.model).toBe(`${MODEL}:0123abcd`);
  });

  it('never sends the token to a poll or cancel URL off the API origin', async () => {
    const elsewhere = await startFake([json(200, {})]);
    fakes.push(elsewhere);
    const { engine } = await startApi(() => [
      json(201, { ...prediction(elsewhere.baseUrl, 'starting'), urls: { get: `${elsewhere.baseUrl}/v1/predictions/p1`, cancel: `${elsewhere.baseUrl}/cancel` } }),
    ]);
    const err = await failure(engine);
    expect(err.kind).toBe('invalid_response');
    expect(err.message).toContain("not on the API's origin");
    await new Promise((r) => setTimeout(r, 50));
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('follows a redirect of the output file, which carries no token', async () => {
    const host = await files();
    const cdn = await startFake([
      (_req, res) => {
        res.writeHead(302, { location: `${host.baseUrl}/real.jpg` });
        res.end();
      },
    ]);
    fakes.push(cdn);
    const { engine } = await startApi((base) => [json(201, prediction(base, 'succeeded', { output: `${cdn.baseUrl}/out.jpg` }))]);
    const out = await stageWith(engine);
    expect((await sharp(out.image).metadata()).width).toBe(800);
    expect(host.requests.map((r) => r.url)).toEqual(['/real.jpg']);
    expect(host.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('reports a prediction failed by the safety filter as a refusal, and does not retry a 422', async () => {
    const first = await startApi((base) => [json(201, prediction(base, 'failed', { error: 'Prediction failed: input or output flagged as sensitive (E005)' }))]);
    const err = await failure(first.engine);
    expect([err.kind, err.userMessage]).toEqual(['refused', REMOTE_USER_MESSAGES.refused]);
    expect(first.api.requests).toHaveLength(1);

    const second = await startApi(() => [json(422, { title: 'Input validation failed', detail: '- input.prompt: prompt is required', status: 422 })]);
    const invalid = await failure(second.engine);
    expect(invalid.kind).toBe('bad_request');
    expect(invalid.message).toContain('prompt is required');
    expect(second.api.requests).toHaveLength(1);
  });

  it('retries a rate limit, then a server error, then succeeds', async () => {
    const host = await files();
    const { engine, api } = await startApi((base) => [
      json(429, { title: 'Request was throttled', detail: 'Request was throttled. Expected available in 1 second.', status: 429 }, { 'retry-after': '0' }),
      json(502, { detail: 'bad gateway' }),
      json(201, prediction(base, 'succeeded', { output: `${host.baseUrl}/out.jpg` })),
    ]);
    expect((await stageWith(engine)).costMicros).toBe(40_000);
    expect(api.requests).toHaveLength(3);
  });

  it('logs one warning for the retry, with provider, attempt, status and wait, and without the token', async () => {
    const host = await files();
    const { engine, api } = await startApi((base) => [
      json(429, { title: 'Request was throttled', detail: `Token ${KEY} was throttled.`, status: 429 }, { 'retry-after': '0' }),
      json(201, prediction(base, 'succeeded', { output: `${host.baseUrl}/out.jpg` })),
    ]);
    const logger = recordingLogger();
    await engine.stage({ image: await photo(800, 600), contentType: 'image/jpeg', style: 'modern', roomType: 'bedroom', signal: new AbortController().signal, logger });
    expect(api.requests).toHaveLength(2);
    expectOneRetryWarning(logger, { provider: 'replicate', status: 429, delayMs: 0 });
  });

  it('gives up on a slow answer past the timeout', async () => {
    const { engine, api } = await startApi((base) => [slow(3_000, json(201, prediction(base, 'succeeded')))]);
    expect((await failure(engine)).kind).toBe('timeout');
    expect(api.requests).toHaveLength(1);
  });

  it('stops polling at the timeout and cancels the prediction', async () => {
    const { engine, api } = await startApi((base) => [
      (req, res) => json(req.url.endsWith('/cancel') ? 200 : 201, prediction(base, req.url.endsWith('/cancel') ? 'canceled' : 'processing'))(req, res),
    ]);
    const err = await failure(engine);
    expect(err.kind).toBe('timeout');
    await expect.poll(() => api.requests.some((r) => r.method === 'POST' && r.url === '/v1/predictions/p1/cancel')).toBe(true);
  });

  it('cancels the prediction when the caller aborts', async () => {
    const { engine, api } = await startApi((base) => [
      (req, res) => json(req.url.endsWith('/cancel') ? 200 : 201, prediction(base, req.url.endsWith('/cancel') ? 'canceled' : 'processing'))(req, res),
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('lease lost')), 100);
    await expect(stageWith(engine, controller.signal)).rejects.toThrow('lease lost');
    await expect.poll(() => api.requests.some((r) => r.url === '/v1/predictions/p1/cancel')).toBe(true);
  });

  it('reads owner/name and owner/name:version', () => {
    expect(parseReplicateModel(MODEL)).toEqual({ owner: 'black-forest-labs', name: 'flux-kontext-pro', version: undefined });
    expect(parseReplicateModel('a/b:c1')).toEqual({ owner: 'a', name: 'b', version: 'c1' });
    expect(() => parseReplicateModel('nope')).toThrow(/REPLICATE_MODEL/);
  });
});
