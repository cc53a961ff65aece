import {
  SIGN_IN_RATE_LIMITED_MESSAGE,
  storeReturnUrlRequestSchema,
  type LogoutResponse,
  type MeResponse,
  type SignInErrorCode,
  type StoreReturnUrlResponse,
} from '@roomstager/contracts';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { SignInError } from '../../domain/auth/auth.service.ts';
import { RateLimitedError, UnauthorizedError } from '../../domain/errors.ts';
import { requireUser, sessionCookies } from '../session.ts';
import { parseInput } from '../validation.ts';

const ONE_MINUTE_MS = 60_000;

/**
 * Sign-in with Google (OpenID Connect) and the session: start, callback, the returnTo kept for
 * the coming sign-in, logout, and the current user. Sign-in failures never show an error page:
 * they redirect to /login?error=CODE.
 */
export function authRoutes(app: FastifyInstance, { config, auth }: Container): void {
  const cookies = sessionCookies(config);
  // Per client address, each limiter under its own name: a shared store tells them apart by key.
  const perMinute = (name: string) => ({
    max: config.SIGN_IN_RATE_LIMIT,
    timeWindow: ONE_MINUTE_MS,
    keyGenerator: (req: FastifyRequest) => `${name}:${normalizeIP(req.ip)}`,
  });
  const limitStart = app.createRateLimit(perMinute('sign-in-start'));
  const limitCallback = app.createRateLimit(perMinute('sign-in-callback'));
  const limitStore = app.createRateLimit(perMinute('sign-in-return-url'));

  /** Absolute URL on this origin: the browser can only land here. */
  const redirectHere = (reply: FastifyReply, path: string) => reply.redirect(`${config.publicOrigin}${path}`, 302);

  const failSignIn = (reply: FastifyReply, code: SignInErrorCode, message?: string) => {
    cookies.clearSignIn(reply);
    const query = new URLSearchParams({ error: code });
    if (message) query.set('message', message);
    return redirectHere(reply, `/login?${query.toString()}`);
  };

  const rateLimited = async (req: FastifyRequest, limiter: typeof limitStart) => {
    const result = await limiter(req);
    if (!result.isAllowed && result.isExceeded) {
      req.log.warn({ event: 'auth.rate_limited', url: req.routeOptions.url }, 'sign-in rate limit reached');
      return true;
    }
    return false;
  };

  // The limit is checked inside each try: a limiter that cannot count (database down) fails the
  // sign-in with the usual redirect, and lets nothing through.
  app.get('/api/auth/google', async (req, reply) => {
    try {
      if (await rateLimited(req, limitStart)) return failSignIn(reply, 'RATE_LIMITED', SIGN_IN_RATE_LIMITED_MESSAGE);
      const { token, authorizationUrl } = await auth.beginSignIn(req.cookies[cookies.names.signIn]);
      cookies.setSignIn(reply, token);
      return reply.redirect(authorizationUrl.href, 302);
    } catch (err) {
      const code = err instanceof SignInError ? err.code : 'OAuthSignin';
      req.log.error({ event: 'auth.sign_in_start_failed', code, err }, 'sign-in could not start');
      return failSignIn(reply, code);
    }
  });

  app.get('/api/auth/google/callback', async (req, reply) => {
    const queryStart = req.url.indexOf('?');
    const search = queryStart >= 0 ? req.url.slice(queryStart) : '';
    try {
      if (await rateLimited(req, limitCallback)) return failSignIn(reply, 'RATE_LIMITED', SIGN_IN_RATE_LIMITED_MESSAGE);
      const done = await auth.completeSignIn({
        attemptToken: req.cookies[cookies.names.signIn],
        search,
        previousSessionToken: req.cookies[cookies.names.session],
      });
      cookies.clearSignIn(reply);
      cookies.setSession(reply, done.sessionToken, done.sessionExpiresAt);
      req.log.info({ event: 'auth.sign_in', userId: done.user.id, created: done.created }, 'signed in');
      return redirectHere(reply, done.returnTo);
    } catch (err) {
      if (err instanceof SignInError) {
        const level = err.code === 'OAuthCallback' ? 'warn' : 'error';
        // Only messages: the causes of protocol errors can carry the authorization response (the code).
        const cause = err.cause instanceof Error ? err.cause.message : undefined;
        req.log[level]({ event: 'auth.sign_in_failed', code: err.code, reason: err.reason, cause }, 'sign-in refused');
        return failSignIn(reply, err.code);
      }
      req.log.error({ event: 'auth.sign_in_failed', code: 'Callback', err }, 'sign-in failed');
      return failSignIn(reply, 'Callback');
    }
  });

  app.post('/api/auth/store-return-url', async (req, reply) => {
    const limit = await limitStore(req);
    if (!limit.isAllowed && limit.isExceeded) {
      throw new RateLimitedError(SIGN_IN_RATE_LIMITED_MESSAGE);
    }
    const body = parseInput(storeReturnUrlRequestSchema, req.body);
    const { token, returnTo } = await auth.storeReturnTo(req.cookies[cookies.names.signIn], body.returnTo);
    cookies.setSignIn(reply, token);
    const answer: StoreReturnUrlResponse = { success: true, returnTo };
    return reply.send(answer);
  });

  app.post('/api/auth/logout', async (req, reply) => {
    await auth.endSession(req.cookies[cookies.names.session]);
    cookies.clearSession(reply);
    const answer: LogoutResponse = { success: true };
    return reply.send(answer);
  });

  // Every device: a stolen or forgotten session ends too. Only with a valid session.
  app.post('/api/auth/logout-all', async (req, reply) => {
    const user = await requireUser(req);
    const ended = await auth.endAllSessions(user.id);
    req.log.info({ event: 'auth.sign_out_everywhere', userId: user.id, ended }, 'signed out everywhere');
    cookies.clearSession(reply);
    const answer: LogoutResponse = { success: true };
    return reply.send(answer);
  });

  app.get('/api/auth/me', async (req, reply) => {
    const user = await req.resolveUser();
    if (!user) {
      // A stale or forged cookie is dropped so the browser stops sending it.
      if (req.cookies[cookies.names.session] !== undefined) cookies.clearSession(reply);
      throw new UnauthorizedError();
    }
    const answer: MeResponse = { user };
    return reply.send(answer);
  });
}
