import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeParts } from '../../src/container.ts';
import { devSubjectFor } from '../../src/dev/oidc-issuer.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { CookieJar, startSignIn } from './sign-in-helpers.ts';

const ISSUER = 'http://localhost:3000/dev/oidc';
const REDIRECT_URI = 'http://localhost:3000/api/auth/google/callback';
const VERIFIER = 'v'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** The development issuer on its own: what it enforces, as Google would. */
describe('the development OIDC issuer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const clientSecret = () => t.container.devIssuer!.clientSecret;

  function authorizeQuery(overrides: Record<string, string> = {}) {
    return new URLSearchParams({
      client_id: 'roomstager-development',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'st',
      nonce: 'nn',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      ...overrides,
    });
  }

  /** Submits the sign-in form with these fields typed. */
  function submitForm(typed: { name: string; email: string }, overrides: Record<string, string> = {}) {
    const form = authorizeQuery(overrides);
    form.set('name', typed.name);
    form.set('email', typed.email);
    return t.app.inject({
      method: 'POST',
      url: '/dev/oidc/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  }

  /** Submits the sign-in form; answers the code. */
  async function getCode(email = 'dev@example.com', overrides: Record<string, string> = {}) {
    const res = await submitForm({ name: 'Dev', email }, overrides);
    expect(res.statusCode).toBe(303);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('st');
    expect(location.searchParams.get('iss')).toBe(ISSUER);
    return location.searchParams.get('code')!;
  }

  function redeem(fields: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: '/dev/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT_URI,
        client_id: 'roomstager-development',
        client_secret: clientSecret(),
        code_verifier: VERIFIER,
        ...fields,
      }).toString(),
    });
  }

  it('is described as the development stand-in', () => {
    expect(describeParts(t.container)).toContainEqual(['sign-in', 'development sign-in (stand-in) at /dev/oidc']);
  });

  it('publishes a discovery document and its keys', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/oidc/.well-known/openid-configuration' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      code_challenge_methods_supported: ['S256'],
    });
    const jwks = (await t.app.inject({ method: 'GET', url: '/dev/oidc/jwks' })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('shows an accessible Development sign-in page that works under the CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/dev/oidc/authorize?${authorizeQuery()}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
    const html = res.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Development sign-in</h1>');
    expect(html).toMatch(/<label for="name">Name<\/label>\s*<input id="name" name="name" type="text"/);
    expect(html).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email"/);
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain('<link rel="stylesheet" href="/dev/oidc/style.css">');
    const css = await t.app.inject({ method: 'GET', url: '/dev/oidc/style.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
  });

  it('escapes what it echoes', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/dev/oidc/authorize?${authorizeQuery({ state: '"><script>x</script>' })}` });
    expect(res.body).not.toContain('<script>x');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('refuses an unknown client or redirect URI without redirecting', async () => {
    const bads: Array<Record<string, string>> = [{ client_id: 'someone' }, { redirect_uri: 'https://evil.example/cb' }];
    for (const bad of bads) {
      const res = await t.app.inject({ method: 'GET', url: `/dev/oidc/authorize?${authorizeQuery(bad)}` });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('role="alert"');
    }
  });

  it('requires PKCE S256 (an error goes back to the registered redirect URI)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/dev/oidc/authorize?${authorizeQuery({ code_challenge_method: 'plain' })}` });
    expect(res.statusCode).toBe(303);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('st');
  });

  it('asks again for an invalid e-mail address, keeping what was typed', async () => {
    const res = await submitForm({ name: 'Typed Name', email: 'not-an-address' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain('Please enter a valid email address.');
    expect(res.body).toContain('value="Typed Name"');
  });

  it('issues a signed ID token for a verified e-mail, with the subject derived from it', async () => {
    const code = await getCode('Dev@Example.com');
    const res = await redeem({ code });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    const jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/dev/oidc/jwks' })).json());
    const { payload } = await jwtVerify(body.id_token, jwks, { issuer: ISSUER, audience: 'roomstager-development' });
    expect(payload).toMatchObject({
      sub: devSubjectFor('dev@example.com'),
      email: 'dev@example.com',
      email_verified: true,
      name: 'Dev',
      nonce: 'nn',
    });
  });

  it('accepts each code once', async () => {
    const code = await getCode();
    expect((await redeem({ code })).statusCode).toBe(200);
    const again = await redeem({ code });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
  });

  it('refuses a wrong PKCE verifier, redirect URI, client or secret (and burns the code)', async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ code_verifier: 'w'.repeat(43) }, 400, 'invalid_grant'],
      [{ redirect_uri: 'http://localhost:3000/elsewhere' }, 400, 'invalid_grant'],
      [{ client_id: 'other' }, 401, 'invalid_client'],
      [{ client_secret: 'guess' }, 401, 'invalid_client'],
    ];
    for (const [fields, status, error] of cases) {
      const code = await getCode();
      const res = await redeem({ code, ...fields });
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toBe(error);
      if (status === 400) expect((await redeem({ code })).statusCode).toBe(400);
    }
  });

  it('authenticates the client with HTTP Basic too', async () => {
    const code = await getCode();
    const res = await t.app.inject({
      method: 'POST',
      url: '/dev/oidc/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`roomstager-development:${clientSecret()}`).toString('base64')}`,
      },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER }).toString(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('starts sign-in at its own authorize endpoint', async () => {
    const url = await startSignIn(t.app, new CookieJar());
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/authorize`);
  });
});

describe('the development issuer with Google settings', () => {
  it('is not mounted', async () => {
    const t = await createTestApp({ env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' } });
    try {
      expect(t.container.devIssuer).toBeUndefined();
      const res = await t.app.inject({ method: 'GET', url: '/dev/oidc/.well-known/openid-configuration' });
      expect(res.statusCode).toBe(404);
      expect(describeParts(t.container)).toContainEqual(['sign-in', 'Google OpenID Connect']);
    } finally {
      await t.close();
    }
  });
});
