import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers.ts';
import {
  approvedOrder,
  balanceOf,
  capture,
  confirm,
  deliver,
  newBuyer,
  paymentOf,
  purchaseRows,
  simulator,
  usePaymentsAppPair,
} from './payment-helpers.ts';

const TIMES = 20;

/**
 * One purchase is credited exactly once, whatever arrives and however often: the capture call,
 * the browser's confirmation and PayPal's webhook, each 20 times at once, through two server
 * instances on one database (so the in-process coalescing cannot hide a race: on PostgreSQL the
 * requests really run in parallel on separate connections).
 */
describe.each(databaseKinds)('exactly-once crediting on %s', (kind) => {
  // A second server on the same database and the same (simulated) PayPal.
  const { t, second } = usePaymentsAppPair({ kind, env: { PAYMENT_RATE_LIMIT: '1000' } });

  it('capture, paypal-success and webhook arriving together, each 20 times', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    const sim = simulator(t);
    // The approval event (which makes the server capture too), 20 distinct deliveries.
    const approvals = Array.from({ length: TIMES }, () =>
      sim.webhookDelivery('CHECKOUT.ORDER.APPROVED', { id, status: 'APPROVED', intent: 'CAPTURE' }, 'checkout-order'),
    );
    const apps = [t.app, second.app];
    const answers = await Promise.all([
      ...Array.from({ length: TIMES }, (_, i) => capture(apps[i % 2] as FastifyInstance, buyer, id)),
      ...Array.from({ length: TIMES }, (_, i) => confirm(apps[(i + 1) % 2] as FastifyInstance, buyer, id)),
      ...approvals.map((a, i) => deliver(apps[i % 2] as FastifyInstance, a)),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    for (const res of answers.slice(0, 2 * TIMES)) expect(res.json()).toMatchObject({ status: 'COMPLETED', credits: 50 });

    // Then PayPal's completion event: 20 deliveries of one event and 20 of redelivered copies,
    // together with 20 more capture calls.
    const payment = await paymentOf(t.container.database, id);
    const completed = sim.webhookDelivery('PAYMENT.CAPTURE.COMPLETED', {
      id: payment?.captureId,
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '89.00' },
      supplementary_data: { related_ids: { order_id: id } },
    });
    const copies = Array.from({ length: TIMES }, () => sim.webhookDelivery('PAYMENT.CAPTURE.COMPLETED', completed.event.resource));
    const more = await Promise.all([
      ...Array.from({ length: TIMES }, (_, i) => deliver(apps[i % 2] as FastifyInstance, completed)),
      ...copies.map((c, i) => deliver(apps[i % 2] as FastifyInstance, c)),
      ...Array.from({ length: TIMES }, (_, i) => capture(apps[i % 2] as FastifyInstance, buyer, id)),
    ]);
    for (const res of more) expect(res.statusCode, res.body).toBe(200);

    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);
    expect(payment?.status).toBe('completed');
  });

  it('when PayPal captured already (lost answer): captures, confirmations and completion events at once', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer, 'enterprise');
    const sim = simulator(t);
    await t.container.paypal.captureOrder(id, 'answer-lost');
    const captureId = sim.order(id)?.capture?.id;
    const resource = { id: captureId, status: 'COMPLETED', amount: { currency_code: 'USD', value: '399.00' }, supplementary_data: { related_ids: { order_id: id } } };
    const one = sim.webhookDelivery('PAYMENT.CAPTURE.COMPLETED', resource);
    const distinct = Array.from({ length: TIMES }, () => sim.webhookDelivery('PAYMENT.CAPTURE.COMPLETED', resource));
    const apps = [t.app, second.app];
    const answers = await Promise.all([
      ...Array.from({ length: TIMES }, (_, i) => capture(apps[i % 2] as FastifyInstance, buyer, id)),
      ...Array.from({ length: TIMES }, (_, i) => confirm(apps[(i + 1) % 2] as FastifyInstance, buyer, id)),
      ...Array.from({ length: TIMES }, (_, i) => deliver(apps[i % 2] as FastifyInstance, one)),
      ...distinct.map((d, i) => deliver(apps[(i + 1) % 2] as FastifyInstance, d)),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    for (const res of answers.slice(0, 2 * TIMES)) expect(res.json()).toMatchObject({ status: 'COMPLETED', balance: 253 });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(253);
  });

  it('a refund delivered 20 times at once removes the credits once', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer, 'starter');
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ balance: 13 });
    const sim = simulator(t);
    const refund = sim.refundCapture(id);
    const copies = Array.from({ length: TIMES }, () => sim.webhookDelivery('PAYMENT.CAPTURE.REFUNDED', refund.event.resource, 'refund'));
    const apps = [t.app, second.app];
    const answers = await Promise.all([
      ...Array.from({ length: TIMES }, (_, i) => deliver(apps[i % 2] as FastifyInstance, refund)),
      ...copies.map((c, i) => deliver(apps[(i + 1) % 2] as FastifyInstance, c)),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'refunded', shortfall: 0 });
  });
});
