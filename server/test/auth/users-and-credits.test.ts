import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions, users } from '../../src/db/schema.ts';
import { InsufficientCreditsError } from '../../src/domain/credits/errors.ts';
import { createTestApp, databaseKinds, sameOrigin, type TestApp } from '../helpers.ts';
import { CookieJar, get, me, signInWithDevIssuer } from './sign-in-helpers.ts';

describe.each(databaseKinds)('profile, stats and the ledger on %s', (kind) => {
  let t: TestApp;
  let jar: CookieJar;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    jar = new CookieJar();
    await signInWithDevIssuer(t.app, jar, { name: 'Profile Person', email: 'profile@example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  const patch = (payload: unknown, headers: Record<string, string> = sameOrigin) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers: { ...headers, 'content-type': 'application/json', cookie: jar.header('/api/users/profile') },
      payload: JSON.stringify(payload),
    });

  it('answers zero stats for a new user', async () => {
    const res = await get(t.app, jar, '/api/users/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ totalJobs: 0, totalCredits: 0, totalSpent: 0 });
  });

  it('updates the profile, trimmed, and answers the updated user', async () => {
    const res = await patch({ username: '  New Name  ', email: ' new@example.com ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'New Name', email: 'new@example.com', credits: 3 });
    expect((await me(t.app, jar)).json().user).toMatchObject({ username: 'New Name', email: 'new@example.com' });

    const one = await patch({ username: 'Only Name' });
    expect(one.json().user).toMatchObject({ username: 'Only Name', email: 'new@example.com' });
    const fifty = await patch({ username: 'x'.repeat(50) });
    expect(fifty.statusCode).toBe(200);
  });

  it.each([
    ['an empty username', { username: '   ' }],
    ['a 51-character username', { username: 'x'.repeat(51) }],
    ['an invalid email', { email: 'not-an-email' }],
    ['an email with spaces inside', { email: 'a b@example.com' }],
    ['an unknown field', { username: 'Fine', credits: 1000 }],
    ['a non-string username', { username: 42 }],
    ['a control character', { username: 'a\u0000b' }],
  ])('refuses %s with 400 {message}', async (_label, payload) => {
    const before = (await me(t.app, jar)).json().user;
    const res = await patch(payload);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
    expect(res.json().message.length).toBeGreaterThan(0);
    expect((await me(t.app, jar)).json().user).toEqual(before);
  });

  it('names the problem in the message', async () => {
    expect((await patch({ email: 'nope' })).json().message).toContain('Please enter a valid email address');
    expect((await patch({ username: 'x'.repeat(51) })).json().message).toContain('Username must be at most 50 characters');
    expect((await patch({ admin: true })).json().message).toContain('admin');
  });

  it('refuses a cross-origin or non-JSON profile change', async () => {
    const cross = await patch({ username: 'Evil' }, { origin: 'https://evil.example' });
    expect(cross.statusCode).toBe(403);
    const crossSite = await patch({ username: 'Evil' }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    const text = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers: { ...sameOrigin, 'content-type': 'text/plain', cookie: jar.header('/api/users/profile') },
      payload: '{"username":"Evil"}',
    });
    expect(text.statusCode).toBe(415);
    expect((await me(t.app, jar)).json().user.username).not.toBe('Evil');
  });

  it('answers 401 to a profile change without a session', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers: { ...sameOrigin, 'content-type': 'application/json' },
      payload: '{"username":"Nobody"}',
    });
    expect(res.statusCode).toBe(401);
  });

  it('lists ledger rows newest first, and counts purchases in the stats', async () => {
    const { user } = (await me(t.app, jar)).json();
    const { credits } = t.container;
    await t.container.database.db.transaction(async (tx) => {
      await credits.record(tx, { userId: user.id, type: 'purchase', amount: 10, description: 'Starter pack' });
    });
    await t.container.database.db.transaction(async (tx) => {
      await credits.record(tx, { userId: user.id, type: 'usage', amount: -1, description: 'Staging' });
    });
    const rows = (await get(t.app, jar, '/api/credits/transactions')).json();
    expect(rows.map((r: { type: string }) => r.type)).toEqual(['usage', 'purchase', 'grant']);
    expect(rows.map((r: { amount: number }) => r.amount)).toEqual([-1, 10, 3]);
    const times = rows.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await get(t.app, jar, '/api/users/stats')).json()).toEqual({ totalJobs: 0, totalCredits: 10, totalSpent: 0 });
    expect((await me(t.app, jar)).json().user.credits).toBe(12);
  });

  it('never overdraws and writes no ledger row for a refused debit', async () => {
    const { user } = (await me(t.app, jar)).json();
    const db = t.container.database.db;
    const balance = (await me(t.app, jar)).json().user.credits as number;
    await expect(
      db.transaction((tx) => t.container.credits.record(tx, { userId: user.id, type: 'usage', amount: -(balance + 1), description: 'Too much' })),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    const rows = await db.select().from(creditTransactions).where(eq(creditTransactions.userId, user.id));
    expect(rows.some((r) => r.description === 'Too much')).toBe(false);
    expect((await me(t.app, jar)).json().user.credits).toBe(balance);
  });

  it('rolls the balance back with the transaction when a later step fails', async () => {
    const { user } = (await me(t.app, jar)).json();
    const db = t.container.database.db;
    await expect(
      db.transaction(async (tx) => {
        await t.container.credits.record(tx, { userId: user.id, type: 'grant', amount: 5, description: 'Rolled back' });
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    const [row] = await db
      .select({ credits: users.credits, ledger: sql<string>`(select coalesce(sum(amount), 0) from credit_transactions where user_id = ${user.id})` })
      .from(users)
      .where(eq(users.id, user.id));
    expect(Number(row!.ledger)).toBe(row!.credits);
  });

  it.runIf(kind === 'postgres')('lets concurrent debits spend exactly the balance', async () => {
    const other = new CookieJar();
    await signInWithDevIssuer(t.app, other, { name: 'Racer', email: 'racer@example.com' });
    const { user } = (await me(t.app, other)).json();
    const db = t.container.database.db;
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        db.transaction((tx) => t.container.credits.record(tx, { userId: user.id, type: 'usage', amount: -1, description: 'Race' })),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    expect(attempts.filter((a) => a.status === 'rejected' && a.reason instanceof InsufficientCreditsError)).toHaveLength(5);
    expect((await me(t.app, other)).json().user.credits).toBe(0);
    const rows = (await get(t.app, other, '/api/credits/transactions')).json();
    expect(rows.reduce((sum: number, r: { amount: number }) => sum + r.amount, 0)).toBe(0);
  });

  it('creates one account and one grant for concurrent first sign-ins of a subject', async () => {
    const identity = { subject: `concurrent-${kind}`, email: 'same@example.com', name: 'Same' };
    const results = await Promise.all(Array.from({ length: 4 }, () => t.container.users.findOrCreateBySubject(identity)));
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const id = results[0]!.user.id;
    const rows = await t.container.database.db.select().from(creditTransactions).where(eq(creditTransactions.userId, id));
    expect(rows).toHaveLength(1);
  });
});
