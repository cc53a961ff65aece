import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { createContainer } from '../../src/container.ts';
import type { Database } from '../../src/db/client.ts';
import { creditTransactions, payments, users } from '../../src/db/schema.ts';
import type { PayPalSimulator, WebhookDelivery } from '../../src/dev/paypal-simulator/simulator.ts';
import { CookieJar, me, signInWithDevIssuer } from '../auth/sign-in-helpers.ts';
import { createTestApp, sameOrigin, testConfig, type TestApp } from '../helpers.ts';

export interface Buyer {
  jar: CookieJar;
  id: string;
}

let counter = 0;

/** A new account through the development sign-in (3 free credits). */
export async function newBuyer(app: FastifyInstance, label = 'buyer'): Promise<Buyer> {
  const jar = new CookieJar();
  counter += 1;
  const email = `${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await signInWithDevIssuer(app, jar, { name: label, email });
  const res = await me(app, jar);
  expect(res.statusCode).toBe(200);
  return { jar, id: res.json().user.id as string };
}

/**
 * A same-origin browser call: JSON body only when there is a payload, as the web app's API client
 * (web/src/lib/api-client.ts) sends it.
 */
export function call(app: FastifyInstance, buyer: Buyer | undefined, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  const cookie = buyer?.jar.header(url);
  return app.inject({
    method,
    url,
    headers: {
      ...(method === 'POST' ? sameOrigin : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
}

export const PACK_ORDERS = {
  starter: { amount: 19, currency: 'USD', intent: 'CAPTURE' },
  professional: { amount: 89, currency: 'USD', intent: 'CAPTURE' },
  enterprise: { amount: 399, currency: 'USD', intent: 'CAPTURE' },
} as const;

/** Creates an order with the body the checkout page sends; answers its id. */
export async function createOrder(app: FastifyInstance, buyer: Buyer, pack: keyof typeof PACK_ORDERS = 'professional'): Promise<string> {
  const res = await call(app, buyer, 'POST', '/api/paypal/order', PACK_ORDERS[pack]);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export const capture = (app: FastifyInstance, buyer: Buyer, orderId: string) =>
  call(app, buyer, 'POST', `/api/paypal/order/${encodeURIComponent(orderId)}/capture`);

export const confirm = (app: FastifyInstance, buyer: Buyer, orderId: string, captureData: unknown = { status: 'COMPLETED' }) =>
  call(app, buyer, 'POST', '/api/payments/paypal-success', { orderID: orderId, captureData });

export const deliver = (app: FastifyInstance, delivery: Pick<WebhookDelivery, 'headers' | 'body'>) =>
  app.inject({ method: 'POST', url: '/api/paypal/webhook', headers: delivery.headers, payload: delivery.body });

export function simulator(t: TestApp): PayPalSimulator {
  const sim = t.container.paypalSimulator;
  if (!sim) throw new Error('The tests run against the PayPal simulator');
  return sim;
}

export type SecondServer = Pick<TestApp, 'app' | 'container' | 'close'>;

/**
 * A second server process on `t`'s database and (simulated) PayPal, with its own services, so
 * in-process coalescing cannot hide a race: on PostgreSQL with its own connection pool, on
 * PGlite sharing the one database. It mounts the simulator too: close it just before `t`.
 */
export async function secondServer(t: TestApp, env: Record<string, string> = {}): Promise<SecondServer> {
  const overrides = { paypalSimulator: simulator(t), devIssuer: t.container.devIssuer, oidc: t.container.oidc };
  if (t.databaseUrl) return createTestApp({ joinDatabaseUrl: t.databaseUrl, env, overrides });
  const container = await createContainer(testConfig(env), { ...overrides, database: { ...t.container.database, close: async () => undefined } });
  const app = await buildApp(container);
  await app.ready();
  return { app, container, close: () => app.close() };
}

/** Creates, approves (as the buyer would on PayPal) and answers the order id. */
export async function approvedOrder(t: TestApp, buyer: Buyer, pack: keyof typeof PACK_ORDERS = 'professional'): Promise<string> {
  const id = await createOrder(t.app, buyer, pack);
  simulator(t).approve(id);
  return id;
}

export async function balanceOf(database: Database, userId: string): Promise<number> {
  const [row] = await database.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row?.credits ?? Number.NaN;
}

/** The user's purchase rows and the rows refunds of purchases wrote. */
export async function purchaseRows(database: Database, userId: string) {
  return database.db
    .select()
    .from(creditTransactions)
    .where(sql`${creditTransactions.userId} = ${userId} and ${creditTransactions.type} in ('purchase', 'purchase_refund')`);
}

export async function paymentOf(database: Database, orderId: string) {
  const [row] = await database.db.select().from(payments).where(eq(payments.providerOrderId, orderId));
  return row;
}

/** The ledger invariant: users.credits = sum(ledger amounts) for every user, and never negative. */
export async function expectLedgerInvariant(database: Database): Promise<void> {
  const rows = await database.db.execute(sql`
    select u.id, u.credits, coalesce(sum(t.amount), 0)::int as ledger
    from users u left join credit_transactions t on t.user_id = u.id
    group by u.id, u.credits
    having u.credits <> coalesce(sum(t.amount), 0) or u.credits < 0`);
  const list = (rows as unknown as { rows?: unknown[] }).rows ?? (rows as unknown as unknown[]);
  expect(list).toEqual([]);
}

/** Stands for the object a beforeAll hook makes, so a test file can name it at describe time. */
function madeInBeforeAll<T extends object>(current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const made = current();
      if (!made) throw new Error('Used before the beforeAll hook that makes it');
      return Reflect.get(made, key);
    },
  });
}

/**
 * The hooks every payments test file shares: an app for the file's tests, closed after them, and
 * the ledger invariant checked after each test (after the file's own afterEach hooks: vitest runs
 * after-hooks in reverse order of registration).
 */
export function usePaymentsApp(options: Parameters<typeof createTestApp>[0]): TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(options);
  });
  afterAll(async () => {
    await app?.close();
  });
  const t = madeInBeforeAll(() => app);
  afterEach(async () => {
    await expectLedgerInvariant(t.container.database);
  });
  return t;
}

/** usePaymentsApp and a second server process on its database (secondServer, same env), closed before it. */
export function usePaymentsAppPair(options: { kind: 'pglite' | 'postgres'; env?: Record<string, string> }): { t: TestApp; second: SecondServer } {
  const t = usePaymentsApp(options);
  let second: SecondServer | undefined;
  beforeAll(async () => {
    second = await secondServer(t, options.env);
  });
  afterAll(async () => {
    await second?.close();
  });
  return { t, second: madeInBeforeAll(() => second) };
}
