import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions, sessions, signInAttempts, users } from '../../src/db/schema.ts';
import { hashToken } from '../../src/domain/auth/auth.service.ts';
import { createTestApp, databaseKinds, sameOrigin, type TestApp } from '../helpers.ts';
import { CookieJar, get, localPath, me, signInWithDevIssuer, startSignIn, storeReturnUrl, submitDevSignIn } from './sign-in-helpers.ts';

describe.each(databaseKinds)('sign-in through the development issuer on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs a new user in, lands on /generate, with 3 free credits recorded as one grant', async () => {
    const jar = new CookieJar();
    const { landing } = await signInWithDevIssuer(t.app, jar, { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(landing).toBe('/generate');

    const res = await me(t.app, jar);
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({ username: 'Ada Lovelace', email: 'ada@example.com', credits: 3 });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(res.headers['cache-control']).toBe('no-store');

    const tx = await get(t.app, jar, '/api/credits/transactions');
    expect(tx.statusCode).toBe(200);
    const rows = tx.json();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'grant', amount: 3, description: 'Free trial credits' });
    expect(Object.keys(rows[0]).sort()).toEqual(['amount', 'createdAt', 'description', 'id', 'type']);
  });

  it('signs the same e-mail in again as the same user, without a second grant', async () => {
    const first = new CookieJar();
    await signInWithDevIssuer(t.app, first, { name: 'Grace', email: 'grace@example.com' });
    const a = (await me(t.app, first)).json().user;
    const second = new CookieJar();
    await signInWithDevIssuer(t.app, second, { name: 'Someone else', email: 'GRACE@example.com' });
    const b = (await me(t.app, second)).json().user;
    expect(b.id).toBe(a.id);
    expect(b.credits).toBe(3);
    expect(b.username).toBe('Grace');
    const rows = (await get(t.app, second, '/api/credits/transactions')).json();
    expect(rows).toHaveLength(1);
    // Both browsers keep their own session.
    expect((await me(t.app, first)).statusCode).toBe(200);
  });

  it('keeps users.credits equal to the sum of the ledger for every user', async () => {
    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Invariant', email: 'invariant@example.com' });
    const db = t.container.database.db;
    const rows = await db
      .select({
        id: users.id,
        credits: users.credits,
        ledger: sql<string>`coalesce(sum(${creditTransactions.amount}), 0)`,
        grants: sql<string>`count(${creditTransactions.id}) filter (where ${creditTransactions.type} = 'grant')`,
      })
      .from(users)
      .leftJoin(creditTransactions, eq(creditTransactions.userId, users.id))
      .groupBy(users.id, users.credits);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(Number(row.ledger)).toBe(row.credits);
      expect(Number(row.grants)).toBe(1);
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure on http', async () => {
    const jar = new CookieJar();
    const { callback } = await signInWithDevIssuer(t.app, jar, { name: 'Cookie', email: 'cookie@example.com' });
    const session = callback.cookies.find((c) => c.name === 'rs_session');
    expect(session).toBeDefined();
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session?.secure).toBeFalsy();
    expect(session?.domain).toBeUndefined();
    expect(session?.maxAge).toBeGreaterThan(29 * 24 * 3600);
    expect(session?.maxAge).toBeLessThanOrEqual(30 * 24 * 3600);
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const stored = await t.container.database.db.select().from(sessions).where(eq(sessions.id, hashToken(session!.value)));
    expect(stored).toHaveLength(1);
    const raw = await t.container.database.db.select().from(sessions).where(eq(sessions.id, session!.value));
    expect(raw).toHaveLength(0);
    // The sign-in cookie is cleared once used.
    const signIn = callback.cookies.find((c) => c.name === 'rs_signin');
    expect(signIn?.value).toBe('');
  });

  it('sets the short-lived sign-in cookie HttpOnly, SameSite=Lax on /api/auth', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(res.statusCode).toBe(302);
    const signIn = res.cookies.find((c) => c.name === 'rs_signin');
    expect(signIn).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth', maxAge: 600 });
    const location = new URL(String(res.headers.location));
    expect(location.pathname).toBe('/dev/oidc/authorize');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/google/callback');
  });

  it('replaces a pre-existing session on sign-in (no fixation) and ends the old one', async () => {
    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Fix', email: 'fix@example.com' });
    const before = jar.get('rs_session')!;
    // A planted cookie the attacker knows, alongside the victim's real one being replaced.
    await signInWithDevIssuer(t.app, jar, { name: 'Fix', email: 'fix@example.com' });
    const after = jar.get('rs_session')!;
    expect(after).not.toBe(before);
    const stale = new CookieJar().set('rs_session', before);
    expect((await me(t.app, stale)).statusCode).toBe(401);
    expect((await me(t.app, jar)).statusCode).toBe(200);

    const planted = new CookieJar().set('rs_session', 'A'.repeat(43));
    await signInWithDevIssuer(t.app, planted, { name: 'Victim', email: 'victim@example.com' });
    expect(planted.get('rs_session')).not.toBe('A'.repeat(43));
    expect((await me(t.app, planted)).statusCode).toBe(200);
  });

  it('logout ends the session server-side and clears the cookie', async () => {
    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Bye', email: 'bye@example.com' });
    const token = jar.get('rs_session')!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...sameOrigin, cookie: `rs_session=${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const cleared = res.cookies.find((c) => c.name === 'rs_session');
    expect(cleared?.value).toBe('');
    // Replaying the old token does not work any more.
    expect((await me(t.app, new CookieJar().set('rs_session', token))).statusCode).toBe(401);
    const rows = await t.container.database.db.select().from(sessions).where(eq(sessions.id, hashToken(token)));
    expect(rows).toHaveLength(0);
  });

  it('signs out everywhere: every session of the user ends, other users keep theirs', async () => {
    const laptop = new CookieJar();
    const phone = new CookieJar();
    const other = new CookieJar();
    await signInWithDevIssuer(t.app, laptop, { name: 'Many', email: 'many@example.com' });
    await signInWithDevIssuer(t.app, phone, { name: 'Many', email: 'many@example.com' });
    await signInWithDevIssuer(t.app, other, { name: 'Other', email: 'other-user@example.com' });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: { ...sameOrigin, cookie: `rs_session=${laptop.get('rs_session')}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(res.cookies.find((c) => c.name === 'rs_session')?.value).toBe('');
    expect((await me(t.app, laptop)).statusCode).toBe(401);
    expect((await me(t.app, phone)).statusCode).toBe(401);
    expect((await me(t.app, other)).statusCode).toBe(200);
  });

  it('refuses sign-out-everywhere without a session and from another site', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: sameOrigin })).statusCode).toBe(401);
    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Cross', email: 'cross-all@example.com' });
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout-all',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie: `rs_session=${jar.get('rs_session')}` },
    });
    expect(cross.statusCode).toBe(403);
    expect((await me(t.app, jar)).statusCode).toBe(200);
  });

  it('logout without a session still answers success', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: sameOrigin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });

  it('refuses a cross-origin logout', async () => {
    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Csrf', email: 'csrf@example.com' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://evil.example', cookie: jar.header('/api/auth/logout') },
    });
    expect(res.statusCode).toBe(403);
    expect((await me(t.app, jar)).statusCode).toBe(200);
  });

  it('answers 401 without a cookie, with a forged one and with an expired one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe('Not authenticated');

    for (const forged of ['forged', 'B'.repeat(43), '../../etc/passwd', '']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `rs_session=${forged}` } });
      expect(res.statusCode).toBe(401);
    }

    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Old', email: 'old@example.com' });
    const token = jar.get('rs_session')!;
    await t.container.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, hashToken(token)));
    const expired = await me(t.app, jar);
    expect(expired.statusCode).toBe(401);
    expect(expired.cookies.find((c) => c.name === 'rs_session')?.value).toBe('');
    for (const url of ['/api/credits/transactions', '/api/users/stats']) {
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie: `rs_session=${token}` } })).statusCode).toBe(401);
    }
  });

  it('ends a session idle for 7 days, keeps an active one alive, and ends any after 30 days', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const session = async (name: string) => {
      const jar = new CookieJar();
      await signInWithDevIssuer(t.app, jar, { name, email: `${name.toLowerCase()}@example.com` });
      const id = hashToken(jar.get('rs_session')!);
      const set = (values: Partial<typeof sessions.$inferInsert>) => t.container.database.db.update(sessions).set(values).where(eq(sessions.id, id));
      const row = async () => (await t.container.database.db.select().from(sessions).where(eq(sessions.id, id)))[0];
      return { jar, set, row };
    };

    const idle = await session('Idle');
    await idle.set({ lastSeenAt: new Date(Date.now() - 7 * DAY - 1000) });
    expect((await me(t.app, idle.jar)).statusCode).toBe(401);
    expect(await idle.row()).toBeUndefined();

    // Used 6 days ago: still valid, and this request counts as activity.
    const active = await session('Active');
    await active.set({ lastSeenAt: new Date(Date.now() - 6 * DAY) });
    expect((await me(t.app, active.jar)).statusCode).toBe(200);
    expect(Date.now() - (await active.row())!.lastSeenAt.getTime()).toBeLessThan(60_000);

    // Active a minute ago but past the absolute end.
    const old = await session('Absolute');
    await old.set({ lastSeenAt: new Date(Date.now() - 60_000), expiresAt: new Date(Date.now() - 1000) });
    expect((await me(t.app, old.jar)).statusCode).toBe(401);
  });

  it('writes lastSeenAt at most hourly, so reading a session rarely writes', async () => {
    const jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Reader', email: 'reader@example.com' });
    const id = hashToken(jar.get('rs_session')!);
    const seen = new Date(Date.now() - 30 * 60 * 1000);
    await t.container.database.db.update(sessions).set({ lastSeenAt: seen }).where(eq(sessions.id, id));
    expect((await me(t.app, jar)).statusCode).toBe(200);
    const [row] = await t.container.database.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row!.lastSeenAt.getTime()).toBe(seen.getTime());
  });

  it('refuses a callback without the sign-in cookie, and a replayed callback', async () => {
    const jar = new CookieJar();
    const authorizationUrl = await startSignIn(t.app, jar);
    const callbackPath = await submitDevSignIn(t.app, authorizationUrl, { name: 'Replay', email: 'replay@example.com' });

    // Another browser (no sign-in cookie) cannot use the code.
    const stranger = await get(t.app, new CookieJar(), callbackPath);
    expect(localPath(String(stranger.headers.location))).toBe('/login?error=OAuthCallback');

    const signInCookie = jar.get('rs_signin')!;
    const first = await get(t.app, jar, callbackPath);
    expect(localPath(String(first.headers.location))).toBe('/generate');

    // Replaying the same callback with the same (consumed) sign-in cookie.
    const replay = await get(t.app, new CookieJar().set('rs_signin', signInCookie, '/api/auth'), callbackPath);
    expect(replay.statusCode).toBe(302);
    expect(localPath(String(replay.headers.location))).toBe('/login?error=OAuthCallback');
    expect(replay.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
  });

  it('refuses a tampered state and a cancelled sign-in', async () => {
    const jar = new CookieJar();
    const authorizationUrl = await startSignIn(t.app, jar);
    const callbackPath = await submitDevSignIn(t.app, authorizationUrl, { name: 'State', email: 'state@example.com' });
    const tampered = callbackPath.replace(/state=[^&]+/, 'state=attacker');
    const res = await get(t.app, jar, tampered);
    expect(localPath(String(res.headers.location))).toBe('/login?error=OAuthCallback');

    const jar2 = new CookieJar();
    const url2 = await startSignIn(t.app, jar2);
    const state = url2.searchParams.get('state')!;
    const cancelled = await get(t.app, jar2, `/api/auth/google/callback?error=access_denied&state=${state}`);
    expect(localPath(String(cancelled.headers.location))).toBe('/login?error=OAuthCallback');
    expect(cancelled.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
  });

  it('returns to a stored same-origin path', async () => {
    const jar = new CookieJar();
    const stored = await storeReturnUrl(t.app, jar, '/gallery?page=2#top');
    expect(stored.json()).toEqual({ success: true, returnTo: '/gallery?page=2#top' });
    const { landing } = await signInWithDevIssuer(t.app, jar, { name: 'Back', email: 'back@example.com' });
    expect(landing).toBe('/gallery?page=2');
    expect(String((await storeReturnUrl(t.app, jar, '/credits')).statusCode)).toBe('200');
  });

  const probes: Array<[string, unknown]> = [
    ['protocol-relative', '//evil.example'],
    ['backslash', '/\\evil.example'],
    ['absolute', 'https://evil.example'],
    ['absolute own origin', 'http://localhost:3000/gallery'],
    ['encoded slashes', '%2F%2Fevil.example'],
    ['javascript', 'javascript:alert(1)'],
    ['tab', '/\t/evil.example'],
    ['newline', '/\n/evil.example'],
    ['dot segments', '/..//evil.example'],
    ['very long', `/${'a'.repeat(5000)}`],
    ['empty', ''],
    ['api path', '/api/auth/logout'],
    ['not a string', 42],
  ];
  it.each(probes)('lands on a same-origin path for a %s returnTo', async (_label, returnTo) => {
    const jar = new CookieJar();
    const stored = await storeReturnUrl(t.app, jar, returnTo);
    if (typeof returnTo === 'string') {
      expect(stored.statusCode).toBe(200);
      expect(stored.json().returnTo).toBe('/generate');
    } else {
      expect(stored.statusCode).toBe(400);
    }
    const { landing, callback } = await signInWithDevIssuer(t.app, jar, { name: 'Probe', email: 'probe@example.com' });
    expect(landing).toBe('/generate');
    const location = new URL(String(callback.headers.location));
    expect(location.origin).toBe('http://localhost:3000');
  });

  it('checks the stored returnTo again at the callback, so a tampered row cannot send the user off-site', async () => {
    const jar = new CookieJar();
    await storeReturnUrl(t.app, jar, '/gallery');
    const authorizationUrl = await startSignIn(t.app, jar);
    const callbackPath = await submitDevSignIn(t.app, authorizationUrl, { name: 'Tamper', email: 'tamper@example.com' });
    await t.container.database.db.update(signInAttempts).set({ returnTo: '//evil.example/steal' });
    const callback = await get(t.app, jar, callbackPath);
    expect(callback.statusCode).toBe(302);
    expect(new URL(String(callback.headers.location)).origin).toBe('http://localhost:3000');
    expect(localPath(String(callback.headers.location))).toBe('/generate');
  });

  it('keeps an encoded-slash path on this origin', async () => {
    const jar = new CookieJar();
    const stored = await storeReturnUrl(t.app, jar, '/%2F%2Fevil.example');
    expect(stored.json().returnTo).toBe('/%2F%2Fevil.example');
    const { callback } = await signInWithDevIssuer(t.app, jar, { name: 'Enc', email: 'enc@example.com' });
    const location = new URL(String(callback.headers.location));
    expect(location.origin).toBe('http://localhost:3000');
    expect(location.pathname).toBe('/%2F%2Fevil.example');
  });

  it('refuses a cross-origin store-return-url', async () => {
    const res = await storeReturnUrl(t.app, new CookieJar(), '/gallery', 'https://evil.example');
    expect(res.statusCode).toBe(403);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/store-return-url',
      headers: { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'returnTo=%2Fgallery',
    });
    expect(form.statusCode).toBe(415);
  });
});
