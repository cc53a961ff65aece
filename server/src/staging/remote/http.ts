import type { z } from 'zod';
import type { StageInput } from '../engine.ts';

/** One engine run as the HTTP layer sees it: its signal, and where its retries are logged. */
export type EngineRun = Pick<StageInput, 'signal' | 'logger'>;

/** What went wrong with a remote provider, in the terms the user and the operator care about. */
export type RemoteErrorKind = 'refused' | 'rate_limited' | 'unavailable' | 'timeout' | 'auth' | 'bad_request' | 'invalid_response';

/** The job's errorMessage for each kind (the pipeline refunds the credit of every failed job). */
export const REMOTE_USER_MESSAGES: Readonly<Record<RemoteErrorKind, string>> = {
  refused:
    'The AI provider declined to stage this photo under its content policy. Your credit has been refunded; please try another photo.',
  rate_limited: 'The staging service is busy right now. Your credit has been refunded; please try again in a few minutes.',
  unavailable: 'The staging service is unavailable right now. Your credit has been refunded; please try again later.',
  timeout: 'Staging took too long and was stopped. Your credit has been refunded; please try again.',
  auth: 'Something went wrong while staging this photo. Your credit has been refunded; please try again.',
  bad_request: 'Something went wrong while staging this photo. Your credit has been refunded; please try again.',
  invalid_response: 'Something went wrong while staging this photo. Your credit has been refunded; please try again.',
};

/**
 * A remote engine's final failure. `message` is the operator's detail (provider, status, the
 * provider's own words; never the key); `userMessage` is what the job shows. The HTTP layer has
 * already retried what was worth retrying, so the worker must not retry again: `transient` is
 * false and the status is `httpStatus`, not `status` (see docs/decisions/0011-remote-engine-retries.md).
 */
export class RemoteEngineError extends Error {
  override readonly name = 'RemoteEngineError';
  readonly transient = false;
  readonly userMessage: string;
  constructor(
    readonly provider: string,
    readonly kind: RemoteErrorKind,
    message: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.userMessage = REMOTE_USER_MESSAGES[kind];
  }
}

export interface HttpClientOptions {
  /** The provider's name in messages and logs. */
  provider: string;
  /** The key or token: sent by the caller's headers, and scrubbed from every message. */
  secret: string;
  /** One HTTP exchange (request and body) is abandoned after this long; not retried. */
  timeoutMs: number;
  /** Retries after a 429, a 5xx or a network error (default 2, so 3 tries). */
  maxRetries?: number | undefined;
  /** First backoff delay without Retry-After; doubled per retry, with jitter (default 1 s). */
  baseDelayMs?: number | undefined;
  /** Longest wait between tries; a Retry-After longer than this ends the retries (default 20 s). */
  maxDelayMs?: number | undefined;
  fetch?: typeof fetch | undefined;
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Rebuilt for every try (a FormData or stream must not be reused). */
  body?: () => NonNullable<RequestInit['body']>;
  /** What the request does, for messages ("image edit", "prediction poll"). */
  what: string;
  /** A provider-specific reading of an error answer (e.g. a content refusal); undefined for the default. */
  classify?: (status: number, body: unknown) => RemoteErrorKind | undefined;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504, 529]);

/** The wait a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The provider's own words from an error body: `{error: {message}}`, `{error: "..."}`, `{detail}`, or text. */
function providerWords(body: unknown, text: string): string {
  const b = body as { error?: unknown; detail?: unknown; message?: unknown } | undefined;
  const err = b?.error as { message?: unknown; code?: unknown; type?: unknown; status?: unknown } | string | undefined;
  let words: string | undefined;
  if (typeof err === 'string') words = err;
  else if (err && typeof err.message === 'string') {
    const tags = [err.type, err.code, err.status].filter((t): t is string => typeof t === 'string');
    words = tags.length ? `${err.message} [${tags.join(', ')}]` : err.message;
  } else if (typeof b?.detail === 'string') words = b.detail;
  else if (typeof b?.message === 'string') words = b.message;
  words ??= text;
  return words.replace(/\s+/g, ' ').slice(0, 500);
}

/**
 * The HTTP layer shared by the remote engines: a timeout per exchange, retries of 429, 5xx and
 * network errors with exponential backoff that honours Retry-After, no retry of other 4xx,
 * zod-validated JSON, and every failure as a RemoteEngineError without the key. An abort of the
 * caller's signal (the worker's timeout, a lost lease) is rethrown as the signal's reason.
 */
export class HttpClient {
  private readonly fetch: typeof fetch;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(private readonly options: HttpClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.maxRetries = options.maxRetries ?? 2;
    this.baseDelayMs = options.baseDelayMs ?? 1_000;
    this.maxDelayMs = options.maxDelayMs ?? 20_000;
  }

