import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The security headers (HSTS, nosniff, referrer policy, no framing) and no CORS permission, on a
 * production-like origin (HTTPS), across API, error and page responses.
 */
describe('security headers behind HTTPS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://stage.example.com' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['an API answer', '/api/health', 200],
    ['an API error', '/api/nothing-here', 404],
    ['a signed-out API call', '/api/users/stats', 401],
    ['an unknown page', '/no/such/page', 404],
  ])('%s carries HSTS for a year with subdomains, nosniff, a referrer policy and no framing', async (_what, url, status) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('answers a preflight from another origin without any CORS permission (no CORS plugin)', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/jobs',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
