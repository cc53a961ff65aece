import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeParts } from '../../src/container.ts';
import { signInAttempts } from '../../src/db/schema.ts';
import { createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { CookieJar, get, localPath, me, startSignIn } from './sign-in-helpers.ts';

type Payload = Record<string, unknown>;

/**
 * The real openid-client code path against an independent OpenID Connect server
 * (oauth2-mock-server). The mock does not enforce single-use codes, registered redirect URIs
 * or client secrets, so those are asserted on our side.
 */
describe.each(databaseKinds)('sign-in against an independent OIDC issuer on %s', (kind) => {
  let idp: OAuth2Server;
  let t: TestApp;
  let idTokenEdit: (payload: Payload) => void = () => undefined;
  let tokenResponseEdit: ((res: { body: unknown; statusCode: number }) => void) | undefined;
  const tokenRequests: Array<Record<string, string>> = [];

  beforeAll(async () => {
    idp = new OAuth2Server();
    await idp.issuer.keys.generate('RS256');
    await idp.start(0, '127.0.0.1');
    idp.service.on('beforeTokenSigning', (token: { payload: Payload }, req: { body?: Record<string, string> }) => {
      // The access token carries `scope`; the ID token does not (it is signed second).
      if ('scope' in token.payload) {
        if (req.body) tokenRequests.push({ ...req.body });
        return;
      }
      Object.assign(token.payload, { sub: 'google-sub-123', email: 'mock@example.com', email_verified: true, name: 'Mock User' });
      idTokenEdit(token.payload);
    });
    idp.service.on('beforeResponse', (res: { body: unknown; statusCode: number }) => tokenResponseEdit?.(res));
    t = await createTestApp({
      kind,
      env: { GOOGLE_CLIENT_ID: 'test-client', GOOGLE_CLIENT_SECRET: 'test-secret', OIDC_ISSUER_URL: String(idp.issuer.url) },
    });
  });
  afterEach(() => {
    idTokenEdit = () => undefined;
    tokenResponseEdit = undefined;
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  /** The browser's trip to the provider: its authorize endpoint answers with a redirect to our callback. */
  async function authorize(jar: CookieJar): Promise<string> {
    const authorizationUrl = await startSignIn(t.app, jar);
    expect(authorizationUrl.origin).toBe(new URL(String(idp.issuer.url)).origin);
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return localPath(res.headers.get('location') ?? undefined);
  }

  async function signIn(jar: CookieJar) {
    const callbackPath = await authorize(jar);
    const res = await get(t.app, jar, callbackPath);
    expect(res.statusCode).toBe(302);
    return { landing: localPath(String(res.headers.location)), res };
  }

  it('has no development issuer and describes the configured one', async () => {
    expect(t.container.devIssuer).toBeUndefined();
    const res = await t.app.inject({ method: 'GET', url: '/dev/oidc/.well-known/openid-configuration' });
    expect(res.statusCode).toBe(404);
    expect(describeParts(t.container)).toContainEqual(['sign-in', `OpenID Connect at ${idp.issuer.url}`]);
  });

  it('signs a user in with code + PKCE + state + nonce and a fixed redirect URI', async () => {
    const jar = new CookieJar();
    const authorizationUrl = await startSignIn(t.app, jar);
    const params = authorizationUrl.searchParams;
    expect(params.get('client_id')).toBe('test-client');
    expect(params.get('response_type')).toBe('code');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('redirect_uri')).toBe('http://localhost:3000/api/auth/google/callback');

    const before = tokenRequests.length;
    const jar2 = new CookieJar();
    const result = await signIn(jar2);
    expect(result.landing).toBe('/generate');
    const { user } = (await me(t.app, jar2)).json();
    expect(user).toMatchObject({ username: 'Mock User', email: 'mock@example.com', credits: 3 });

    // What our client sent to the token endpoint: the PKCE verifier and the fixed redirect URI.
    const sent = tokenRequests.at(-1)!;
    expect(tokenRequests.length).toBeGreaterThan(before);
    expect(sent.grant_type).toBe('authorization_code');
    expect(sent.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(sent.redirect_uri).toBe('http://localhost:3000/api/auth/google/callback');
    expect(sent.client_id).toBe('test-client');
  });

  it('refuses a bad state', async () => {
    const jar = new CookieJar();
    const callbackPath = await authorize(jar);
    const res = await get(t.app, jar, callbackPath.replace(/state=[^&]+/, 'state=forged'));
    expect(localPath(String(res.headers.location))).toBe('/login?error=OAuthCallback');
    expect(res.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
  });

  it('refuses a replayed code, which the mock itself would accept again', async () => {
    const jar = new CookieJar();
    const callbackPath = await authorize(jar);
    const signInCookie = jar.get('rs_signin')!;
    const first = await get(t.app, jar, callbackPath);
    expect(localPath(String(first.headers.location))).toBe('/generate');

    // Same browser state replayed: the attempt was consumed.
    const replay = await get(t.app, new CookieJar().set('rs_signin', signInCookie, '/api/auth'), callbackPath);
    expect(localPath(String(replay.headers.location))).toBe('/login?error=OAuthCallback');
    // A fresh attempt cannot adopt the old code either: its state differs.
    const fresh = new CookieJar();
    await startSignIn(t.app, fresh);
    const adopted = await get(t.app, fresh, callbackPath);
    expect(localPath(String(adopted.headers.location))).toBe('/login?error=OAuthCallback');
    expect(adopted.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
  });

  it('refuses a wrong PKCE verifier: the provider rejects the code exchange', async () => {
    const jar = new CookieJar();
    const callbackPath = await authorize(jar);
    // As if the verifier had been swapped: the exchange sends one that does not match the challenge.
    await t.container.database.db.update(signInAttempts).set({ codeVerifier: 'x'.repeat(64) });
    const issued = tokenRequests.length;
    const res = await get(t.app, jar, callbackPath);
    expect(localPath(String(res.headers.location))).toBe('/login?error=OAuthCallback');
    expect(res.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
    // The provider refused the exchange itself: it never got as far as issuing tokens.
    expect(tokenRequests.length).toBe(issued);
  });

  it('refuses an injected iss parameter in the authorization response (mix-up attack)', async () => {
    const jar = new CookieJar();
    const callbackPath = await authorize(jar);
    const res = await get(t.app, jar, `${callbackPath}&iss=${encodeURIComponent('https://evil.example')}`);
    expect(localPath(String(res.headers.location))).toBe('/login?error=OAuthCallback');
    expect(res.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
  });

  it('refuses a wrong nonce', async () => {
    idTokenEdit = (p) => {
      p.nonce = 'not-the-nonce-we-sent';
    };
    const { landing, res } = await signIn(new CookieJar());
    expect(landing).toBe('/login?error=OAuthCallback');
    expect(res.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
  });

  it('refuses an unverified e-mail and a missing e-mail', async () => {
    idTokenEdit = (p) => {
      p.sub = 'unverified-sub';
      p.email_verified = false;
    };
    expect((await signIn(new CookieJar())).landing).toBe('/login?error=OAuthCallback');
    idTokenEdit = (p) => {
      p.sub = 'no-email-sub';
      delete p.email;
    };
    expect((await signIn(new CookieJar())).landing).toBe('/login?error=OAuthCallback');
  });

  it('refuses a wrong audience, a wrong issuer and an expired ID token', async () => {
    const edits: Array<(p: Payload) => void> = [
      (p) => {
        p.aud = 'someone-else';
      },
      (p) => {
        p.iss = 'https://evil.example';
      },
      (p) => {
        p.exp = Math.floor(Date.now() / 1000) - 3600;
        p.iat = Math.floor(Date.now() / 1000) - 7200;
      },
    ];
    for (const edit of edits) {
      idTokenEdit = edit;
      expect((await signIn(new CookieJar())).landing).toBe('/login?error=OAuthCallback');
    }
  });

  it('turns a token endpoint error into /login?error=OAuthCallback', async () => {
    tokenResponseEdit = (res) => {
      res.statusCode = 400;
      res.body = { error: 'invalid_grant' };
    };
    expect((await signIn(new CookieJar())).landing).toBe('/login?error=OAuthCallback');
  });

  it('keys accounts on the subject, not the e-mail', async () => {
    idTokenEdit = (p) => {
      p.sub = 'other-sub-same-email';
    };
    const jar = new CookieJar();
    expect((await signIn(jar)).landing).toBe('/generate');
    const other = (await me(t.app, jar)).json().user;
    idTokenEdit = () => undefined;
    const jar2 = new CookieJar();
    await signIn(jar2);
    const original = (await me(t.app, jar2)).json().user;
    expect(other.email).toBe(original.email);
    expect(other.id).not.toBe(original.id);
  });
});

describe('an unreachable identity provider', () => {
  it('redirects to /login?error=OAuthSignin, not to an error page', async () => {
    const t = await createTestApp({
      env: { GOOGLE_CLIENT_ID: 'c', GOOGLE_CLIENT_SECRET: 's', OIDC_ISSUER_URL: 'http://127.0.0.1:9/' },
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
      expect(res.statusCode).toBe(302);
      expect(localPath(String(res.headers.location))).toBe('/login?error=OAuthSignin');
    } finally {
      await t.close();
    }
  });
});
