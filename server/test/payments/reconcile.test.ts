import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { payments } from '../../src/db/schema.ts';
import { createWorker, type Worker } from '../../src/worker/worker.ts';
import { databaseKinds } from '../helpers.ts';
import {
  approvedOrder,
  balanceOf,
  capture,
  createOrder,
  newBuyer,
  paymentOf,
  purchaseRows,
  simulator,
  usePaymentsAppPair,
} from './payment-helpers.ts';

const MINUTE = 60_000;

/**
 * Payments PayPal never told us the end of (approved and never captured, a PENDING
 * capture, webhooks missing) are settled by the worker's sweep, through the capture path, once.
 */
describe.each(databaseKinds)('reconciliation of unsettled payments on %s', (kind) => {
  const { t, second } = usePaymentsAppPair({ kind });
  let worker: Worker;
  let otherWorker: Worker;
  beforeAll(() => {
    worker = createWorker(t.container);
    otherWorker = createWorker(second.container);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The order was created `ageMs` ago, and its next check is due. */
  const age = (orderId: string, ageMs: number) =>
    t.container.database.db
      .update(payments)
      .set({ createdAt: new Date(Date.now() - ageMs), nextCheckAt: null })
      .where(eq(payments.providerOrderId, orderId));

  it('approved and never captured (the buyer closed the window): the sweep captures and credits once', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    // Not yet: younger than PAYMENT_RECONCILE_AFTER_MINUTES (10).
    await age(id, 5 * MINUTE);
    await worker.reconcilePayments();
    expect((await paymentOf(t.container.database, id))?.status).toBe('created');

    await age(id, 15 * MINUTE);
    expect(await worker.reconcilePayments()).toBeGreaterThanOrEqual(1);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'completed', captureId: simulator(t).order(id)?.capture?.id });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);

    // Swept again, and the page's capture arriving late: nothing more.
    await age(id, 15 * MINUTE);
    await worker.reconcilePayments();
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
  });

  it('captured too early (ORDER_NOT_APPROVED), then approved and abandoned: the sweep still captures and credits it', async () => {
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer);
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ error: 'ORDER_NOT_APPROVED' });
    simulator(t).approve(id);
    await age(id, 15 * MINUTE);
    expect(await worker.reconcilePayments()).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(t.container.database, id))?.status).toBe('completed');
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);
  });

  it('sweeps of two workers and capture calls through two servers at once: one credit', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer, 'enterprise');
    await age(id, 15 * MINUTE);
    const [, , first, other] = await Promise.all([
      worker.reconcilePayments(),
      otherWorker.reconcilePayments(),
      capture(second.app, buyer, id),
      capture(t.app, buyer, id),
    ]);
    for (const res of [first, other]) expect(res.statusCode, res.body).toBe(200);
    for (const res of [first, other]) expect(res.json()).toMatchObject({ status: 'COMPLETED', balance: 253 });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(253);
  });

  it('a capture PayPal holds (PENDING), completed later without a webhook: credited once by a later sweep', async () => {
    const buyer = await newBuyer(t.app);
    const sim = simulator(t);
    sim.nextCapture('PENDING');
    const id = await approvedOrder(t, buyer, 'starter');
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'PENDING', balance: 3 });
    await age(id, 15 * MINUTE);
    await worker.reconcilePayments();
    expect((await paymentOf(t.container.database, id))?.status).toBe('pending');
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);

    sim.completeCapture(id); // the event is never delivered
    await age(id, 30 * MINUTE);
    await Promise.all([worker.reconcilePayments(), otherWorker.reconcilePayments()]);
    await age(id, 30 * MINUTE);
    await worker.reconcilePayments();
    expect((await paymentOf(t.container.database, id))?.status).toBe('completed');
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(13);
  });

  it('never approved: checked with pauses that grow, expired after the approval window, never credited nor captured', async () => {
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer);
    const getOrder = vi.spyOn(t.container.paypal, 'getOrder');
    const captureOrder = vi.spyOn(t.container.paypal, 'captureOrder');
    await age(id, 15 * MINUTE);
    await worker.reconcilePayments();
    const checked = await paymentOf(t.container.database, id);
    expect(checked).toMatchObject({ status: 'created', reconcileAttempts: 1 });
    expect(checked?.nextCheckAt?.getTime()).toBeGreaterThan(Date.now() + 9 * MINUTE);
    // The next sweep leaves it alone: its check is not due.
    await worker.reconcilePayments();
    await worker.reconcilePayments();
    expect(getOrder.mock.calls.filter(([orderId]) => orderId === id)).toHaveLength(1);
    await t.container.database.db.update(payments).set({ nextCheckAt: null }).where(eq(payments.providerOrderId, id));
    await worker.reconcilePayments();
    const again = await paymentOf(t.container.database, id);
    expect(again?.reconcileAttempts).toBe(2);
    // The pause doubled: 20 minutes.
    expect(again?.nextCheckAt?.getTime()).toBeGreaterThan(Date.now() + 19 * MINUTE);

    await age(id, 4 * 60 * MINUTE);
    await worker.reconcilePayments();
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'failed', statusDetail: 'ORDER_EXPIRED' });
    expect(captureOrder).not.toHaveBeenCalled();
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ error: 'PAYMENT_FAILED' });
  });

  it('a voided order ends the payment; an order whose creation PayPal never answered expires without a call', async () => {
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer);
    simulator(t).voidOrder(id);
    await age(id, 15 * MINUTE);
    await worker.reconcilePayments();
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'failed', statusDetail: 'ORDER_VOIDED' });

    const [orphan] = await t.container.database.db
      .insert(payments)
      .values({ userId: buyer.id, pack: 'starter', credits: 10, amountCents: 1900, currency: 'USD', createdAt: new Date(Date.now() - 4 * 60 * MINUTE) })
      .returning();
    const getOrder = vi.spyOn(t.container.paypal, 'getOrder');
    await worker.reconcilePayments();
    const [row] = await t.container.database.db.select().from(payments).where(eq(payments.id, orphan?.id ?? ''));
    expect(row).toMatchObject({ status: 'failed', statusDetail: 'ORDER_EXPIRED' });
    expect(getOrder).not.toHaveBeenCalled();
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
  });
});
