import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, sameOrigin, type TestApp } from './helpers.ts';

describe.each(databaseKinds)('app foundation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports the database as reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('sends the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses a cross-site state-changing request', async () => {
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(cross.statusCode).toBe(403);
    const fetchSite = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchSite.statusCode).toBe(403);
    const noOrigin = await t.app.inject({ method: 'POST', url: '/api/health' });
    expect(noOrigin.statusCode).toBe(403);
  });

  it('refuses a same-origin body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { ...sameOrigin, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Request body must be application/json');
  });

  it('lets a same-origin bodiless POST through to routing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/nothing-here', headers: sameOrigin });
    expect(res.statusCode).toBe(404);
  });
});
