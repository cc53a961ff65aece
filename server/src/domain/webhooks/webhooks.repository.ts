import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { lockedBatch } from '../../db/locked-batch.ts';
import { webhookDeliveries, webhookSecrets } from '../../db/schema.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** What an attempt came to: delivered, or retried after `retryInMs` unless the delivery is older than `maxAgeMs` by then. */
export type AttemptOutcome =
  | { delivered: true; statusCode: number }
  | { delivered: false; statusCode: number | null; error: string; retryInMs: number; maxAgeMs: number };

const ms = (value: number) => sql`make_interval(secs => ${value / 1000})`;

/** Every statement on `webhook_secrets` and `webhook_deliveries`. */
export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  /** The user's signing secret, written with `candidate` first if there is none (concurrent writers agree on one). */
  async secret(executor: Executor, userId: string, candidate: string): Promise<string> {
    await executor.insert(webhookSecrets).values({ userId, secret: candidate }).onConflictDoNothing();
    const [row] = await executor.select({ secret: webhookSecrets.secret }).from(webhookSecrets).where(eq(webhookSecrets.userId, userId));
    if (!row) throw new Error('Webhook secret was not written');
    return row.secret;
  }

  async insertDelivery(executor: Executor, values: { id: string; userId: string; jobId: string; url: string; event: string; payload: string }): Promise<void> {
    await executor.insert(webhookDeliveries).values(values);
  }

  /**
   * Claims up to `limit` due deliveries (FOR UPDATE SKIP LOCKED, so every worker gets others):
   * counts the attempt and moves the next one `leaseMs` away, so a worker that dies mid-send
   * leaves the delivery to be tried again, not lost. Answers them with their account's secret.
   */
  async claimDue(limit: number, leaseMs: number): Promise<Array<DeliveryRow & { secret: string }>> {
    const due = and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, sql`now()`));
    const claimed = await this.db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: sql`now() + ${ms(leaseMs)}` })
      .where(inArray(webhookDeliveries.id, lockedBatch(this.db, webhookDeliveries, webhookDeliveries.id, due, limit, webhookDeliveries.nextAttemptAt)))
      .returning();
    if (claimed.length === 0) return [];
    const secrets = await this.db
      .select()
      .from(webhookSecrets)
      .where(inArray(webhookSecrets.userId, [...new Set(claimed.map((d) => d.userId))]));
    const byUser = new Map(secrets.map((s) => [s.userId, s.secret]));
    return claimed.map((d) => {
      // Written in the same transaction as the delivery (recordEnd): never sign with an empty key.
      const secret = byUser.get(d.userId);
      if (secret === undefined) throw new Error(`webhook delivery ${d.id} has no signing secret`);
      return { ...d, secret };
    });
  }

  /** Records an attempt's outcome, fenced on the attempt count the claim set (a later claim's attempt wins). */
  async recordAttempt(delivery: Pick<DeliveryRow, 'id' | 'attempts'>, outcome: AttemptOutcome): Promise<DeliveryRow['status'] | undefined> {
    const fenced = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts));
    const set = outcome.delivered
      ? { status: 'delivered' as const, deliveredAt: sql`now()`, lastStatusCode: outcome.statusCode, lastError: null }
      : {
          status: sql<DeliveryRow['status']>`case when ${webhookDeliveries.createdAt} + ${ms(outcome.maxAgeMs)} < now() + ${ms(outcome.retryInMs)} then 'failed' else 'pending' end::webhook_delivery_status`,
          nextAttemptAt: sql`now() + ${ms(outcome.retryInMs)}`,
          lastStatusCode: outcome.statusCode,
          lastError: outcome.error,
        };
    const [row] = await this.db.update(webhookDeliveries).set(set).where(fenced).returning({ status: webhookDeliveries.status });
    return row?.status;
  }

  /** A job's deliveries (tests and support). */
  forJob(jobId: string): Promise<DeliveryRow[]> {
    return this.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId)).orderBy(webhookDeliveries.createdAt);
  }
}
