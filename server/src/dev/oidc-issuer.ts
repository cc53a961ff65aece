import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { CustomFetch } from 'openid-client';
import { escapeHtml } from '../html.ts';
import { sendDevPage } from './dev-page.ts';

/**
 * The development stand-in for Google: a real, minimal OpenID Connect issuer (discovery, JWKS,
 * authorize, token) mounted under /dev/oidc when the app runs outside production without
 * Google settings. Its authorize step is a 'Development sign-in' page asking for a name and
 * an e-mail address; the subject is derived from the e-mail, so one e-mail is one account.
 * It enforces what Google enforces: registered client and redirect URI, client secret,
 * PKCE S256, single-use codes that expire, ID tokens signed with a key generated at start.
 */
export interface DevOidcIssuerOptions {
  issuerUrl: string;
  clientId: string;
  redirectUri: string;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  subject: string;
  email: string;
  name: string;
  expiresAt: number;
}

interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state: string;
  nonce: string;
  code_challenge: string;
  code_challenge_method: string;
}

const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
] as const;

const CODE_TTL_MS = 60_000;
const ID_TOKEN_TTL = '5m';
const MAX_PENDING_CODES = 10_000;
const NAME_MAX_LENGTH = 50;
const EMAIL_MAX_LENGTH = 254;
// A pragmatic address check (the same shape browsers apply to type=email inputs).
const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

const STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{color:#475569;line-height:1.5}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;padding:.6rem .75rem;font-size:1rem;border:1px solid #94a3b8;border-radius:.5rem}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
button{margin-top:1.5rem;width:100%;padding:.7rem;font-size:1rem;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:.5rem;cursor:pointer}
button:hover{background:#1e40af}
.error{color:#b91c1c;font-weight:600}
.cancel{display:block;margin-top:1rem;text-align:center;color:#1d4ed8}
`;


const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** Subject of the development user: stable per e-mail address, not guessable as Google's. */
export function devSubjectFor(email: string): string {
  return `dev-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 40)}`;
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

export class DevOidcIssuer {
  /** Generated at start, known only to this process: the app's client authenticates with it. */
  readonly clientSecret = base64url(randomBytes(32));
  private readonly codes = new Map<string, PendingCode>();
  private app: FastifyInstance | undefined;
  private readonly basePath: string;

  private constructor(
    readonly options: DevOidcIssuerOptions,
    private readonly privateKey: CryptoKey,
    private readonly publicJwk: JWK,
  ) {
    this.basePath = new URL(options.issuerUrl).pathname.replace(/\/$/, '');
  }

  static async create(options: DevOidcIssuerOptions): Promise<DevOidcIssuer> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = await exportJWK(publicKey);
    const kid = createHash('sha256').update(JSON.stringify(jwk)).digest('base64url').slice(0, 16);
    return new DevOidcIssuer(options, privateKey, { ...jwk, kid, alg: 'RS256', use: 'sig' });
  }

  get description(): string {
    return `development sign-in (stand-in) at ${this.basePath}`;
  }

  /**
   * The back channel of the app's own OIDC client: requests to this issuer are answered
   * in-process through `inject`, so discovery and token calls never depend on PUBLIC_URL being
   * reachable from the server itself (a proxy, a container, localhost resolving to ::1).
   */
  readonly fetch: CustomFetch = async (url, options) => {
    const target = new URL(url);
    const issuer = new URL(this.options.issuerUrl);
    if (!this.app || target.origin !== issuer.origin || !target.pathname.startsWith(`${this.basePath}/`)) {
      return fetch(url, options as RequestInit);
    }
    const body = options.body;
    const res = await this.app.inject({
      method: options.method as HTTPMethods,
      url: `${target.pathname}${target.search}`,
      headers: options.headers,
      payload: body === undefined || body === null ? undefined : typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : Buffer.from(body as ArrayBuffer),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
    }
    const nullBody = [101, 204, 205, 304].includes(res.statusCode);
    return new Response(nullBody ? null : res.rawPayload, { status: res.statusCode, headers });
  };

  /** Mounts the issuer's routes on the app (development only; the container decides). */
  async mount(app: FastifyInstance): Promise<void> {
    this.app = app;
    await app.register(async (scope) => {
      await scope.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
      const base = this.basePath;
      // Google's side of sign-in: its form posts and the token call are the provider's, not this app's API.
      const exempt = { config: { crossSiteExempt: true } };

      scope.get(`${base}/.well-known/openid-configuration`, async (_req, reply) => {
        const issuer = this.options.issuerUrl;
        return reply.header('Cache-Control', 'no-store').send({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          response_modes_supported: ['query'],
          grant_types_supported: ['authorization_code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: ['openid', 'email', 'profile'],
          claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'email', 'email_verified', 'name'],
          token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
          code_challenge_methods_supported: ['S256'],
          authorization_response_iss_parameter_supported: true,
        });
      });

      scope.get(`${base}/jwks`, async (_req, reply) => reply.header('Cache-Control', 'no-store').send({ keys: [this.publicJwk] }));

      scope.get(`${base}/style.css`, async (_req, reply) =>
        reply.header('Cache-Control', 'no-cache').type('text/css; charset=utf-8').send(STYLESHEET),
      );

      scope.get(`${base}/authorize`, async (req, reply) => {
        const params = this.readAuthorizeParams(req.query);
        const problem = this.checkAuthorizeParams(params);
        if (problem) return this.refuse(reply, params, problem);
        return this.sendPage(reply, params);
      });

      scope.post(`${base}/authorize`, exempt, async (req, reply) => {
        const form = (req.body ?? {}) as Record<string, unknown>;
        const params = this.readAuthorizeParams(form);
        const problem = this.checkAuthorizeParams(params);
        if (problem) return this.refuse(reply, params, problem);
        const email = typeof form.email === 'string' ? form.email.trim() : '';
        const rawName = typeof form.name === 'string' ? form.name.replace(CONTROL_CHARACTERS, '').trim() : '';
        if (!email || email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
          return this.sendPage(reply.code(400), params, { name: rawName, email, error: 'Please enter a valid email address.' });
        }
        if (rawName.length > NAME_MAX_LENGTH) {
          return this.sendPage(reply.code(400), params, {
            name: rawName,
            email,
            error: `Please enter a name of at most ${NAME_MAX_LENGTH} characters.`,
          });
        }
        const normalizedEmail = email.toLowerCase();
        const code = base64url(randomBytes(32));
        this.rememberCode(code, {
          clientId: params.client_id,
          redirectUri: params.redirect_uri,
          codeChallenge: params.code_challenge,
          nonce: params.nonce || undefined,
          subject: devSubjectFor(normalizedEmail),
          email: normalizedEmail,
          name: rawName || normalizedEmail.split('@')[0] || 'User',
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        const target = new URL(params.redirect_uri);
        target.searchParams.set('code', code);
        if (params.state) target.searchParams.set('state', params.state);
        target.searchParams.set('iss', this.options.issuerUrl);
        return reply.redirect(target.href, 303);
      });

      scope.post(`${base}/token`, exempt, async (req, reply) => {
        reply.header('Cache-Control', 'no-store');
        const body = (req.body ?? {}) as Record<string, unknown>;
        const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

        // Client authentication: client_secret_basic or client_secret_post.
        let clientId = field('client_id');
        let clientSecret = field('client_secret');
        const authorization = req.headers.authorization;
        if (authorization?.startsWith('Basic ')) {
          const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
          const colon = decoded.indexOf(':');
          if (colon > 0) {
            clientId = decodeURIComponent(decoded.slice(0, colon));
            clientSecret = decodeURIComponent(decoded.slice(colon + 1));
          }
        }
        if (clientId !== this.options.clientId || !constantTimeEqual(clientSecret, this.clientSecret)) {
          return reply.code(401).send({ error: 'invalid_client', error_description: 'Unknown client or wrong secret' });
        }
        if (field('grant_type') !== 'authorization_code') {
          return reply.code(400).send({ error: 'unsupported_grant_type' });
        }
        const code = field('code');
        const pending = this.codes.get(code);
        // Single use: a code is gone after its first redemption attempt, successful or not.
        this.codes.delete(code);
        if (!pending || pending.expiresAt < Date.now()) {
          return reply.code(400).send({ error: 'invalid_grant', error_description: 'Unknown, used or expired code' });
        }
        if (pending.clientId !== clientId || pending.redirectUri !== field('redirect_uri')) {
          return reply.code(400).send({ error: 'invalid_grant', error_description: 'Code issued to another client or redirect URI' });
        }
        const verifier = field('code_verifier');
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || challenge !== pending.codeChallenge) {
          return reply.code(400).send({ error: 'invalid_grant', error_description: 'PKCE verification failed' });
        }
        const idToken = await new SignJWT({
          email: pending.email,
          email_verified: true,
          name: pending.name,
          ...(pending.nonce ? { nonce: pending.nonce } : {}),
        })
          .setProtectedHeader({ alg: 'RS256', kid: this.publicJwk.kid, typ: 'JWT' })
          .setIssuer(this.options.issuerUrl)
          .setSubject(pending.subject)
          .setAudience(clientId)
          .setIssuedAt()
          .setExpirationTime(ID_TOKEN_TTL)
          .sign(this.privateKey);
        return reply.send({
          access_token: base64url(randomBytes(32)),
          token_type: 'Bearer',
          expires_in: 300,
          scope: 'openid email profile',
          id_token: idToken,
        });
      });
    });
  }

  private readAuthorizeParams(source: unknown): AuthorizeParams {
    const record = (source ?? {}) as Record<string, unknown>;
    const out = {} as AuthorizeParams;
    for (const key of AUTHORIZE_PARAMS) {
      const value = record[key];
      out[key] = typeof value === 'string' ? value.slice(0, 2048) : '';
    }
    return out;
  }

  /** What is wrong with an authorization request, or null. */
  private checkAuthorizeParams(p: AuthorizeParams): { error: string; description: string; redirect: boolean } | null {
    if (p.client_id !== this.options.clientId || p.redirect_uri !== this.options.redirectUri) {
      // Never redirect to an unregistered URI: that would make this page an open redirector.
      return { error: 'invalid_request', description: 'Unknown client or unregistered redirect URI.', redirect: false };
    }
    if (p.response_type !== 'code') {
      return { error: 'unsupported_response_type', description: 'Only response_type=code is supported.', redirect: true };
    }
    if (!p.scope.split(' ').includes('openid')) {
      return { error: 'invalid_scope', description: 'The openid scope is required.', redirect: true };
    }
    if (p.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) {
      return { error: 'invalid_request', description: 'PKCE with S256 is required.', redirect: true };
    }
    return null;
  }

  private refuse(reply: FastifyReply, params: AuthorizeParams, problem: { error: string; description: string; redirect: boolean }) {
    if (!problem.redirect) {
      return this.sendHtml(
        reply.code(400),
        `<h1>Development sign-in</h1>\n<p class="error" role="alert">${escapeHtml(problem.description)}</p>`,
      );
    }
    const target = new URL(params.redirect_uri);
    target.searchParams.set('error', problem.error);
    target.searchParams.set('error_description', problem.description);
    if (params.state) target.searchParams.set('state', params.state);
    target.searchParams.set('iss', this.options.issuerUrl);
    return reply.redirect(target.href, 303);
  }

  private sendPage(reply: FastifyReply, params: AuthorizeParams, form: { name?: string; email?: string; error?: string } = {}) {
    const hidden = AUTHORIZE_PARAMS.map(
      (key) => `    <input type="hidden" name="${key}" value="${escapeHtml(params[key])}">`,
    ).join('\n');
    const cancel = new URL(params.redirect_uri);
    cancel.searchParams.set('error', 'access_denied');
    if (params.state) cancel.searchParams.set('state', params.state);
    cancel.searchParams.set('iss', this.options.issuerUrl);
    const errorId = form.error ? ' aria-describedby="form-error" aria-invalid="true"' : '';
    const body = `<h1>Development sign-in</h1>
  <p>This page stands in for Google while RoomStager runs in development. Enter a name and an email address; signing in again with the same email opens the same account.</p>
  ${form.error ? `<p class="error" id="form-error" role="alert">${escapeHtml(form.error)}</p>` : ''}
  <form method="post" action="${escapeHtml(`${this.basePath}/authorize`)}">
${hidden}
    <label for="name">Name</label>
    <input id="name" name="name" type="text" autocomplete="name" maxlength="${NAME_MAX_LENGTH}" value="${escapeHtml(form.name ?? '')}">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required maxlength="${EMAIL_MAX_LENGTH}" value="${escapeHtml(form.email ?? '')}"${errorId}>
    <button type="submit">Sign in</button>
  </form>
  <a class="cancel" href="${escapeHtml(cancel.href)}">Cancel</a>`;
    return this.sendHtml(reply, body);
  }

  private sendHtml(reply: FastifyReply, body: string) {
    return sendDevPage(reply, { title: 'Development sign-in', basePath: this.basePath, body });
  }

  private rememberCode(code: string, pending: PendingCode): void {
    const now = Date.now();
    for (const [key, value] of this.codes) {
      if (value.expiresAt < now || this.codes.size >= MAX_PENDING_CODES) this.codes.delete(key);
      else break;
    }
    this.codes.set(code, pending);
  }
}
