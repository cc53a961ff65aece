import type { StageOutput } from '../engine.ts';
import { HttpClient } from './http.ts';
import { fitToOriginal, type PreparedInput } from './image.ts';

/** What every remote engine is built from (container.ts fills it from the configuration). */
export interface RemoteEngineOptions {
  apiKey: string;
  /** The API's origin (tests point it at a local fake). */
  baseUrl: string;
  model: string;
  /** One HTTP exchange (and, for Replicate, the whole polling) is abandoned after this long. */
  timeoutMs: number;
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  fetch?: typeof fetch;
}

export function httpClient(provider: string, options: RemoteEngineOptions): HttpClient {
  return new HttpClient({
    provider,
    secret: options.apiKey,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    baseDelayMs: options.baseDelayMs,
    maxDelayMs: options.maxDelayMs,
    fetch: options.fetch,
  });
}

export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The provider's image brought back to the photo's framing; an undecodable answer is a failure. */
export async function finishOutput(
  http: HttpClient,
  image: Buffer,
  input: PreparedInput,
  model: string,
  costMicros: number | undefined,
): Promise<StageOutput> {
  let jpeg: Buffer;
  try {
    jpeg = await fitToOriginal(image, input.width, input.height);
  } catch (err) {
    throw http.error('invalid_response', `the answer's image could not be decoded (${image.length} bytes)`, undefined, err);
  }
  const output: StageOutput = { image: jpeg, contentType: 'image/jpeg', model };
  if (costMicros !== undefined) output.costMicros = costMicros;
  return output;
}

export function decodeBase64Image(http: HttpClient, data: string): Buffer {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length === 0) throw http.error('invalid_response', 'the answer holds an empty image');
  return bytes;
}
