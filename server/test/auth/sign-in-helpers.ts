import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** A minimal browser cookie jar for `app.inject`: Set-Cookie in, Cookie header out (path-aware). */
export class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  take(res: LightMyRequestResponse): this {
    for (const c of res.cookies as Array<{ name: string; value: string; path?: string; maxAge?: number; expires?: Date }>) {
      const path = c.path ?? '/';
      const key = `${c.name}|${path}`;
      const expired = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.value === '';
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { name: c.name, value: c.value, path });
    }
    return this;
  }

  set(name: string, value: string, path = '/'): this {
    this.cookies.set(`${name}|${path}`, { name, value, path });
    return this;
  }

  get(name: string): string | undefined {
    for (const c of this.cookies.values()) if (c.name === name) return c.value;
    return undefined;
  }

  header(url: string): string {
    const pathname = new URL(url, 'http://x').pathname;
    return [...this.cookies.values()]
      .filter((c) => c.path === '/' || pathname === c.path || pathname.startsWith(`${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

export const PUBLIC_ORIGIN = 'http://localhost:3000';

/** Path + query of an absolute or relative Location on this origin (fails on any other origin). */
export function localPath(location: string | undefined, origin = PUBLIC_ORIGIN): string {
  expect(location, 'Location header').toBeTypeOf('string');
  const url = new URL(location as string, origin);
  expect(url.origin).toBe(origin);
  return `${url.pathname}${url.search}`;
}

export async function get(app: FastifyInstance, jar: CookieJar, url: string, headers: Record<string, string> = {}) {
  const cookie = jar.header(url);
  const res = await app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  jar.take(res);
  return res;
}

export async function storeReturnUrl(app: FastifyInstance, jar: CookieJar, returnTo: unknown, origin = PUBLIC_ORIGIN) {
  const url = '/api/auth/store-return-url';
  const cookie = jar.header(url);
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ returnTo }),
  });
  jar.take(res);
  return res;
}

/** Starts a sign-in; answers the provider's authorization URL. */
export async function startSignIn(app: FastifyInstance, jar: CookieJar): Promise<URL> {
  const res = await get(app, jar, '/api/auth/google');
  expect(res.statusCode).toBe(302);
  return new URL(String(res.headers.location));
}

/**
 * The development issuer's page: GET it, check it is the sign-in form, submit name and e-mail.
 * Answers the callback path (with code, state, iss) the issuer redirects to.
 */
export async function submitDevSignIn(
  app: FastifyInstance,
  authorizationUrl: URL,
  identity: { name: string; email: string },
): Promise<string> {
  const page = await app.inject({ method: 'GET', url: `${authorizationUrl.pathname}${authorizationUrl.search}` });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('Development sign-in');
  const form = new URLSearchParams(authorizationUrl.search);
  form.set('name', identity.name);
  form.set('email', identity.email);
  const res = await app.inject({
    method: 'POST',
    url: authorizationUrl.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(res.statusCode).toBe(303);
  return localPath(String(res.headers.location));
}

/** The whole flow through the development issuer. Answers the final redirect's local path. */
export async function signInWithDevIssuer(
  app: FastifyInstance,
  jar: CookieJar,
  identity: { name: string; email: string },
  options: { returnTo?: unknown } = {},
): Promise<{ landing: string; callback: LightMyRequestResponse }> {
  if (options.returnTo !== undefined) {
    const stored = await storeReturnUrl(app, jar, options.returnTo);
    expect(stored.statusCode).toBe(200);
  }
  const authorizationUrl = await startSignIn(app, jar);
  const callbackPath = await submitDevSignIn(app, authorizationUrl, identity);
  const callback = await get(app, jar, callbackPath);
  expect(callback.statusCode).toBe(302);
  return { landing: localPath(String(callback.headers.location)), callback };
}

export async function me(app: FastifyInstance, jar: CookieJar) {
  return get(app, jar, '/api/auth/me');
}
