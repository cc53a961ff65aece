import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Container } from '../container.ts';
import { registerCanonicalHost } from './canonical-host.ts';
import { DomainError } from '../domain/errors.ts';
import { httpStatus } from './errors.ts';
import { isApiPath } from './paths.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';
import { apiKeysRoutes } from './routes/api-keys.routes.ts';
import { authRoutes } from './routes/auth.routes.ts';
import { creditsRoutes } from './routes/credits.routes.ts';
import { downloadsRoutes } from './routes/downloads.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { imagesRoutes } from './routes/images.routes.ts';
import { jobsRoutes } from './routes/jobs.routes.ts';
import { listingsRoutes } from './routes/listings.routes.ts';
import { paymentsRoutes } from './routes/payments.routes.ts';
import { paypalRoutes } from './routes/paypal.routes.ts';
import { sharesRoutes } from './routes/shares.routes.ts';
import { isPublicApiPath, publicApiRoutes, sendPublicApiNotFound } from './routes/public-api.routes.ts';
import { uploadsRoutes } from './routes/uploads.routes.ts';
import { usersRoutes } from './routes/users.routes.ts';
import { helmetOptions, paymentProviderSources, registerCrossSiteProtection } from './security.ts';
import { registerSessions, sessionCookies } from './session.ts';
import { registerWebApp } from './web-app.ts';

const defaultWebDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * JSON bodies are small everywhere (1 MiB); only POST /api/upload raises its own limit to fit a
 * 10 MB file in base64 (uploads.routes.ts, UPLOAD_BODY_LIMIT_BYTES).
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Query parameters that carry one-time secrets (the OIDC callback's code and state, tokens). */
const SECRET_PARAMS = new Set(['code', 'state', 'nonce', 'token', 'access_token', 'id_token', 'session_state']);

/** Paths that carry a share link's token: the token opens the page, so it is a secret too. */
const SECRET_PATH = /^\/(s|api\/shares)\/[^/]+/;

/** The request as logged: its URL with secret values blanked, so no log line carries a sign-in code or token. */
export function requestForLog(req: FastifyRequest): Record<string, unknown> {
  const url = new URL(req.url, 'http://log.invalid');
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAMS.has(name.toLowerCase())) url.searchParams.set(name, '[redacted]');
  const path = url.pathname.startsWith('/s/assets/') ? url.pathname : url.pathname.replace(SECRET_PATH, '/$1/[redacted]');
  return { method: req.method, url: path + url.search, host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

export interface BuildAppOptions {
  /** false, or pino options (level, stream...) merged over the defaults. */
  logger?: false | Exclude<FastifyServerOptions['logger'], boolean | undefined>;
}

export async function buildApp(container: Container, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify({
    // A caller may turn logging off or send it elsewhere (tests, the bench), never lose the redaction.
    logger:
      options.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            ...options.logger,
            redact: ['req.headers.cookie', 'req.headers.authorization'],
            serializers: { req: requestForLog },
          },
    // Trust exactly the configured number of proxy hops, so a client cannot forge its address.
    trustProxy: config.TRUST_PROXY > 0 ? (_address: string, hop: number) => hop < config.TRUST_PROXY : false,
    bodyLimit: BODY_LIMIT_BYTES,
  });

  await app.register(fastifyHelmet, helmetOptions(config.secureCookies, paymentProviderSources(config.paypal)));
  await app.register(fastifyCompress, { threshold: 1024 });
  registerCanonicalHost(app, config.publicOrigin);
  registerCrossSiteProtection(app, config.publicOrigin);
  await app.register(fastifyCookie);
  // No global limit: routes opt in (the sign-in routes answer a limit with a redirect). The
  // counters live in the database unless RATE_LIMIT_STORE=memory, so every server process on it
  // shares each limit.
  await app.register(fastifyRateLimit, {
    global: false,
    ...(config.RATE_LIMIT_STORE === 'database' ? { store: databaseRateLimitStore(container.rateLimits) } : {}),
  });
  registerSessions(app, container.auth, sessionCookies(config));

  // API answers are per user and per moment: never cached by browsers or proxies.
  app.addHook('onSend', async (req, reply) => {
    if (isApiPath(req.url) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  app.setErrorHandler((error, req, reply) => {
    if (error instanceof DomainError) {
      return reply.code(httpStatus(error.code)).send({ message: error.message, error: error.code, details: error.details });
    }
    const status = typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'Internal server error' });
    }
    // Fastify's own 4xx (malformed JSON, body too large, bad content type) carry safe messages.
    const code = (error as { code?: string }).code;
    const tooLarge = req.routeOptions.config?.bodyTooLargeMessage;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && tooLarge) return reply.code(413).send({ message: tooLarge, error: code });
    return reply.code(status).send({ message: (error as Error).message, error: (error as { code?: string }).code });
  });

  healthRoutes(app, container);
  authRoutes(app, container);
  usersRoutes(app, container);
  creditsRoutes(app, container);
  uploadsRoutes(app, container);
  imagesRoutes(app, container);
  jobsRoutes(app, container);
  downloadsRoutes(app, container);
  sharesRoutes(app, container);
  listingsRoutes(app, container);
  paypalRoutes(app, container);
  paymentsRoutes(app, container);
  apiKeysRoutes(app, container);
  await publicApiRoutes(app, container);
  if (container.devIssuer) await container.devIssuer.mount(app);
  if (container.paypalSimulator) await container.paypalSimulator.mount(app);

  const sendShell = await registerWebApp(app, path.resolve(config.WEB_DIST_DIR ?? defaultWebDist), config.CONTACT_EMAIL);

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    if (isPublicApiPath(pathname)) return sendPublicApiNotFound(reply);
    if (isApiPath(pathname) || !sendShell || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.code(404).send({ message: 'Not found' });
    }
    return sendShell(reply, pathname);
  });

  app.addHook('onClose', async () => {
    await container.database.close();
  });
  return app;
}
