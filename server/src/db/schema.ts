import { sql } from 'drizzle-orm';
import type { RoomType, StructureReport, Style } from '@roomstager/contracts';
import { boolean, check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    googleSub: text().notNull().unique(),
    email: text().notNull(),
    username: text().notNull(),
    credits: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('users_credits_non_negative', sql`${t.credits} >= 0`)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the random token in the cookie: a leaked table grants no session. */
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Absolute end (SESSION_TTL_MS after sign-in), whatever the activity. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Last request seen, to the hour: the session ends after SESSION_IDLE_MS without one. */
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const creditTransactionType = pgEnum('credit_transaction_type', ['purchase', 'usage', 'refund', 'grant', 'purchase_refund']);

/**
 * The credit ledger. Invariant: users.credits = sum(amount) for every user; the credits service
 * writes a row here in the same transaction as every balance change. job_id and payment_id
 * point at tables later issues add (their foreign keys come with them).
 */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** No cascade: deleting a user must not silently erase the financial history. */
    userId: uuid()
      .notNull()
      .references(() => users.id),
    type: creditTransactionType().notNull(),
    /** Signed: purchases, refunds and grants positive, usage and purchase refunds negative. */
    amount: integer().notNull(),
    description: text().notNull(),
    jobId: uuid(),
    paymentId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_transactions_user_id_created_at_idx').on(t.userId, t.createdAt),
    check('credit_transactions_amount_non_zero', sql`${t.amount} <> 0`),
  ],
);

/**
 * A sign-in in progress, bound to one browser by the hash of a random token in a short-lived
 * httpOnly cookie: the returnTo stored before it starts, then the state, nonce and PKCE
 * verifier of the authorization request. Consumed (deleted) by the callback: single use.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    /** SHA-256 of the random token in the sign-in cookie. */
    id: text().primaryKey(),
    returnTo: text(),
    state: text(),
    nonce: text(),
    codeVerifier: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_attempts_expires_at_idx').on(t.expiresAt)],
);

export const imageKind = pgEnum('image_kind', ['original', 'staged']);

/**
 * A stored image file: an upload, normalised to JPEG, or a staged result.
 * Storage keys are derived from the id (storage/keys.ts), never from a user's file name; the
 * WebP thumbnail lives under a key derived from the same id.
 */
export const images = pgTable(
  'images',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    kind: imageKind().notNull(),
    storageKey: text().notNull().unique(),
    contentType: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    bytes: integer().notNull(),
    /** Hex SHA-256 of the stored bytes: the ETag. */
    sha256: text().notNull(),
    /** An API upload's Idempotency-Key and the SHA-256 of its request: a replay answers this image. */
    idempotencyKey: text(),
    idempotencyFingerprint: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('images_user_id_idx').on(t.userId),
    uniqueIndex('images_user_id_idempotency_key_idx')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    check('images_idempotency_key_with_fingerprint', sql`(${t.idempotencyKey} is null) = (${t.idempotencyFingerprint} is null)`),
  ],
);

export const jobStatus = pgEnum('job_status', ['pending', 'processing', 'completed', 'failed']);