  get provider(): string {
    return this.options.provider;
  }

  /** A RemoteEngineError for this provider, with the key scrubbed from the detail. */
  error(kind: RemoteErrorKind, detail: string, httpStatus?: number, cause?: unknown): RemoteEngineError {
    return new RemoteEngineError(this.options.provider, kind, this.scrub(detail), httpStatus, cause === undefined ? undefined : { cause });
  }

  scrub(text: string): string {
    const { secret } = this.options;
    return secret ? text.split(secret).join('[redacted]') : text;
  }

  /** Sends the request and parses the JSON answer with the schema. */
  async json<S extends z.ZodType>(spec: RequestSpec, schema: S, run: EngineRun): Promise<z.output<S>> {
    const { bytes } = await this.send(spec, run);
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      throw this.error('invalid_response', `${spec.what}: the answer is not JSON (${bytes.length} bytes)`, undefined, err);
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const issues = result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      throw this.error('invalid_response', `${spec.what}: unexpected answer (${issues})`);
    }
    return result.data as z.output<S>;
  }

  /** Sends the request and answers the body's bytes and content type (a download). */
  async bytes(spec: RequestSpec, run: EngineRun): Promise<{ bytes: Buffer; contentType: string | null }> {
    return this.send(spec, run);
  }

  private async send(spec: RequestSpec, run: EngineRun): Promise<{ bytes: Buffer; contentType: string | null }> {
    const { signal } = run;
    const tries = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted();
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      const combined = AbortSignal.any([signal, timeout]);
      let status: number;
      let bytes: Buffer;
      let headers: Headers;
      try {
        // A request carrying the key never follows a redirect: fetch would forward custom key
        // headers (x-goog-api-key) to wherever it points, and the key must never reach another
        // origin. Downloads without it may.
        const keyed = Object.values(spec.headers ?? {}).some((v) => v.includes(this.options.secret));
        const init: RequestInit = { method: spec.method, signal: combined, redirect: keyed ? 'manual' : 'follow' };
        if (spec.headers) init.headers = spec.headers;
        if (spec.body) init.body = spec.body();
        const response = await this.fetch(spec.url, init);
        status = response.status;
        headers = response.headers;
        bytes = Buffer.from(await response.arrayBuffer());
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (timeout.aborted) {
          throw this.error('timeout', `${spec.what}: no complete answer within ${this.options.timeoutMs} ms`, undefined, err);
        }
        const code = (err as { cause?: { code?: unknown } }).cause?.code;
        const detail = `${spec.what}: network error ${typeof code === 'string' ? code : (err as Error).message}`;
        if (attempt < tries) {
          await this.backoff(run, attempt, undefined, undefined, detail);
          continue;
        }
        throw this.error('unavailable', `${detail} (after ${attempt} tries)`, undefined, err);
      }
      if (status >= 200 && status < 300) return { bytes, contentType: headers.get('content-type') };
      if (status >= 300 && status < 400) throw this.error('bad_request', `${spec.what}: HTTP ${status}: refused to follow a redirect with the key`, status);

      const text = bytes.toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const requestId = headers.get('x-request-id') ?? headers.get('request-id');
      const detail = `${spec.what}: HTTP ${status}: ${providerWords(body, text)}${requestId ? ` (request ${requestId})` : ''}`;
      const special = spec.classify?.(status, body);
      if (special) throw this.error(special, detail, status);
      if (RETRYABLE_STATUS.has(status)) {
        const kind: RemoteErrorKind = status === 429 ? 'rate_limited' : 'unavailable';
        const retryAfter = parseRetryAfter(headers.get('retry-after'));
        if (attempt < tries && (retryAfter === undefined || retryAfter <= this.maxDelayMs)) {
          await this.backoff(run, attempt, status, retryAfter, detail);
          continue;
        }
        throw this.error(kind, `${detail} (after ${attempt} tries)`, status);
      }
      throw this.error(status === 401 || status === 403 ? 'auth' : 'bad_request', detail, status);
    }
  }

  /** One warning per retry: the failed try's number and status (none for a network error) and the wait. */
  private async backoff(run: EngineRun, attempt: number, status: number | undefined, retryAfter: number | undefined, detail: string): Promise<void> {
    const exponential = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
    const delay = Math.round(retryAfter ?? exponential);
    run.logger?.warn({ provider: this.options.provider, attempt, status, delayMs: delay, detail: this.scrub(detail) }, 'remote engine: retrying');
    await sleep(delay, run.signal);
  }
}
