import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { z } from 'zod';
import type { RateLimitsService } from '../domain/rate-limits/rate-limits.service.ts';

/**
 * What @fastify/rate-limit hands `child()`: a limit's merged options, with the route it is
 * configured on (`routeInfo` is empty for limiters made with `createRateLimit`).
 */
const limitOptionsSchema = z.object({
  routeInfo: z.object({ method: z.union([z.string(), z.array(z.string())]).optional(), url: z.string().optional() }).optional(),
  continueExceeding: z.boolean().optional(),
  exponentialBackoff: z.boolean().optional(),
});

/**
 * @fastify/rate-limit's `store` over the database counters (RATE_LIMIT_STORE=database). Like the
 * plugin's in-memory store, each route configured with `config.rateLimit` counts on its own: its
 * keys are prefixed with its method and URL. Limiters made with `createRateLimit` have no route,
 * so their key generators name them (auth.routes.ts). A database error is passed on: the request
 * fails rather than going unlimited (docs/decisions/0014-rate-limits-in-the-database.md).
 */
export function databaseRateLimitStore(counters: RateLimitsService): FastifyRateLimitStoreCtor {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.hit(this.prefix + key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(options: unknown): FastifyRateLimitStore {
      const { routeInfo, continueExceeding, exponentialBackoff } = limitOptionsSchema.parse(options);
      // The table counts fixed windows; a limit asking for a sliding one must not silently get less.
      if (continueExceeding || exponentialBackoff) throw new Error('The database rate-limit store supports neither continueExceeding nor exponentialBackoff');
      const route = routeInfo?.url ? `${[routeInfo.method ?? ''].flat().join(',')} ${routeInfo.url} ` : '';
      return new DatabaseRateLimitStore(undefined, route);
    }
  };
}