/**
 * A staging job. The worker claims it with a lease (lease_token, lease_expires_at); completing,
 * failing and refunding are conditional on the token. style and room_type are validated at the
 * edge (contracts), so adding a style needs no migration.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    originalImageId: uuid()
      .notNull()
      .references(() => images.id),
    stagedImageId: uuid().references(() => images.id),
    style: text().$type<Style>().notNull(),
    roomType: text().$type<RoomType>().notNull(),
    userLabel: text(),
    status: jobStatus().notNull().default('pending'),
    errorMessage: text(),
    /** Engine runs started (claims and in-process retries); reset by a user's retry. */
    attempts: integer().notNull().default(0),
    leaseToken: uuid(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /** Higher is claimed first (buyers of Professional or Enterprise). */
    priority: integer().notNull().default(0),
    /** A development-only engine asked for by the request (never honoured in production). */
    requestedEngine: text(),
    /** The engine that produced the result, and how long its successful run took. */
    engine: text(),
    engineMs: integer(),
    /** The provider's model (remote engines), and its published price for the run in micro-dollars. */
    engineModel: text(),
    engineCostMicros: integer(),
    /** The structure lock's verdict, score and reasons for a generative engine's answer; null for the local engine. */
    structure: jsonb().$type<StructureReport>(),
    /**
     * The Idempotency-Key of the request that last debited for this job (its creation, or a retry),
     * and a SHA-256 of that request: a replay answers this job, another request with the key a 422.
     */
    idempotencyKey: text(),
    idempotencyFingerprint: text(),
    /** Where the job's end is POSTed as a signed event (jobs created through the API with webhookUrl). */
    webhookUrl: text(),
    /**
     * The listing photo this job stages (issue 15); null for a single staging, and once the photo
     * is removed (the job stays in the gallery: it was paid for).
     */
    listingPhotoId: uuid().references((): AnyPgColumn => listingPhotos.id, { onDelete: 'set null' }),
    /** The furniture set the engine draws from with the style: a listing's id, shared by its rooms; null lets the engine choose. */
    look: text(),
    /**
     * The completed job this one makes one more variation of (docs/decisions/0026-more-variations-for-a-credit.md): its result is
     * added to that job's variations, and it is never shown as a job of its own.
     */
    variationOf: uuid().references((): AnyPgColumn => jobs.id),
    /** The engine that made the result is paid per image: one variation for the credit, more asked for one credit each. */
    chargedPerImage: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processingStartedAt: timestamp({ withTimezone: true }),
    processingCompletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // One job per key and user: concurrent replays of one request queue on this index.
    uniqueIndex('jobs_user_id_idempotency_key_idx')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    check('jobs_idempotency_key_with_fingerprint', sql`(${t.idempotencyKey} is null) = (${t.idempotencyFingerprint} is null)`),
    index('jobs_user_id_created_at_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    // The claim query's candidates: pending jobs, plus the few processing ones whose lease may expire.
    index('jobs_queue_idx')
      .on(t.priority.desc(), t.createdAt)
      .where(sql`${t.status} in ('pending', 'processing')`),
    index('jobs_original_image_id_idx').on(t.originalImageId),
    index('jobs_staged_image_id_idx').on(t.stagedImageId),
    // A listing photo's latest job.
    index('jobs_listing_photo_id_idx')
      .on(t.listingPhotoId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.listingPhotoId} is not null`),
    // A job's requests for more variations.
    index('jobs_variation_of_idx')
      .on(t.variationOf)
      .where(sql`${t.variationOf} is not null`),
    check('jobs_attempts_non_negative', sql`${t.attempts} >= 0`),
  ],
);

/**
 * The variations of a completed job (issue 15), in the engine's order: the local engine makes
 * several per credit, a remote one one. Owned by the jobs domain. The chosen one is the variation
 * whose image is the job's staged image (`jobs.staged_image_id`), so the gallery, downloads,
 * share pages and thumbnails follow the choice without knowing of variations.
 */
export const jobVariations = pgTable(
  'job_variations',
  {
    id: uuid().primaryKey().defaultRandom(),
    jobId: uuid()
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    imageId: uuid()
      .notNull()
      .references(() => images.id),
    index: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('job_variations_job_id_index_idx').on(t.jobId, t.index), index('job_variations_image_id_idx').on(t.imageId)],
);

// ---------------------------------------------------------------------------------------------
// Payments (issue 6): PayPal Orders v2 purchases of credit packs and PayPal's webhook events.

export const paymentStatus = pgEnum('payment_status', ['created', 'pending', 'completed', 'declined', 'failed', 'refunded']);

/**
 * One purchase of a credit pack through PayPal. The server alone sets pack, credits and amount
 * (contracts CREDIT_PACKS). Crediting is idempotent by capture: the purchase ledger row is written
 * only by the transaction that moves the row to `completed` (a conditional update), and
 * capture_id is unique. A refund or reversal removes the pack's credits as far as they are
 * unspent; `shortfall` is what could not be taken back.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    provider: text().notNull().default('paypal'),
    /** Null only between our row and PayPal's answer to create order. */
    providerOrderId: text().unique(),
    captureId: text().unique(),
    pack: text().$type<'starter' | 'professional' | 'enterprise'>().notNull(),
    credits: integer().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    status: paymentStatus().notNull().default('created'),
    /** PayPal's reason for a PENDING or DECLINED capture, or why we refused to credit. */
    statusDetail: text(),
    /** Bumped after a declined instrument, so the next capture gets a fresh PayPal-Request-Id. */
    captureAttempt: integer().notNull().default(0),
    /** Credits a refund could not remove because they were already spent. */
    shortfall: integer().notNull().default(0),
    /** What PayPal has refunded of the capture so far (its running total), in cents. */
    refundedCents: integer().notNull().default(0),
    /** Reconciliation of a `created`/`pending` payment: checks so far, and not before this time again. */
    reconcileAttempts: integer().notNull().default(0),
    nextCheckAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('payments_user_id_created_at_idx').on(t.userId, t.createdAt),
    check('payments_amount_positive', sql`${t.amountCents} > 0 and ${t.credits} > 0`),
    check('payments_shortfall_non_negative', sql`${t.shortfall} >= 0`),
    check('payments_refunded_within_amount', sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`),
    // The reconciliation sweep's candidates only.
    index('payments_reconcile_idx')
      .on(t.nextCheckAt, t.createdAt)
      .where(sql`${t.status} in ('created', 'pending')`),
  ],
);

