import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

/** Every environment variable the server reads, parsed once at start. */
const envSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: optionalString,
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    CONTACT_EMAIL: z.preprocess(emptyToUndefined, z.email().default('support@roomstager.app')),
    TRUST_PROXY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10).default(0)),
    WEB_DIST_DIR: optionalString,
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    /** Another OpenID Connect issuer in Google's place (tests, staging); needs the Google client settings. */
    OIDC_ISSUER_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    /** Sign-in starts and callbacks per minute per client address. */
    SIGN_IN_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(120)),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_ID'], message: 'set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together, or neither' });
    }
    if (env.NODE_ENV === 'production' && !(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['GOOGLE_CLIENT_ID'],
        message: 'production needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (the development sign-in never runs in production)',
      });
    }
    if (env.OIDC_ISSUER_URL && !env.GOOGLE_CLIENT_ID) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER_URL'], message: 'needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET' });
    }
    if (env.NODE_ENV === 'production' && env.OIDC_ISSUER_URL && !env.OIDC_ISSUER_URL.startsWith('https://')) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER_URL'], message: 'must be an https:// URL in production' });
    }
  })
  .transform((env) => {
    const production = env.NODE_ENV === 'production';
    const publicUrl = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);
    const publicOrigin = publicUrl.origin;
    return {
      ...env,
      production,
      // Outside production the development stand-ins are reachable, so only this machine may connect.
      HOST: env.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
      publicOrigin,
      secureCookies: publicUrl.protocol === 'https:',
      oidc: oidcSettings(env, publicOrigin),
    };
  });

export const GOOGLE_ISSUER_URL = 'https://accounts.google.com';
/** Where the development issuer is mounted (never in production, never with Google settings). */
export const DEV_OIDC_PATH = '/dev/oidc';
export const DEV_OIDC_CLIENT_ID = 'roomstager-development';

export type OidcSettings =
  /** Google, or OIDC_ISSUER_URL in its place, with the configured client. */
  | { kind: 'google'; issuerUrl: string; clientId: string; clientSecret: string; redirectUri: string }
  /** The development issuer built into the app; its client secret is generated at start. */
  | { kind: 'development'; issuerUrl: string; clientId: string; redirectUri: string };

function oidcSettings(
  env: { GOOGLE_CLIENT_ID?: string | undefined; GOOGLE_CLIENT_SECRET?: string | undefined; OIDC_ISSUER_URL?: string | undefined },
  publicOrigin: string,
): OidcSettings {
  // Fixed, never built from request headers: it must equal the URI registered with Google.
  const redirectUri = `${publicOrigin}/api/auth/google/callback`;
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    return {
      kind: 'google',
      issuerUrl: env.OIDC_ISSUER_URL ?? GOOGLE_ISSUER_URL,
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      redirectUri,
    };
  }
  return { kind: 'development', issuerUrl: `${publicOrigin}${DEV_OIDC_PATH}`, clientId: DEV_OIDC_CLIENT_ID, redirectUri };
}

export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default); throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  return result.data;
}
