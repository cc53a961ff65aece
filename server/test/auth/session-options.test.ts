import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { CookieJar, get, localPath, signInWithDevIssuer } from './sign-in-helpers.ts';

describe('sessions behind HTTPS', () => {
  let t: TestApp;
  const origin = 'https://roomstager.example';
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: origin } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('uses __Host- / __Secure- cookies with the Secure flag', async () => {
    const jar = new CookieJar();
    const start = await get(t.app, jar, '/api/auth/google');
    const signIn = start.cookies.find((c) => c.name === '__Secure-rs_signin');
    expect(signIn).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/api/auth' });

    const authorizationUrl = new URL(String(start.headers.location));
    expect(authorizationUrl.origin).toBe(origin);
    const form = new URLSearchParams(authorizationUrl.search);
    form.set('name', 'Secure');
    form.set('email', 'secure@example.com');
    const submitted = await t.app.inject({
      method: 'POST',
      url: authorizationUrl.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    const callback = await get(t.app, jar, localPath(String(submitted.headers.location), origin));
    expect(localPath(String(callback.headers.location), origin)).toBe('/generate');
    const session = callback.cookies.find((c) => c.name === '__Host-rs_session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session?.domain).toBeUndefined();
    expect((await get(t.app, jar, '/api/auth/me')).statusCode).toBe(200);
    // The plain name is not honoured over HTTPS.
    const plain = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `rs_session=${session?.value}` } });
    expect(plain.statusCode).toBe(401);
  });
});

describe('sign-in rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SIGN_IN_RATE_LIMIT: '3' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('redirects to /login?error=RATE_LIMITED with a message instead of a 429 page', async () => {
    for (let i = 0; i < 3; i++) expect(localPath(String((await t.app.inject({ method: 'GET', url: '/api/auth/google' })).headers.location))).toMatch(/^\/dev\/oidc\/authorize\?/);
    const limited = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(limited.statusCode).toBe(302);
    const url = new URL(String(limited.headers.location));
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error')).toBe('RATE_LIMITED');
    expect(url.searchParams.get('message')).toBe('Too many sign-in attempts. Please wait a minute and try again.');
  });
});

describe('the default sign-in rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets a test suite sign in 40 users in a row', async () => {
    for (let i = 0; i < 40; i++) {
      const { landing } = await signInWithDevIssuer(t.app, new CookieJar(), { name: `User ${i}`, email: `user${i}@example.com` });
      expect(landing).toBe('/generate');
    }
  });
});
