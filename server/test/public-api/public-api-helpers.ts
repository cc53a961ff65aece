import { randomUUID } from 'node:crypto';
import { createdApiKeySchema } from '@roomstager/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { payments } from '../../src/db/schema.ts';
import { createSignedInUser, sameOrigin, type TestApp } from '../helpers.ts';
import { b64, DrawingEngine, makeJpeg } from '../pipeline/fakes.ts';
import { workerFor } from '../pipeline/pipeline-helpers.ts';
import type { StagingEngine } from '../../src/staging/engine.ts';

export interface Developer {
  id: string;
  cookie: string;
  /** A key of the account, made through the app's route. */
  key: string;
}

/**
 * A captured Enterprise purchase, written as the capture path leaves it (the PayPal simulator's
 * round trip is tested with payments; here only "has bought the pack" matters).
 */
export async function grantEnterprise(t: TestApp, userId: string): Promise<string> {
  const [row] = await t.container.database.db
    .insert(payments)
    .values({ userId, pack: 'enterprise', credits: 250, amountCents: 39_900, currency: 'USD', status: 'completed', providerOrderId: `test-${randomUUID()}`, completedAt: new Date() })
    .returning({ id: payments.id });
  return row?.id ?? '';
}

/** The purchase refunded: the account no longer holds the pack. */
export async function refundEnterprise(t: TestApp, paymentId: string): Promise<void> {
  await t.container.database.db.update(payments).set({ status: 'refunded', refundedAt: new Date() }).where(eq(payments.id, paymentId));
}

/** The app's call with a session (the /api-keys page). */
export function appCall(t: TestApp, cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { ...(method === 'GET' ? {} : sameOrigin), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), cookie },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

export async function createKey(t: TestApp, cookie: string, name = 'Build server'): Promise<string> {
  const res = await appCall(t, cookie, 'POST', '/api/api-keys', { name });
  expect(res.statusCode, res.body).toBe(201);
  return createdApiKeySchema.parse(res.json()).secret;
}

/** An account with the Enterprise pack, `credits` credits and one key. */
export async function newDeveloper(t: TestApp, options: { name?: string; credits?: number } = {}): Promise<Developer> {
  const user = await createSignedInUser(t, { name: options.name ?? 'dev', credits: options.credits ?? 20 });
  await grantEnterprise(t, user.id);
  return { ...user, key: await createKey(t, user.cookie) };
}

/** A call of /api/v1 with a key (or none): no cookie, no Origin, as a script sends it. */
export function v1(t: TestApp, key: string | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

/** A multipart/form-data body as a browser or curl -F sends it: each part a file (with a name) or a text field. */
export async function formBody(parts: Array<{ field: string; bytes?: Buffer; filename?: string; text?: string }>): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    if (part.bytes) form.append(part.field, new Blob([part.bytes], { type: 'image/jpeg' }), part.filename ?? 'room.jpg');
    else form.append(part.field, part.text ?? '');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

/** A multipart upload to /api/v1/images with a key. */
export async function uploadForm(t: TestApp, key: string | null, parts: Parameters<typeof formBody>[0], headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await formBody(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/images',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': contentType, ...headers },
    payload,
  });
}

export async function uploadWithKey(t: TestApp, key: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await v1(t, key, 'POST', '/api/v1/images', { imageData: b64(await makeJpeg()), filename: 'room.jpg' }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** Runs every pending job with `engine` (drawing a result by default) until none is left. */
export async function drain(t: TestApp, engine: StagingEngine = new DrawingEngine()): Promise<void> {
  while (await workerFor(t, engine).runOnce()) {
    // until no job is pending
  }
}
