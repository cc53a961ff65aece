import type { SessionUser } from '@roomstager/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { SESSION_TTL_MS, SIGN_IN_TTL_MS, type AuthService } from '../domain/auth/auth.service.ts';
import { UnauthorizedError } from '../domain/errors.ts';

/**
 * Cookie names. Over HTTPS the session cookie carries the `__Host-` prefix (Secure, Path=/, no
 * Domain, enforced by the browser) and the sign-in cookie `__Secure-`; on http://localhost
 * browsers refuse those prefixes, so plain names are used there.
 */
export function cookieNames(secure: boolean): { session: string; signIn: string } {
  return secure
    ? { session: '__Host-rs_session', signIn: '__Secure-rs_signin' }
    : { session: 'rs_session', signIn: 'rs_signin' };
}

/** The sign-in cookie lives only where the sign-in routes are. */
export const SIGN_IN_COOKIE_PATH = '/api/auth';

export interface SessionCookies {
  names: { session: string; signIn: string };
  setSession(reply: FastifyReply, token: string, expiresAt: Date): void;
  clearSession(reply: FastifyReply): void;
  setSignIn(reply: FastifyReply, token: string): void;
  clearSignIn(reply: FastifyReply): void;
}

export function sessionCookies(config: Pick<Config, 'secureCookies'>): SessionCookies {
  const names = cookieNames(config.secureCookies);
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies };
  return {
    names,
    setSession(reply, token, expiresAt) {
      const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
      reply.setCookie(names.session, token, { ...base, path: '/', maxAge: Math.min(maxAge, SESSION_TTL_MS / 1000) });
    },
    clearSession(reply) {
      reply.clearCookie(names.session, { ...base, path: '/' });
    },
    setSignIn(reply, token) {
      reply.setCookie(names.signIn, token, { ...base, path: SIGN_IN_COOKIE_PATH, maxAge: SIGN_IN_TTL_MS / 1000 });
    },
    clearSignIn(reply) {
      reply.clearCookie(names.signIn, { ...base, path: SIGN_IN_COOKIE_PATH });
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of this request, resolved once from the session cookie; null when none. */
    resolveUser(): Promise<SessionUser | null>;
    sessionUserPromise: Promise<SessionUser | null> | null;
  }
}

/**
 * Resolves the user from the session cookie, lazily and once per request. Routes use
 * `requireUser(request)` (401 without a valid session) or `request.resolveUser()`.
 * Needs @fastify/cookie registered first.
 */
export function registerSessions(app: FastifyInstance, auth: AuthService, cookies: SessionCookies): void {
  app.decorateRequest('sessionUserPromise', null);
  app.decorateRequest('resolveUser', function resolveUser(this: FastifyRequest) {
    this.sessionUserPromise ??= auth.resolveSession(this.cookies[cookies.names.session]);
    return this.sessionUserPromise;
  });
}

/** The signed-in user, or a 401 `{message: 'Not authenticated'}`. */
export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await request.resolveUser();
  if (!user) throw new UnauthorizedError();
  return user;
}