/** PayPal webhook deliveries that passed verification, raw, one row per PayPal event id. */
export const webhookEvents = pgTable('webhook_events', {
  /** PayPal's event id (WH-...): a replayed or redelivered event is recognised by it. */
  id: text().primaryKey(),
  provider: text().notNull().default('paypal'),
  eventType: text().notNull(),
  resourceId: text(),
  /** The body exactly as received. */
  payload: text().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** Set once handled; a delivery whose handling failed is handled again when PayPal retries. */
  processedAt: timestamp({ withTimezone: true }),
});

/**
 * Rate-limit counters shared by every server process on this database (RATE_LIMIT_STORE=database):
 * one row per limiter and client, counting hits in a fixed window that ends at resets_at. The
 * next hit after that starts a new window in the same row; the workers' sweep deletes rows whose
 * window has ended.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** The limiter (route) and the client's key (user id or address). */
    key: text().primaryKey(),
    count: integer().notNull(),
    resetsAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_resets_at_idx').on(t.resetsAt)],
);

/**
 * Public share links (issue 16): `/s/{token}` shows a staging's before and after and its unaltered
 * original to anyone holding the token. The token itself is never stored, only its SHA-256: a
 * leaked table opens no page. A share has exactly one subject; today a job (one per job: a new
 * link replaces the old), and deleting the job removes its share. A listing share adds its own
 * subject column and widens the `num_nonnulls` check, without touching these rows.
 */
export const shares = pgTable(
  'shares',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Hex SHA-256 of the random token in the link. */
    tokenHash: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    jobId: uuid().references(() => jobs.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('shares_one_subject', sql`num_nonnulls(${t.jobId}) = 1`),
    uniqueIndex('shares_job_id_idx').on(t.jobId),
    index('shares_user_id_idx').on(t.userId),
  ],
);

// ---------------------------------------------------------------------------------------------
// The public API of the Enterprise pack (issue 17): keys, and signed webhooks of job ends.

/**
 * An API key. Only the SHA-256 of the secret is kept (a key is random, 256 bits, so a fast hash
 * suffices); `prefix` is its first characters, shown to tell keys apart. A revoked key stays as a
 * row (revoked_at) so its name still explains its ledger rows.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    name: text().notNull(),
    prefix: text().notNull(),
    secretHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('api_keys_user_id_idx').on(t.userId, t.createdAt)],
);

/** The per-account secret webhook deliveries are signed with (HMAC-SHA256); kept as it is, since signing needs it. */
export const webhookSecrets = pgTable('webhook_secrets', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id),
  secret: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', ['pending', 'delivered', 'failed']);

/**
 * One event to POST to a job's webhook URL, written in the transaction that ends the job. The
 * worker's sweep sends those due, with backoff, for a day; every attempt updates the row
 * (attempts, last status or error), so the row is the delivery's log. job_id has no foreign key:
 * a job deleted after it ended still has its event delivered.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    jobId: uuid().notNull(),
    url: text().notNull(),
    event: text().notNull(),
    /** The JSON body, fixed at the event: every retry sends the same bytes (with a fresh signature). */
    payload: text().notNull(),
    status: webhookDeliveryStatus().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_job_id_idx').on(t.jobId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Listings (issue 15): the photos of one property, staged together in one style.

/**
 * A listing: a title (the address, as a rule) and the style its photos are staged in. Owned by
 * the listings domain; its id is also the look the engine furnishes every room of it with.
 */
export const listings = pgTable(
  'listings',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    title: text().notNull(),
    style: text().$type<Style>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('listings_user_id_created_at_idx').on(t.userId, t.createdAt.desc(), t.id.desc())],
);

/**
 * A photo of a listing: an upload (kept from the unused-upload sweep while a photo uses it) and
 * its room type, in the order added. Deleting the listing deletes its photos; their jobs stay in
 * the gallery (they were paid for).
 */
export const listingPhotos = pgTable(
  'listing_photos',
  {
    id: uuid().primaryKey().defaultRandom(),
    listingId: uuid()
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    imageId: uuid()
      .notNull()
      .references(() => images.id),
    roomType: text().$type<RoomType>().notNull(),
    addedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('listing_photos_listing_id_added_at_idx').on(t.listingId, t.addedAt, t.id), index('listing_photos_image_id_idx').on(t.imageId)],
);
