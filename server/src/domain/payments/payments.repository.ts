import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { lockedBatch } from '../../db/locked-batch.ts';
import { payments, webhookEvents } from '../../db/schema.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentStatus = PaymentRow['status'];
type PaymentChange = Partial<Omit<typeof payments.$inferInsert, 'id' | 'userId'>>;

/** Every statement on `payments` and `webhook_events`. */
export class PaymentsRepository {
  constructor(private readonly db: Db) {}

  async insert(values: Pick<typeof payments.$inferInsert, 'userId' | 'pack' | 'credits' | 'amountCents' | 'currency' | 'status'>): Promise<PaymentRow> {
    const [row] = await this.db.insert(payments).values(values).returning();
    if (!row) throw new Error('Payment row was not written');
    return row;
  }

  async find(paymentId: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, paymentId));
    return row;
  }

  /** The payment, which must exist (it was read in this request). */
  async load(paymentId: string): Promise<PaymentRow> {
    const row = await this.find(paymentId);
    if (!row) throw new Error(`Payment ${paymentId} vanished`);
    return row;
  }

  async findByOrder(orderId: string, userId?: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.providerOrderId, orderId), userId === undefined ? undefined : eq(payments.userId, userId)));
    return row;
  }

  async findByCapture(captureId: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.captureId, captureId));
    return row;
  }

  /** Sets fields of the payment (with updatedAt), unconditionally. */
  async update(paymentId: string, change: PaymentChange, executor: Executor = this.db): Promise<void> {
    await executor
      .update(payments)
      .set({ updatedAt: new Date(), ...change })
      .where(eq(payments.id, paymentId));
  }

  /**
   * Sets fields of the payment only while its status is one of `from` (and, when given, its
   * capture attempt is still `attempt`); the row when the update won, else undefined. On
   * PostgreSQL the row lock makes a concurrent one wait and then see the new status.
   */
  async transition(
    paymentId: string,
    from: readonly PaymentStatus[],
    change: PaymentChange,
    executor: Executor = this.db,
  ): Promise<PaymentRow | undefined> {
    const [row] = await executor
      .update(payments)
      .set({ updatedAt: new Date(), ...change })
      .where(and(eq(payments.id, paymentId), inArray(payments.status, [...from])))
      .returning();
    return row;
  }

  /** A capture refused without capturing: the next one needs a fresh PayPal-Request-Id (unless another call bumped it already). */
  async bumpCaptureAttempt(payment: Pick<PaymentRow, 'id' | 'captureAttempt'>, statusDetail: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ captureAttempt: sql`${payments.captureAttempt} + 1`, statusDetail, updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), eq(payments.captureAttempt, payment.captureAttempt)));
  }

  /** The payment locked FOR UPDATE until `tx` ends (refunds serialise on it). */
  async lock(tx: Tx, paymentId: string): Promise<PaymentRow | undefined> {
    const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    return row;
  }

  /** The packs of the user's completed payments. */
  async completedPacks(executor: Executor, userId: string): Promise<Array<PaymentRow['pack']>> {
    const rows = await executor
      .selectDistinct({ pack: payments.pack })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, 'completed')));
    return rows.map((r) => r.pack);
  }

  /** The sum of the user's completed payments, in cents. */
  async completedCents(userId: string, executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ total: sql<string | number | null>`coalesce(sum(${payments.amountCents}), 0)` })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, 'completed')));
    return Number(row?.total ?? 0);
  }

  /**
   * Claims up to `limit` payments `created` or `pending` since before `now - afterMs` whose next
   * check is due, and pushes that check back (`afterMs` doubled per check, at most `maxDelayMs`)
   * in the same statement; concurrent claimers skip each other's rows (SKIP LOCKED).
   */
  async claimDueForCheck(now: Date, afterMs: number, maxDelayMs: number, limit: number): Promise<PaymentRow[]> {
    const due = lockedBatch(
      this.db,
      payments,
      payments.id,
      and(
        inArray(payments.status, ['created', 'pending']),
        lt(payments.createdAt, new Date(now.getTime() - afterMs)),
        or(isNull(payments.nextCheckAt), lte(payments.nextCheckAt, now)),
      ),
      limit,
      asc(payments.createdAt),
    );
    return this.db
      .update(payments)
      .set({
        reconcileAttempts: sql`${payments.reconcileAttempts} + 1`,
        nextCheckAt: sql`${now.toISOString()}::timestamptz + least(${afterMs} * power(2, ${payments.reconcileAttempts}), ${maxDelayMs}) * interval '1 millisecond'`,
      })
      .where(inArray(payments.id, due))
      .returning();
  }

  // ---- webhook events --------------------------------------------------------------------------

  /** Stores a verified event; false when it was stored before. */
  async storeEvent(event: { id: string; eventType: string; resourceId: string | null; payload: string }): Promise<boolean> {
    const [stored] = await this.db.insert(webhookEvents).values(event).onConflictDoNothing({ target: webhookEvents.id }).returning({ id: webhookEvents.id });
    return stored !== undefined;
  }

  async eventProcessed(eventId: string): Promise<boolean> {
    const [row] = await this.db.select({ processedAt: webhookEvents.processedAt }).from(webhookEvents).where(eq(webhookEvents.id, eventId));
    return Boolean(row?.processedAt);
  }

  async markEventProcessed(eventId: string): Promise<void> {
    await this.db.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, eventId));
  }
}
