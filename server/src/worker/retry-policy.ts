import { InvalidImageError } from '../staging/engine.ts';

/** The job's errorMessage for each way a run can fail for good (the credit is refunded in each). */
export const FAILURE_MESSAGES = {
  invalidImage: 'This photo could not be read. Please upload a JPEG or PNG photo of a room.',
  timeout: 'Staging took too long and was stopped. Your credit has been refunded; please try again.',
  generic: 'Something went wrong while staging this photo. Your credit has been refunded; please try again.',
  nothingAdded: 'The staging engine gave the photo back without adding any furniture. Your credit has been refunded; please try again or use another photo.',
} as const;

export type Outcome = 'invalidImage' | 'timeout' | 'transient' | 'permanent';

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** Longest pause between two runs of one job. */
const MAX_BACKOFF_MS = 30_000;

/**
 * What an engine error means. Engines mark retryable failures with `transient: true` (or carry an
 * HTTP status of 408, 429 or 5xx, or a network error code); an InvalidImageError is the photo's
 * fault; a timeout is final (the engine had its whole budget and the user is waiting); anything
 * else is treated as permanent, so a bug does not burn three engine runs.
 */
export function classifyEngineError(err: unknown, timedOut: boolean): Outcome {
  if (timedOut) return 'timeout';
  const e = (err ?? {}) as { name?: unknown; transient?: unknown; status?: unknown; statusCode?: unknown; code?: unknown; cause?: unknown };
  if (err instanceof InvalidImageError || e.name === 'InvalidImageError') return 'invalidImage';
  if (e.transient === true) return 'transient';
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status !== undefined && (status === 408 || status === 429 || status >= 500)) return 'transient';
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return 'transient';
  const cause = e.cause as { code?: unknown } | undefined;
  if (cause && typeof cause.code === 'string' && TRANSIENT_CODES.has(cause.code)) return 'transient';
  return 'permanent';
}

/** Whether a run that ended so, as run number `attempt`, is tried again (up to `maxAttempts` runs). */
export function shouldRetry(outcome: Outcome, attempt: number, maxAttempts: number): boolean {
  return outcome === 'transient' && attempt < maxAttempts;
}

/** The pause before run `attempt + 1`: `baseMs` doubled per run, at most 30 s, with ±25 % jitter. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
}

/**
 * The job's errorMessage: the engine's own user-safe message for a final failure when it has one
 * (a remote provider's refusal, rate limit...), else the generic message for the outcome.
 */
export function failureMessage(err: unknown, outcome: Outcome): string {
  if (outcome === 'invalidImage') return FAILURE_MESSAGES.invalidImage;
  if (outcome === 'timeout') return FAILURE_MESSAGES.timeout;
  const userMessage = (err as { userMessage?: unknown } | null)?.userMessage;
  return typeof userMessage === 'string' && userMessage ? userMessage : FAILURE_MESSAGES.generic;
}
