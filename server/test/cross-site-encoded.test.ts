import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeReturnTo } from '../src/domain/auth/return-to.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, sameOrigin, type TestApp } from './helpers.ts';
import { FailingEngine } from './pipeline/fakes.ts';
import { api, workerFor, type Client } from './pipeline/pipeline-helpers.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every route of the app with its methods, read off Fastify's route tree. */
function routesOf(app: FastifyInstance): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2];
    stack.push(path);
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) out.push({ method, path });
  }
  return out;
}

/** The path with the API prefix's 'a' percent-encoded: the router still serves it as /api/... */
const encoded = (path: string) => path.replace(/^\/api\//, '/%61pi/');

describe.each(databaseKinds)('cross-site requests through encoded paths on %s', (kind) => {
  let t: TestApp;
  let victim: Client;
  let failedJobId: string;

  beforeAll(async () => {
    t = await createTestApp({ kind });
    victim = await createSignedInUser(t, { name: 'victim', credits: 5 });
    const v = api(t, victim);
    const job = await v.stage(await v.upload());
    await workerFor(t, new FailingEngine()).runOnce();
    failedJobId = job.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const state = async () => {
    const v = api(t, victim);
    const me = await v.call('GET', '/api/auth/me');
    const jobs = await v.call('GET', '/api/jobs');
    return { me: me.statusCode === 200 ? me.json() : me.statusCode, jobs: jobs.json() };
  };

  it('refuses every state-changing route reached as /%61pi/... with a forged Origin, and nothing changes', async () => {
    const routes = routesOf(t.app).filter((r) => UNSAFE.has(r.method) && r.path.startsWith('/api/'));
    // The list is the app's own: a new route is covered without editing this test.
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const before = await state();
    for (const route of routes) {
      if (route.path === '/api/paypal/webhook') continue; // signed by PayPal, exempt by design
      const url = encoded(route.path.replace(':id', failedJobId).replace(':orderID', 'ORDER-1'));
      for (const headers of [{ origin: 'http://evil.example' }, { origin: 'http://evil.example', 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'cross-site' }]) {
        const res = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json', cookie: victim.cookie },
          payload: JSON.stringify({ username: 'Evil', email: 'evil@example.com', style: 'modern', userLabel: 'pwned', creditPackage: 'starter' }),
        });
        // The public API reads no cookie, only its Bearer key: a forged call carries none of the victim's authority.
        const refusal = route.path.startsWith('/api/v1/') ? 401 : 403;
        expect(res.statusCode, `${route.method} ${url} ${JSON.stringify(headers)}: ${res.body}`).toBe(refusal);
      }
    }
    expect(await state()).toEqual(before);
    expect(await ledgerViolations(t.container.database)).toEqual([]);
  });

  it('still serves the encoded path to a same-origin request (the refusal above is not a 404)', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/%61pi/users/profile',
      headers: { ...sameOrigin, 'content-type': 'application/json', cookie: victim.cookie },
      payload: JSON.stringify({ username: 'Victor' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a cross-site unsafe request outside /api too, and answers an encoded API 404 as the API', async () => {
    const page = await t.app.inject({ method: 'POST', url: '/generate', headers: { origin: 'http://evil.example' } });
    expect(page.statusCode).toBe(403);
    const missing = await t.app.inject({ method: 'GET', url: '/%61pi/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Not found' });
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('never takes an encoded API path as a place to return to after sign-in', () => {
    expect(sanitizeReturnTo('/%61pi/auth/logout')).toBeNull();
    expect(sanitizeReturnTo('/%61%70%69/jobs')).toBeNull();
    expect(sanitizeReturnTo('/%2561pi/jobs')).toBe('/%2561pi/jobs');
  });
});
