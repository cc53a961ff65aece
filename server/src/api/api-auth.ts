import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiCaller, ApiKeysService } from '../domain/api-keys/api-keys.service.ts';
import { RateLimitedError } from '../domain/errors.ts';
import type { RateLimitsService } from '../domain/rate-limits/rate-limits.service.ts';

/** The API's one rate-limit policy: calls per key per minute, every endpoint together. */
const WINDOW_MS = 60_000;
const POLICY = 'per-key';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key's caller, set by authenticateApiCall (public API routes only). */
    apiCaller: ApiCaller | null;
  }
}

/**
 * The caller of a public API request, from its Bearer key alone (a session cookie is never
 * looked at), counted against the key's limit in the shared rate-limit table. Every answer carries
 * the limit in the IETF draft's fields (`RateLimit-Policy: "per-key";q=120;w=60`,
 * `RateLimit: "per-key";r=<left>;t=<seconds to the window's end>`); over the limit it is a 429
 * with Retry-After.
 */
export async function authenticateApiCall(req: FastifyRequest, reply: FastifyReply, parts: { apiKeys: ApiKeysService; rateLimits: RateLimitsService; limit: number }): Promise<void> {
  const caller = await parts.apiKeys.authenticate(req.headers.authorization);
  const { count, ttlMs } = await parts.rateLimits.hit(`api-v1:${caller.key.id}`, WINDOW_MS);
  const resetSeconds = Math.max(0, Math.ceil(ttlMs / 1000));
  reply.header('RateLimit-Policy', `"${POLICY}";q=${parts.limit};w=${WINDOW_MS / 1000}`);
  reply.header('RateLimit', `"${POLICY}";r=${Math.max(0, parts.limit - count)};t=${resetSeconds}`);
  if (count > parts.limit) {
    reply.header('Retry-After', String(resetSeconds));
    throw new RateLimitedError(`Rate limit of ${parts.limit} calls a minute for this key reached. Try again in ${resetSeconds} seconds.`);
  }
  req.apiCaller = caller;
}

/** The caller authenticateApiCall set; a route that reaches this without one is a bug. */
export function apiCaller(req: FastifyRequest): ApiCaller {
  if (!req.apiCaller) throw new Error('public API route without an authenticated caller');
  return req.apiCaller;
}
