import { z } from 'zod';
import type { StageInput, StageOutput, StagingEngine } from '../engine.ts';
import { buildStagingPrompt } from '../prompt.ts';
import { finishOutput, httpClient, trimBase, type RemoteEngineOptions } from './common.ts';
import { sleep, type EngineRun, type HttpClient } from './http.ts';
import { prepareInput } from './image.ts';

export const REPLICATE_DEFAULT_MODEL = 'black-forest-labs/flux-kontext-pro';
/** Published price of one FLUX Kontext Pro run (late 2026), in micro-dollars. */
export const REPLICATE_COST_MICROS = 40_000;

const predictionSchema = z.object({
  id: z.string(),
  status: z.enum(['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted']),
  output: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  error: z.unknown().optional(),
  urls: z.object({ get: z.string(), cancel: z.string().optional() }).partial().optional(),
});
type Prediction = z.output<typeof predictionSchema>;

/** A failed prediction whose error reads like the model's safety filter. */
const REFUSAL_ERROR = /nsfw|sensitive|safety|flagged|E005/i;

/** `owner/name` or `owner/name:version`. */
export function parseReplicateModel(model: string): { owner: string; name: string; version: string | undefined } {
  const match = /^([\w.-]+)\/([\w.-]+)(?::([\w]+))?$/.exec(model);
  if (!match) throw new Error(`REPLICATE_MODEL must be owner/name or owner/name:version, not ${model}`);
  return { owner: match[1]!, name: match[2]!, version: match[3] };
}

export interface ReplicateOptions extends RemoteEngineOptions {
  /** First poll delay (default 1 s), growing by half each poll up to 5 s. */
  pollIntervalMs?: number;
}

/**
 * Any Replicate image-editing model: one prediction created (waiting up to 30 s with Prefer: wait),
 * polled with backoff until it ends, the output downloaded at once (Replicate deletes it after an
 * hour). Aborting cancels the prediction.
 */
export class ReplicateEngine implements StagingEngine {
  readonly name = 'replicate';
  readonly chargesPerImage = true;
  readonly model: string;
  private readonly http: HttpClient;
  private readonly base: string;

  constructor(private readonly options: ReplicateOptions) {
    this.model = options.model;
    parseReplicateModel(options.model);
    this.http = httpClient('replicate', options);
    this.base = trimBase(options.baseUrl);
  }

  private get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}` };
  }

  /** Whether a URL from an answer is on the API's own origin: only there does the token go, never to another origin. */
  private onApi(url: string): boolean {
    try {
      return new URL(url).origin === new URL(this.base).origin;
    } catch {
      return false;
    }
  }

  async stage(input: StageInput): Promise<StageOutput> {
    const prepared = await prepareInput(input.image);
    const { owner, name, version } = parseReplicateModel(this.model);
    const modelInput = {
      prompt: buildStagingPrompt(input.style, input.roomType, input.emphasis, input.look),
      input_image: `data:${prepared.contentType};base64,${prepared.bytes.toString('base64')}`,
      aspect_ratio: 'match_input_image',
      output_format: 'jpg',
    };
    const body = JSON.stringify(version ? { version, input: modelInput } : { input: modelInput });
    const wait = Math.max(1, Math.min(30, Math.floor(this.options.timeoutMs / 1000) - 1));
    const started = Date.now();
    let prediction = await this.http.json(
      {
        method: 'POST',
        url: version ? `${this.base}/v1/predictions` : `${this.base}/v1/models/${owner}/${name}/predictions`,
        headers: { ...this.auth, 'content-type': 'application/json', prefer: `wait=${wait}` },
        body: () => body,
        what: 'prediction create',
      },
      predictionSchema,
      input,
    );

    let delay = this.options.pollIntervalMs ?? 1_000;
    try {
      while (prediction.status === 'starting' || prediction.status === 'processing') {
        const getUrl = prediction.urls?.get;
        if (!getUrl) throw this.http.error('invalid_response', `prediction ${prediction.id} is ${prediction.status} without urls.get`);
        if (!this.onApi(getUrl)) throw this.http.error('invalid_response', `prediction ${prediction.id}: urls.get is not on the API's origin`);
        if (Date.now() - started + delay > this.options.timeoutMs) {
          throw this.http.error('timeout', `prediction ${prediction.id} still ${prediction.status} after ${Date.now() - started} ms`);
        }
        await sleep(delay, input.signal);
        delay = Math.min(5_000, Math.round(delay * 1.5));
        prediction = await this.http.json({ method: 'GET', url: getUrl, headers: this.auth, what: 'prediction poll' }, predictionSchema, input);
      }
    } catch (err) {
      // Stop paying for a run nobody will collect (our abort, our timeout, a broken poll).
      this.cancel(prediction, input);
      throw err;
    }
    return this.collect(prediction, prepared, input);
  }

  private async collect(prediction: Prediction, prepared: Awaited<ReturnType<typeof prepareInput>>, run: EngineRun): Promise<StageOutput> {
    if (prediction.status !== 'succeeded') {
      const error = typeof prediction.error === 'string' ? prediction.error : JSON.stringify(prediction.error ?? null);
      const detail = `prediction ${prediction.id} ${prediction.status}: ${error}`;
      if (prediction.status === 'failed' && REFUSAL_ERROR.test(error)) throw this.http.error('refused', detail);
      throw this.http.error(prediction.status === 'failed' ? 'bad_request' : 'unavailable', detail);
    }
    const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
    if (!url) throw this.http.error('invalid_response', `prediction ${prediction.id} succeeded without an output`);
    if (!URL.canParse(url)) throw this.http.error('invalid_response', `prediction ${prediction.id}: the output is not a URL`);
    // The token goes to the API only, never to the file host.
    const headers = this.onApi(url) ? this.auth : {};
    const { bytes } = await this.http.bytes({ method: 'GET', url, headers, what: 'output download' }, run);
    if (bytes.length === 0) throw this.http.error('invalid_response', `prediction ${prediction.id}: the output is empty`);
    return finishOutput(this.http, bytes, prepared, this.model, REPLICATE_COST_MICROS);
  }

  private cancel(prediction: Prediction, run: EngineRun): void {
    const url = prediction.urls?.cancel;
    if (!url || !this.onApi(url) || !(prediction.status === 'starting' || prediction.status === 'processing')) return;
    const fetchImpl = this.options.fetch ?? globalThis.fetch;
    fetchImpl(url, { method: 'POST', headers: this.auth, signal: AbortSignal.timeout(10_000) }).then(
      (res) => res.body?.cancel(),
      (err: unknown) => run.logger?.warn({ provider: 'replicate', prediction: prediction.id, detail: this.http.scrub(String(err)) }, 'remote engine: cancel failed'),
    );
  }
}
