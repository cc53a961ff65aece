import { jobSchema, type Job } from '@roomstager/contracts';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { creditTransactions, users } from '../../src/db/schema.ts';
import type { StagingEngine } from '../../src/staging/engine.ts';
import { Worker, type WorkerOptions } from '../../src/worker/worker.ts';
import { sameOrigin, type TestApp } from '../helpers.ts';
import { b64, makeJpeg } from './fakes.ts';

export interface Client {
  id: string;
  cookie: string;
}

/** Calls the API as a signed-in browser would (same origin; JSON only with a payload). */
export function api(t: TestApp, who: Client) {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(method === 'GET' ? {} : sameOrigin),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: who.cookie,
        ...headers,
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  return {
    call,
    async upload(image?: Buffer): Promise<string> {
      const res = await call('POST', '/api/upload', { imageData: b64(image ?? (await makeJpeg())), filename: 'room.jpg' });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().imageUrl as string;
    },
    createJob: (body: unknown, headers?: Record<string, string>) => call('POST', '/api/jobs', body, headers),
    async stage(imageUrl: string, style = 'modern', extra: Record<string, unknown> = {}): Promise<Job> {
      const res = await call('POST', '/api/jobs', { originalImageUrl: imageUrl, style, userLabel: null, ...extra });
      expect(res.statusCode, res.body).toBe(201);
      return jobSchema.parse(res.json());
    },
    async job(id: string): Promise<Job> {
      const res = await call('GET', `/api/jobs/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return jobSchema.parse(res.json());
    },
    async credits(): Promise<number> {
      return (await call('GET', '/api/auth/me')).json().user.credits as number;
    },
  };
}

export function workerFor(t: TestApp, engine: StagingEngine, options: Partial<WorkerOptions> = {}): Worker {
  const c = t.container;
  return new Worker(
    { queue: c.queue, images: c.images, engine, testEngines: c.testEngines },
    { concurrency: 1, pollMs: 20, leaseMs: 30_000, engineTimeoutMs: 10_000, maxAttempts: 3, backoffBaseMs: 10, ...options },
  );
}

export async function ledgerOf(t: TestApp, userId: string) {
  const rows = await t.container.database.db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

export async function balanceOf(t: TestApp, userId: string): Promise<number> {
  const [row] = await t.container.database.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row?.credits ?? NaN;
}
