import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** Issue 11.12: sign-in from 127.0.0.1 failed when the app is configured for localhost. */
describe('the configured loopback name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['127.0.0.1:3000', '[::1]:3000', '127.0.0.2:3000'])('sends a page opened at %s to http://localhost:3000 first, path and query kept', async (host) => {
    const res = await t.app.inject({ method: 'GET', url: '/login?returnTo=/credits', headers: { host } });
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('http://localhost:3000/login?returnTo=/credits');
    const signIn = await t.app.inject({ method: 'GET', url: '/api/auth/google', headers: { host } });
    expect(signIn.headers.location).toBe('http://localhost:3000/api/auth/google');
  });

  it('keeps a path that looks like another host on this origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '//evil.example/x', headers: { host: '127.0.0.1:3000' } });
    expect(res.headers.location).toBe('http://localhost:3000//evil.example/x');
  });

  it('leaves the configured name, other hosts and state-changing requests alone', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: 'localhost:3000' } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: 'roomstager.example' } })).statusCode).toBe(200);
    const post = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { host: '127.0.0.1:3000' } });
    expect(post.statusCode).not.toBe(308);
    // A script calling the public API at 127.0.0.1 keeps its Authorization header: no redirect to follow.
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/account?x=1', headers: { host: '127.0.0.1:3000' } });
    expect([api.statusCode, api.json().error.code]).toEqual([401, 'INVALID_API_KEY']);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host: '127.0.0.1:3000' } })).statusCode).toBe(200);
  });
});
