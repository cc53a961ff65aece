import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { payments, webhookEvents } from '../../src/db/schema.ts';
import { createTestApp, databaseKinds } from '../helpers.ts';
import {
  approvedOrder,
  balanceOf,
  call,
  capture,
  confirm,
  createOrder,
  deliver,
  newBuyer,
  paymentOf,
  purchaseRows,
  simulator,
  usePaymentsApp,
  type Buyer,
} from './payment-helpers.ts';

describe.each(databaseKinds)('PayPal checkout against the simulator on %s', (kind) => {
  const t = usePaymentsApp({ kind });

  const paymentCount = async (userId: string) =>
    (await t.container.database.db.select().from(payments).where(eq(payments.userId, userId))).length;

  it('answers the client id and that PayPal is simulated', async () => {
    const res = await call(t.app, undefined, 'GET', '/api/paypal/client-id');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ clientId: simulator(t).clientId, environment: 'simulator' });
  });

  it('creates an order for the pack the amount selects, priced by the server, tied to the caller', async () => {
    const buyer = await newBuyer(t.app);
    const res = await call(t.app, buyer, 'POST', '/api/paypal/order', { amount: 89, currency: 'USD', intent: 'CAPTURE' });
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    expect(res.json()).toEqual({ id: expect.any(String) });
    const payment = await paymentOf(t.container.database, id);
    expect(payment).toMatchObject({ userId: buyer.id, pack: 'professional', credits: 50, amountCents: 8900, currency: 'USD', status: 'created' });
    const order = simulator(t).order(id);
    expect(order?.unit).toMatchObject({
      amount: { currency_code: 'USD', value: '89.00' },
      custom_id: payment?.id,
      description: 'Professional pack: 50 credits',
    });
    expect(order?.intent).toBe('CAPTURE');
  });

  it.each([
    ['amount 1', { amount: 1, currency: 'USD', intent: 'CAPTURE' }],
    ['amount 18.99', { amount: 18.99, currency: 'USD', intent: 'CAPTURE' }],
    ['amount -19', { amount: -19, currency: 'USD', intent: 'CAPTURE' }],
    ['amount 1e9', { amount: 1e9, currency: 'USD', intent: 'CAPTURE' }],
    ['amount "19"', { amount: '19', currency: 'USD', intent: 'CAPTURE' }],
    ['amount 19.001', { amount: 19.001, currency: 'USD', intent: 'CAPTURE' }],
    ['amount 0', { amount: 0, currency: 'USD', intent: 'CAPTURE' }],
    ['no amount', { currency: 'USD', intent: 'CAPTURE' }],
    ['currency EUR', { amount: 19, currency: 'EUR', intent: 'CAPTURE' }],
    ['currency usd', { amount: 19, currency: 'usd', intent: 'CAPTURE' }],
    ['intent AUTHORIZE', { amount: 19, currency: 'USD', intent: 'AUTHORIZE' }],
    ['intent capture', { amount: 19, currency: 'USD', intent: 'capture' }],
    ['a credits field', { amount: 19, currency: 'USD', intent: 'CAPTURE', credits: 9999 }],
  ])('refuses %s with a clear 400 and records nothing', async (_label, payload) => {
    const buyer = await newBuyer(t.app);
    const res = await call(t.app, buyer, 'POST', '/api/paypal/order', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Invalid request body: /);
    expect(await paymentCount(buyer.id)).toBe(0);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
  });

  it('names the allowed amounts in the message', async () => {
    const buyer = await newBuyer(t.app);
    const res = await call(t.app, buyer, 'POST', '/api/paypal/order', { amount: 25, currency: 'USD', intent: 'CAPTURE' });
    expect(res.json()).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('19, 89, 399') });
    const currency = await call(t.app, buyer, 'POST', '/api/paypal/order', { amount: 19, currency: 'EUR', intent: 'CAPTURE' });
    expect(currency.json().message).toContain('Only USD payments are accepted');
  });

  it('creates an order by pack name and answers the approval link', async () => {
    const buyer = await newBuyer(t.app);
    const res = await call(t.app, buyer, 'POST', '/api/payments/create-order', { creditPackage: 'enterprise' });
    expect(res.statusCode).toBe(201);
    const { id, approveUrl } = res.json();
    expect(approveUrl).toBe(`http://localhost:3000/dev/paypal/checkoutnow?token=${id}`);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ pack: 'enterprise', credits: 250, amountCents: 39900 });
    for (const bad of [{ creditPackage: 'gold' }, { creditPackage: 'Starter' }, {}, { creditPackage: 'starter', amount: 1 }]) {
      const refused = await call(t.app, buyer, 'POST', '/api/payments/create-order', bad);
      expect(refused.statusCode).toBe(400);
    }
  });

  it('refuses order creation without a session (401) or from another site (403)', async () => {
    const anonymous = await call(t.app, undefined, 'POST', '/api/paypal/order', { amount: 19, currency: 'USD', intent: 'CAPTURE' });
    expect(anonymous.statusCode).toBe(401);
    expect((await call(t.app, undefined, 'POST', '/api/payments/create-order', { creditPackage: 'starter' })).statusCode).toBe(401);
    const buyer = await newBuyer(t.app);
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/paypal/order',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json', cookie: buyer.jar.header('/api/paypal/order') },
      payload: JSON.stringify({ amount: 19, currency: 'USD', intent: 'CAPTURE' }),
    });
    expect(cross.statusCode).toBe(403);
    expect(await paymentCount(buyer.id)).toBe(0);
  });

  it('refuses to capture an order nobody approved (ORDER_NOT_APPROVED), adding nothing', async () => {
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer);
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ORDER_NOT_APPROVED' });
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect((await paymentOf(t.container.database, id))?.status).toBe('created');
  });

  it.each([
    ['capture', (buyer: Buyer, id: string) => capture(t.app, buyer, id)],
    ['confirmation', (buyer: Buyer, id: string) => confirm(t.app, buyer, id)],
  ])('a capture tried before the approval does not poison the order: approved at PayPal, the next %s credits it', async (_label, settle) => {
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer, 'starter');
    for (const early of [await capture(t.app, buyer, id), await confirm(t.app, buyer, id)]) {
      expect(early.statusCode).toBe(422);
      expect(early.json()).toMatchObject({ error: 'ORDER_NOT_APPROVED' });
    }
    // The buyer approves on PayPal's page, as a browser would.
    const page = await t.app.inject({
      method: 'POST',
      url: '/dev/paypal/checkoutnow',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: id, action: 'approve' }).toString(),
    });
    expect(page.statusCode).toBeLessThan(400);
    expect(simulator(t).order(id)?.status).toBe('APPROVED');
    const res = await settle(buyer, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'COMPLETED', balance: 13 });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
  });

  it('captures an approved order and records the purchase once: ledger row, balance, stats, history, priority', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, status: 'COMPLETED', pack: 'professional', credits: 50, balance: 53, captureId: expect.any(String) });
    const payment = await paymentOf(t.container.database, id);
    expect(payment).toMatchObject({ status: 'completed', captureId: res.json().captureId });

    // Again, and the browser's confirmation with made-up capture data: nothing more.
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
    const confirmed = await confirm(t.app, buyer, id, { status: 'COMPLETED', amount: 1_000_000, credits: 9999 });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'COMPLETED', balance: 53 });

    const rows = await purchaseRows(t.container.database, buyer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 50, description: 'Professional pack: 50 credits', paymentId: payment?.id });
    const history = (await call(t.app, buyer, 'GET', '/api/credits/transactions')).json();
    expect(history[0]).toMatchObject({ type: 'purchase', amount: 50, description: 'Professional pack: 50 credits' });
    expect((await call(t.app, buyer, 'GET', '/api/users/stats')).json()).toEqual({ totalJobs: 0, totalCredits: 50, totalSpent: 8900 });
    expect((await call(t.app, buyer, 'GET', '/api/auth/me')).json().user.credits).toBe(53);
    expect(await t.container.database.db.transaction((tx) => t.container.payments.priorityForUser(tx, buyer.id))).toBe(1);
  });

  it('gives Enterprise buyers the highest priority and starters none', async () => {
    const starter = await newBuyer(t.app);
    await capture(t.app, starter, await approvedOrder(t, starter, 'starter'));
    const enterprise = await newBuyer(t.app);
    await capture(t.app, enterprise, await approvedOrder(t, enterprise, 'enterprise'));
    const nobody = await newBuyer(t.app);
    const db = t.container.database.db;
    expect(await t.container.payments.priorityForUser(db, starter.id)).toBe(0);
    expect(await t.container.payments.priorityForUser(db, enterprise.id)).toBe(2);
    expect(await t.container.payments.priorityForUser(db, nobody.id)).toBe(0);
    expect(await balanceOf(t.container.database, enterprise.id)).toBe(253);
  });

  it("refuses another user's order (404) without asking PayPal to capture it", async () => {
    const owner = await newBuyer(t.app, 'owner');
    const thief = await newBuyer(t.app, 'thief');
    const id = await approvedOrder(t, owner);
    for (const res of [await capture(t.app, thief, id), await confirm(t.app, thief, id)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Order not found' });
    }
    expect(simulator(t).order(id)?.status).toBe('APPROVED');
    expect(await balanceOf(t.container.database, thief.id)).toBe(3);
    expect(await balanceOf(t.container.database, owner.id)).toBe(3);
    expect((await capture(t.app, owner, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
    expect(await balanceOf(t.container.database, thief.id)).toBe(3);
  });

  it('refuses an order never created here, even one that exists at PayPal', async () => {
    const buyer = await newBuyer(t.app);
    expect((await capture(t.app, buyer, 'NOSUCHORDER123456')).statusCode).toBe(404);
    expect((await confirm(t.app, buyer, 'NOSUCHORDER123456')).statusCode).toBe(404);
    expect((await capture(t.app, buyer, '../../etc')).statusCode).toBeGreaterThanOrEqual(400);
    // An order made at PayPal by someone else's integration, approved, never recorded here.
    const outside = await t.container.paypal.createOrder(
      { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '89.00' } }] },
      'outside-order',
    );
    simulator(t).approve(outside.id);
    expect((await capture(t.app, buyer, outside.id)).statusCode).toBe(404);
    expect(simulator(t).order(outside.id)?.status).toBe('APPROVED');
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
  });

  it('answers INSTRUMENT_DECLINED so the buyer can choose another way to pay, then captures with a fresh request id', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer, 'starter');
    simulator(t).nextCapture('INSTRUMENT_DECLINED');
    const declined = await capture(t.app, buyer, id);
    expect(declined.statusCode).toBe(422);
    expect(declined.json()).toMatchObject({ error: 'INSTRUMENT_DECLINED', message: expect.any(String) });
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    simulator(t).approve(id);
    const ok = await capture(t.app, buyer, id);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'COMPLETED', balance: 13 });
  });

  it('adds nothing for a DECLINED capture (the order itself says COMPLETED)', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    simulator(t).nextCapture('DECLINED');
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'PAYMENT_DECLINED' });
    expect(simulator(t).order(id)?.status).toBe('COMPLETED');
    expect((await confirm(t.app, buyer, id)).statusCode).toBe(422);
    expect((await paymentOf(t.container.database, id))?.status).toBe('declined');
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect((await call(t.app, buyer, 'GET', '/api/users/stats')).json()).toMatchObject({ totalCredits: 0, totalSpent: 0 });
  });

  it('adds nothing for a PENDING capture until PayPal reports its completion, once', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    simulator(t).nextCapture('PENDING');
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'PENDING', balance: 3 });
    expect((await confirm(t.app, buyer, id)).json()).toMatchObject({ status: 'PENDING', balance: 3 });
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'pending', statusDetail: 'PENDING_REVIEW' });
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);

    const completed = simulator(t).completeCapture(id);
    const delivered = await deliver(t.app, completed);
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);

    // Replayed: a no-op.
    const replay = await deliver(t.app, completed);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    // The same news under a new event id (PayPal redelivers with new ids too): still once.
    expect((await deliver(t.app, simulator(t).completeCapture(id))).statusCode).toBe(200);
    expect((await confirm(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    const [stored] = await t.container.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, completed.event.id));
    expect(stored).toMatchObject({ eventType: 'PAYMENT.CAPTURE.COMPLETED', payload: completed.body });
    expect(stored?.processedAt).toBeInstanceOf(Date);
  });

  it('credits a capture the buyer never saw the answer of: ORDER_ALREADY_CAPTURED is reconciled', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    // Captured at PayPal by a request whose answer was lost (another request id).
    await t.container.paypal.captureOrder(id, 'lost-answer');
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
  });

  it('credits through the webhook alone when the buyer closed the tab after PayPal captured', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    await t.container.paypal.captureOrder(id, 'tab-closed');
    const order = simulator(t).order(id);
    const delivery = simulator(t).webhookDelivery('PAYMENT.CAPTURE.COMPLETED', {
      id: order?.capture?.id,
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '89.00' },
      supplementary_data: { related_ids: { order_id: id } },
    });
    expect((await deliver(t.app, delivery)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);
  });

  it('captures on CHECKOUT.ORDER.APPROVED when the page never did', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer, 'starter');
    const delivery = simulator(t).webhookDelivery('CHECKOUT.ORDER.APPROVED', { id, status: 'APPROVED', intent: 'CAPTURE' }, 'checkout-order');
    expect((await deliver(t.app, delivery)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(13);
    expect((await confirm(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 13 });
  });

  describe('forged and unverifiable webhooks change nothing', () => {
    let buyer: Buyer;
    let id: string;
    beforeAll(async () => {
      buyer = await newBuyer(t.app);
      id = await approvedOrder(t, buyer);
      simulator(t).nextCapture('PENDING');
      expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'PENDING' });
    });

    const expectNothingChanged = async (eventId: string) => {
      expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
      expect((await paymentOf(t.container.database, id))?.status).toBe('pending');
      expect(await t.container.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId))).toEqual([]);
    };

    it('a body changed after signing', async () => {
      const genuine = simulator(t).completeCapture(id);
      const forged = { headers: genuine.headers, body: genuine.body.replace('"89.00"', '"89.01"') };
      const res = await deliver(t.app, forged);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'WEBHOOK_UNVERIFIED', message: 'Webhook signature verification failed' });
      await expectNothingChanged(genuine.event.id);
    });

    it('a signature made up by the sender', async () => {
      const genuine = simulator(t).completeCapture(id);
      const res = await deliver(t.app, { headers: { ...genuine.headers, 'paypal-transmission-sig': Buffer.alloc(32, 7).toString('base64') }, body: genuine.body });
      expect(res.statusCode).toBe(400);
      await expectNothingChanged(genuine.event.id);
    });

    it('a signature for another webhook id, or another certificate', async () => {
      const genuine = simulator(t).completeCapture(id);
      expect((await deliver(t.app, { headers: simulator(t).sign(genuine.body, 'WH-SOMEONE-ELSE'), body: genuine.body })).statusCode).toBe(400);
      expect((await deliver(t.app, { headers: { ...genuine.headers, 'paypal-cert-url': 'https://evil.example/cert.pem' }, body: genuine.body })).statusCode).toBe(400);
      await expectNothingChanged(genuine.event.id);
    });

    it('no transmission headers, or a body that is not an event', async () => {
      const genuine = simulator(t).completeCapture(id);
      const res = await deliver(t.app, { headers: { 'content-type': 'application/json' }, body: genuine.body });
      expect(res.statusCode).toBe(400);
      expect((await deliver(t.app, { headers: genuine.headers, body: '{"nope": true}' })).statusCode).toBe(400);
      expect((await deliver(t.app, { headers: genuine.headers, body: 'not json' })).statusCode).toBe(400);
      await expectNothingChanged(genuine.event.id);
    });

    it('a re-serialised body fails verification: the raw bytes are what PayPal signed', async () => {
      const genuine = simulator(t).completeCapture(id);
      const res = await deliver(t.app, { headers: genuine.headers, body: JSON.stringify(JSON.parse(genuine.body)) });
      expect(res.statusCode).toBe(400);
      await expectNothingChanged(genuine.event.id);
      // The genuine delivery, finally, counts.
      expect((await deliver(t.app, genuine)).statusCode).toBe(200);
      expect(await balanceOf(t.container.database, buyer.id)).toBe(53);
    });
  });

  it('a verified event for a capture this server does not know is ignored', async () => {
    const delivery = simulator(t).webhookDelivery('PAYMENT.CAPTURE.COMPLETED', {
      id: 'UNKNOWNCAPTURE000',
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '399.00' },
      supplementary_data: { related_ids: { order_id: 'UNKNOWNORDER00000' } },
    });
    const res = await deliver(t.app, delivery);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('ignored');
  });

  it('a refund removes the unspent credits: all of them while unspent', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer, 'starter');
    await capture(t.app, buyer, id);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(13);
    const refund = simulator(t).refundCapture(id);
    expect((await deliver(t.app, refund)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'refunded', shortfall: 0 });
    const history = (await call(t.app, buyer, 'GET', '/api/credits/transactions')).json();
    expect(history[0]).toMatchObject({ type: 'purchase_refund', amount: -10, description: 'Starter pack refunded: 10 credits removed' });
    expect((await call(t.app, buyer, 'GET', '/api/users/stats')).json()).toEqual({ totalJobs: 0, totalCredits: 0, totalSpent: 0 });
    expect(await t.container.payments.priorityForUser(t.container.database.db, buyer.id)).toBe(0);
    // Replayed, or the reversal of the same capture later: nothing more.
    expect((await deliver(t.app, refund)).json().outcome).toBe('duplicate');
    const reversal = simulator(t).webhookDelivery('PAYMENT.CAPTURE.REVERSED', refund.event.resource, 'refund');
    expect((await deliver(t.app, reversal)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    // A refunded order is not credited again by a late capture call or confirmation.
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'REFUNDED', balance: 3 });
  });

  it('a reversal after the credits were spent removes what is left, never below zero, and records the shortfall', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    await capture(t.app, buyer, id);
    await t.container.database.db.transaction((tx) =>
      t.container.credits.record(tx, { userId: buyer.id, type: 'usage', amount: -45, description: 'Staging' }),
    );
    expect(await balanceOf(t.container.database, buyer.id)).toBe(8);
    expect((await deliver(t.app, simulator(t).refundCapture(id, 'PAYMENT.CAPTURE.REVERSED'))).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(0);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'refunded', shortfall: 42, statusDetail: 'PAYMENT.CAPTURE.REVERSED' });
    const history = (await call(t.app, buyer, 'GET', '/api/credits/transactions')).json();
    expect(history[0]).toMatchObject({ amount: -8, description: 'Professional pack refunded: 8 credits removed' });
  });

  it('rate-limits order creation per user', async () => {
    const limited = await createTestApp({ kind, env: { PAYMENT_RATE_LIMIT: '3' } });
    try {
      const buyer = await newBuyer(limited.app);
      const other = await newBuyer(limited.app);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(limited.app, buyer, 'POST', '/api/payments/create-order', { creditPackage: 'starter' })).statusCode);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const order = { amount: 19, currency: 'USD', intent: 'CAPTURE' };
      const spec: number[] = [];
      for (let i = 0; i < 4; i++) spec.push((await call(limited.app, buyer, 'POST', '/api/paypal/order', order)).statusCode);
      expect(spec).toEqual([201, 201, 201, 429]);
      const res = await call(limited.app, buyer, 'POST', '/api/paypal/order', order);
      expect(res.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.stringContaining('Too many payment requests') });
      const captures: number[] = [];
      for (let i = 0; i < 4; i++) captures.push((await capture(limited.app, buyer, 'NOSUCHORDER123456')).statusCode);
      expect(captures).toEqual([404, 404, 404, 429]);
      expect((await call(limited.app, other, 'POST', '/api/payments/create-order', { creditPackage: 'starter' })).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
