import path from 'node:path';
import { GOOGLE_ISSUER_URL, type Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { DevOidcIssuer } from './dev/oidc-issuer.ts';
import { createTestEngines } from './dev/test-engines.ts';
import { OidcClient } from './integrations/google-oidc.ts';
import { ApiKeysService } from './domain/api-keys/api-keys.service.ts';
import { AuthService } from './domain/auth/auth.service.ts';
import { CreditsService } from './domain/credits/credits.service.ts';
import { DownloadsService } from './domain/downloads/downloads.service.ts';
import { ImagesService } from './domain/images/images.service.ts';
import { JobQueue } from './domain/jobs/job-queue.ts';
import { JobsRepository } from './domain/jobs/jobs.repository.ts';
import { JobsService } from './domain/jobs/jobs.service.ts';
import { ListingsService } from './domain/listings/listings.service.ts';
import { UploadsService } from './domain/images/uploads.service.ts';
import { UsersService } from './domain/users/users.service.ts';
import { PayPalSimulator } from './dev/paypal-simulator/simulator.ts';
import { PayPalClient } from './integrations/paypal.ts';
import { PaymentsService } from './domain/payments/payments.service.ts';
import { RateLimitsService } from './domain/rate-limits/rate-limits.service.ts';
import { SharesService } from './domain/shares/shares.service.ts';
import { WebhooksService } from './domain/webhooks/webhooks.service.ts';
import type { StagingEngine } from './staging/engine.ts';
import { createLocalEngine } from './staging/local/index.ts';
import { LockedEngine } from './staging/lock/engine.ts';
import { GeminiEngine } from './staging/remote/gemini.ts';
import { OpenAiEngine } from './staging/remote/openai.ts';
import { ReplicateEngine } from './staging/remote/replicate.ts';
import { LocalObjectStorage } from './storage/local.storage.ts';
import type { ObjectStorage } from './storage/object-storage.ts';
import { S3ObjectStorage } from './storage/s3.storage.ts';

/** Composition root: every long-lived part of the server, built once from the configuration. */
export interface Container {
  config: Config;
  database: Database;
  /** The OpenID Connect client: Google (or OIDC_ISSUER_URL), else the development issuer. */
  oidc: OidcClient;
  /** The development issuer, mounted under /dev/oidc; absent in production and with Google settings. */
  devIssuer: DevOidcIssuer | undefined;
  credits: CreditsService;
  users: UsersService;
  auth: AuthService;
  /** Image files: local disk under DATA_DIR/images, or S3. */
  storage: ObjectStorage;
  /** The configured staging engine (STAGING_ENGINE). */
  engine: StagingEngine;
  /** Engines a job may ask for by name outside production (X-Test-Staging-Engine); empty in production. */
  testEngines: ReadonlyMap<string, StagingEngine>;
  images: ImagesService;
  uploads: UploadsService;
  jobs: JobsService;
  /** The worker's side of the jobs table (claims and leases). */
  queue: JobQueue;
  /** PayPal's REST API (PAYPAL_*), or the simulator's in-process. */
  paypal: PayPalClient;
  /** The PayPal simulator, mounted under /dev/paypal; absent in production and with PayPal settings. */
  paypalSimulator: PayPalSimulator | undefined;
  payments: PaymentsService;
  /** Rate-limit counters in the database (RATE_LIMIT_STORE=database; the workers sweep them). */
  rateLimits: RateLimitsService;
  /** Staged photos in the sizes the packs include, labelled on request. */
  downloads: DownloadsService;
  /** Public share links of stagings. */
  shares: SharesService;
  /** Keys of the public API (/api/v1). */
  apiKeys: ApiKeysService;
  /** Signed webhooks of API jobs: written as jobs end, sent by the workers' sweep. */
  webhooks: WebhooksService;
  /** Listings: a property's photos staged together. */
  listings: ListingsService;
}

/** Tests pass their own parts (a fresh database, a fake provider); the rest comes from config. */
export type ContainerOverrides = Partial<Omit<Container, 'config'>>;

export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const database =
    overrides.database ??
    (await openDatabase(
      config.DATABASE_URL
        ? { kind: 'postgres', url: config.DATABASE_URL }
        : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pglite` },
    ));

  const settings = config.oidc;
  let devIssuer = overrides.devIssuer;
  let oidc = overrides.oidc;
  if (!oidc) {
    if (settings.kind === 'google') {
      oidc = new OidcClient({ ...settings, allowInsecure: !config.production });
    } else {
      if (config.production) throw new Error('The development sign-in never runs in production');
      devIssuer ??= await DevOidcIssuer.create(settings);
      oidc = new OidcClient({
        ...settings,
        clientSecret: devIssuer.clientSecret,
        allowInsecure: true,
        fetch: devIssuer.fetch,
      });
    }
  }

  const db = database.db;
  const credits = overrides.credits ?? new CreditsService(db);
  const jobsRepository = new JobsRepository(db, config.WORKER_LEASE_MS);
  // The stats read payments through a closure: the payments service is built further down.
  const users =
    overrides.users ??
    new UsersService(db, credits, { completedJobs: (userId) => jobsRepository.countCompleted(userId), spentCents: (userId) => payments.totalSpentCents(userId) });
  const auth = overrides.auth ?? new AuthService(db, users, oidc);

  const storage = overrides.storage ?? createStorage(config);
  const testEngines = overrides.testEngines ?? (config.production ? new Map<string, StagingEngine>() : createTestEngines());
  const engine = overrides.engine ?? createEngine(config, testEngines);
  const images = overrides.images ?? new ImagesService(db, storage);
  const uploads = overrides.uploads ?? new UploadsService(db, images);
  const webhooks = overrides.webhooks ?? new WebhooksService(db, { publicOrigin: config.publicOrigin, development: !config.production });
  const queue = overrides.queue ?? new JobQueue(db, jobsRepository, credits, images, (tx, job) => webhooks.recordEnd(tx, job));
  const { paypal, paypalSimulator, webhookId } = createPayPal(config, overrides);
  const payments =
    overrides.payments ??
    new PaymentsService(db, credits, paypal, {
      publicOrigin: config.publicOrigin,
      clientId: config.paypal.kind === 'paypal' ? config.paypal.clientId : (paypalSimulator?.clientId ?? 'simulator'),
      environment: config.paypal.kind === 'paypal' ? config.paypal.env : 'simulator',
      webhookId,
    });
  const rateLimits = overrides.rateLimits ?? new RateLimitsService(db);
  const jobs = overrides.jobs ?? new JobsService(db, jobsRepository, credits, images, config.publicOrigin, (tx, userId) => payments.priorityForUser(tx, userId));
  const downloads = overrides.downloads ?? new DownloadsService(jobs, images, payments);
  const shares = overrides.shares ?? new SharesService(db, jobs, images, config.publicOrigin);
  const apiKeys = overrides.apiKeys ?? new ApiKeysService(db, payments);
  const listings = overrides.listings ?? new ListingsService(db, images, jobs, credits, config.publicOrigin);
  return { config, database, oidc, devIssuer, credits, users, auth, storage, engine, testEngines, images, uploads, jobs, queue, paypal, paypalSimulator, payments, rateLimits, downloads, shares, apiKeys, webhooks, listings };
}

function createPayPal(
  config: Config,
  overrides: ContainerOverrides,
): { paypal: PayPalClient; paypalSimulator: PayPalSimulator | undefined; webhookId: string | undefined } {
  const settings = config.paypal;
  if (settings.kind === 'paypal') {
    if (config.production && !settings.webhookId) {
      throw new Error('Production needs PAYPAL_WEBHOOK_ID (PayPal webhooks are verified with it)');
    }
    const paypal = overrides.paypal ?? new PayPalClient({ baseUrl: settings.baseUrl, clientId: settings.clientId, clientSecret: settings.clientSecret });
    return { paypal, paypalSimulator: undefined, webhookId: settings.webhookId };
  }
  if (config.production) {
    throw new Error('The PayPal simulator never runs in production: set PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID');
  }
  const paypalSimulator = overrides.paypalSimulator ?? new PayPalSimulator(settings.baseUrl);
  const paypal =
    overrides.paypal ??
    new PayPalClient({ baseUrl: settings.baseUrl, clientId: paypalSimulator.clientId, clientSecret: paypalSimulator.clientSecret, fetch: paypalSimulator.fetch });
  return { paypal, paypalSimulator, webhookId: paypalSimulator.webhookId };
}

function createStorage(config: Config): ObjectStorage {
  if (config.STORAGE === 's3') {
    // config.ts has already refused STORAGE=s3 without these.
    return new S3ObjectStorage({
      bucket: config.S3_BUCKET as string,
      region: config.S3_REGION as string,
      accessKeyId: config.S3_ACCESS_KEY_ID as string,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY as string,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalObjectStorage(path.join(config.DATA_DIR, 'images'));
}

function createEngine(config: Config, testEngines: ReadonlyMap<string, StagingEngine>): StagingEngine {
  // config.ts has already refused a remote engine without its key. One HTTP exchange may take the
  // whole engine budget; the worker's ENGINE_TIMEOUT_MS still bounds the run with its retries.
  const timeoutMs = config.ENGINE_TIMEOUT_MS;
  // Every generative answer goes through the structure lock: the room comes back as the original's pixels.
  const locked = (engine: StagingEngine) => new LockedEngine(engine, config.STRUCTURE_FALLBACK === 'local' ? createLocalEngine() : undefined);
  switch (config.STAGING_ENGINE) {
    case 'local':
      return createLocalEngine();
    case 'openai':
      return locked(new OpenAiEngine({
        apiKey: config.OPENAI_API_KEY as string,
        baseUrl: config.OPENAI_BASE_URL,
        model: config.OPENAI_MODEL,
        quality: config.OPENAI_QUALITY,
        timeoutMs,
      }));
    case 'gemini':
      return locked(new GeminiEngine({ apiKey: config.GEMINI_API_KEY as string, baseUrl: config.GEMINI_BASE_URL, model: config.GEMINI_MODEL, timeoutMs }));
    case 'replicate':
      return locked(new ReplicateEngine({ apiKey: config.REPLICATE_API_TOKEN as string, baseUrl: config.REPLICATE_BASE_URL, model: config.REPLICATE_MODEL, timeoutMs }));
    default:
      break;
  }
  const engine = testEngines.get(config.STAGING_ENGINE);
  if (!engine || config.production) throw new Error(`The staging engine ${config.STAGING_ENGINE} never runs in production`);
  return engine;
}

/** What runs for each role, printed at start so a newcomer sees what is real and what is a stand-in. */
export function describeParts(container: Container): Array<[role: string, part: string]> {
  const { config, devIssuer } = container;
  const signIn = devIssuer
    ? devIssuer.description
    : config.oidc.issuerUrl === GOOGLE_ISSUER_URL
      ? 'Google OpenID Connect'
      : `OpenID Connect at ${config.oidc.issuerUrl}`;
  return [
    ['database', container.database.description],
    ['sign-in', signIn],
    ['storage', container.storage.description],
    ['engine', engineDescription(container)],
    ['payments', container.paypalSimulator ? container.paypalSimulator.description : `PayPal (${container.config.paypal.kind === 'paypal' ? container.config.paypal.env : 'sandbox'})`],
  ];
}

function engineDescription({ engine, config }: Container): string {
  const remote = { openai: config.OPENAI_BASE_URL, gemini: config.GEMINI_BASE_URL, replicate: config.REPLICATE_BASE_URL }[engine.name];
  const what =
    engine.name === 'local'
      ? 'local (embedded, no network)'
      : engine.model
        ? `${engine.name} ${engine.model}${remote ? ` at ${new URL(remote).host}` : ''}`
        : engine.name;
  const where = config.RUN_WORKER ? `worker in this process x${config.WORKER_CONCURRENCY}` : 'no worker here (run npm run worker)';
  return `${what}; ${where}`;
}
