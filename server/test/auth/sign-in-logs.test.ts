import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/api/app.ts';
import { createContainer } from '../../src/container.ts';
import { openTestDatabase, testConfig } from '../helpers.ts';
import { CookieJar, get, startSignIn, submitDevSignIn } from './sign-in-helpers.ts';

type Line = Record<string, unknown> & { event?: string; msg?: string };

/** Sign-in successes and failures are logged with a reason code and no secrets. */
describe('sign-in security log', () => {
  const lines: Line[] = [];
  const raw: string[] = [];
  let app: FastifyInstance;
  beforeAll(async () => {
    const database = await openTestDatabase('pglite');
    const container = await createContainer(testConfig(), { database });
    app = await buildApp(container, {
      logger: {
        level: 'info',
        stream: {
          write(line: string) {
            raw.push(line);
            lines.push(JSON.parse(line) as Line);
          },
        },
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('logs a successful sign-in with the user id, and never the session token, the code or the state', async () => {
    const jar = new CookieJar();
    const authorizationUrl = await startSignIn(app, jar);
    const callbackPath = await submitDevSignIn(app, authorizationUrl, { name: 'Logged', email: 'logged@example.com' });
    expect((await get(app, jar, callbackPath)).statusCode).toBe(302);
    const entry = lines.find((l) => l.event === 'auth.sign_in');
    expect(entry).toMatchObject({ event: 'auth.sign_in', created: true });
    expect(typeof entry?.userId).toBe('string');
    expect(typeof entry?.time).toBe('number');
    const session = jar.get('rs_session')!;
    const query = new URL(callbackPath, 'http://localhost').searchParams;
    const all = raw.join('');
    expect(session.length).toBeGreaterThan(20);
    expect(all).not.toContain(session);
    for (const secret of [query.get('code'), query.get('state')]) {
      expect(secret?.length).toBeGreaterThan(10);
      expect(all).not.toContain(secret);
    }
    // Request logs redact cookies.
    expect(all).not.toMatch(/rs_signin=|rs_session=/);
  });

  it('logs a refused sign-in with its reason code', async () => {
    const jar = new CookieJar();
    const authorizationUrl = await startSignIn(app, jar);
    const callbackPath = await submitDevSignIn(app, authorizationUrl, { name: 'Forged', email: 'forged@example.com' });
    const res = await get(app, jar, callbackPath.replace(/state=[^&]+/, 'state=forged'));
    expect(res.statusCode).toBe(302);
    const entry = lines.find((l) => l.event === 'auth.sign_in_failed');
    expect(entry).toBeDefined();
    expect(entry?.code).toBe('OAuthCallback');
    expect(typeof entry?.time).toBe('number');
  });
});
