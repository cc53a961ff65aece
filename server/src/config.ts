import { z } from 'zod';
import { engineHelperSetting } from './staging/local/helper.ts';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const int = (min: number, max: number, fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));
const flag = (fallback: boolean) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
    z.enum(['true', 'false', '1', '0', 'yes', 'no']).default(fallback ? 'true' : 'false').transform((v) => ['true', '1', 'yes'].includes(v)),
  );

/**
 * Staging engines: `local` everywhere; `openai`, `gemini`, `replicate` (remote providers, each with
 * its key); `fail` (every job fails, refunded) and `paid` (draws a block, as a provider paid per
 * image would stage: server/src/dev/test-engines.ts) only outside production.
 */
export const STAGING_ENGINES = ['local', 'openai', 'gemini', 'replicate', 'fail', 'paid'] as const;
/** The key each remote engine needs, named in the start-up error when it is missing. */
export const REMOTE_ENGINE_KEYS = { openai: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY', replicate: 'REPLICATE_API_TOKEN' } as const;
const httpUrl = (fallback: string) => z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default(fallback));
export const TEST_ONLY_ENGINES: ReadonlySet<string> = new Set(['fail', 'paid']);

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
    /** Uploads per minute per signed-in user. */
    UPLOAD_RATE_LIMIT: int(1, 100_000, 30),
    /** Job creations, regenerations and retries per minute per signed-in user (each). */
    JOB_RATE_LIMIT: int(1, 100_000, 30),
    /** Calls per minute per key of the public API (/api/v1), all of its endpoints together. */
    API_RATE_LIMIT: int(1, 1_000_000, 120),
    /** How often each worker sends the webhooks that are due (first attempts, and retries whose time has come). */
    WEBHOOK_SWEEP_MS: int(100, 3_600_000, 1_000),
    /**
     * Where rate-limit counters live: `database` (the rate_limits table, one limit across every
     * server process on the database) or `memory` (each process counts alone).
     */
    RATE_LIMIT_STORE: z.preprocess(emptyToUndefined, z.enum(['database', 'memory']).default('database')),

    /** Where image files live: `local` (under DATA_DIR/images) or `s3` (any S3-compatible store). */
    STORAGE: z.preprocess(emptyToUndefined, z.enum(['local', 's3']).default('local')),
    S3_BUCKET: optionalString,
    S3_REGION: optionalString,
    /** Only for S3-compatible stores other than AWS (MinIO, R2, s3rver...). */
    S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: flag(false),

    STAGING_ENGINE: z.preprocess(emptyToUndefined, z.enum(STAGING_ENGINES).default('local')),
    /** One engine run is aborted after this long. */
    ENGINE_TIMEOUT_MS: int(1_000, 3_600_000, 120_000),
    /** Whether the local engine takes a second thread for each staging (docs/decisions/0029-local-engine-render-helper.md). */
    ENGINE_HELPER: z.preprocess(emptyToUndefined, engineHelperSetting.default('on')),
    /** What stages a photo whose generative answers changed the room twice: nothing (the job fails, refunded) or the local engine. */
    STRUCTURE_FALLBACK: z.preprocess(emptyToUndefined, z.enum(['none', 'local']).default('none')),
    /** OpenAI image edits (STAGING_ENGINE=openai). */
    OPENAI_API_KEY: optionalString,
    OPENAI_MODEL: z.preprocess(emptyToUndefined, z.string().default('gpt-image-1')),
    OPENAI_QUALITY: z.preprocess(emptyToUndefined, z.enum(['low', 'medium', 'high']).default('medium')),
    OPENAI_BASE_URL: httpUrl('https://api.openai.com'),
    /** Gemini image generation (STAGING_ENGINE=gemini). */
    GEMINI_API_KEY: optionalString,
    GEMINI_MODEL: z.preprocess(emptyToUndefined, z.string().regex(/^[\w.-]+$/, 'must be a model name such as gemini-2.5-flash-image').default('gemini-2.5-flash-image')),
    GEMINI_BASE_URL: httpUrl('https://generativelanguage.googleapis.com'),
    /** Any Replicate image-editing model, owner/name or owner/name:version (STAGING_ENGINE=replicate). */
    REPLICATE_API_TOKEN: optionalString,
    REPLICATE_MODEL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+(:\w+)?$/, 'must be owner/name or owner/name:version')
        .default('black-forest-labs/flux-kontext-pro'),
    ),
    REPLICATE_BASE_URL: httpUrl('https://api.replicate.com'),
    /** Run a worker inside the server process (the embedded default); false when separate workers run. */
    RUN_WORKER: flag(true),
    /** Jobs one worker process runs at a time. */
    WORKER_CONCURRENCY: int(1, 64, 1),
    /** A claimed job's lease; renewed every third of it while the engine runs. */
    WORKER_LEASE_MS: int(1_000, 3_600_000, 30_000),
    /** How often an idle worker looks for jobs (it is woken at once by jobs created in its process). */
    WORKER_POLL_MS: int(10, 60_000, 400),
    /** Engine runs per job before it fails for good (transient errors and crashed workers count). */
    JOB_MAX_ATTEMPTS: int(1, 20, 3),
    /** Uploads no job uses are deleted (row and files) once this old: the time a user has to start a staging. */
    UNUSED_UPLOAD_TTL_HOURS: int(1, 8_760, 24),
    /** How often each worker sweeps those unused uploads (it sweeps once at start too). */
    // Five minutes: a buyer whose payment needs reconciling (no webhook) waits at most that long past PAYMENT_RECONCILE_AFTER_MINUTES.
    WORKER_SWEEP_MS: int(10_000, 86_400_000, 300_000),

    /** PayPal REST app (both or neither); without them, outside production, the built-in simulator. */
    PAYPAL_CLIENT_ID: optionalString,
    PAYPAL_CLIENT_SECRET: optionalString,
    PAYPAL_ENV: z.preprocess(emptyToUndefined, z.enum(['sandbox', 'live']).default('sandbox')),
    /** The id of the webhook registered for /api/paypal/webhook (verify-webhook-signature needs it). */
    PAYPAL_WEBHOOK_ID: optionalString,
    /** Order creations, and captures/confirmations, per minute per signed-in user (each). */
    PAYMENT_RATE_LIMIT: int(1, 100_000, 60),
    /**
     * Payments still `created` or `pending` this long after the order are asked about at PayPal by
     * the worker's sweep (the buyer closed the window after approving; webhooks missing).
     */
    PAYMENT_RECONCILE_AFTER_MINUTES: int(1, 1_440, 10),
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
    if (env.STORAGE === 's3') {
      for (const name of ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `STORAGE=s3 needs ${name}` });
      }
    }
    if (Boolean(env.PAYPAL_CLIENT_ID) !== Boolean(env.PAYPAL_CLIENT_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['PAYPAL_CLIENT_ID'], message: 'set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET together, or neither' });
    }
    if (!env.RUN_WORKER && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['RUN_WORKER'],
        message: 'RUN_WORKER=false needs DATABASE_URL: with the embedded PGlite only the server process can run the worker',
      });
    }
    if (env.STAGING_ENGINE === 'openai' || env.STAGING_ENGINE === 'gemini' || env.STAGING_ENGINE === 'replicate') {
      const key = REMOTE_ENGINE_KEYS[env.STAGING_ENGINE];
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `STAGING_ENGINE=${env.STAGING_ENGINE} needs ${key}` });
      const baseUrl = { openai: env.OPENAI_BASE_URL, gemini: env.GEMINI_BASE_URL, replicate: env.REPLICATE_BASE_URL }[env.STAGING_ENGINE];
      if (env.NODE_ENV === 'production' && !baseUrl.startsWith('https://')) {
        ctx.addIssue({ code: 'custom', path: [`${env.STAGING_ENGINE.toUpperCase()}_BASE_URL`], message: 'must be an https:// URL in production (the key travels with every request)' });
      }
    }
    if (env.NODE_ENV === 'production' && TEST_ONLY_ENGINES.has(env.STAGING_ENGINE)) {
      ctx.addIssue({ code: 'custom', path: ['STAGING_ENGINE'], message: `${env.STAGING_ENGINE} is a test engine and never runs in production` });
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
      paypal: paypalSettings(env, publicOrigin),
    };
  });

