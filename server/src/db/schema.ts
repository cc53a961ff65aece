import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const creditTransactionType = pgEnum('credit_transaction_type', ['purchase', 'usage', 'refund', 'grant']);

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
    /** Signed: purchases, refunds and grants positive, usage negative. */
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