export const GOOGLE_ISSUER_URL = 'https://accounts.google.com';
/** Where the development issuer is mounted (never in production, never with Google settings). */
export const DEV_OIDC_PATH = '/dev/oidc';
export const DEV_OIDC_CLIENT_ID = 'roomstager-development';

/** Where the PayPal simulator is mounted (never in production, never with PayPal settings). */
export const DEV_PAYPAL_PATH = '/dev/paypal';

export type PayPalSettings =
  | { kind: 'paypal'; env: 'sandbox' | 'live'; baseUrl: string; clientId: string; clientSecret: string; webhookId: string | undefined }
  /** The simulator built into the app; its client secret is generated at start. */
  | { kind: 'simulator'; baseUrl: string; webhookId: undefined };

function paypalSettings(
  env: { PAYPAL_CLIENT_ID?: string | undefined; PAYPAL_CLIENT_SECRET?: string | undefined; PAYPAL_ENV: 'sandbox' | 'live'; PAYPAL_WEBHOOK_ID?: string | undefined },
  publicOrigin: string,
): PayPalSettings {
  if (env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET) {
    return {
      kind: 'paypal',
      env: env.PAYPAL_ENV,
      baseUrl: env.PAYPAL_ENV === 'live' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com',
      clientId: env.PAYPAL_CLIENT_ID,
      clientSecret: env.PAYPAL_CLIENT_SECRET,
      webhookId: env.PAYPAL_WEBHOOK_ID,
    };
  }
  return { kind: 'simulator', baseUrl: `${publicOrigin}${DEV_PAYPAL_PATH}`, webhookId: undefined };
}

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
