import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers.ts';
import {
  approvedOrder,
  balanceOf,
  capture,
  deliver,
  newBuyer,
  paymentOf,
  purchaseRows,
  simulator,
  usePaymentsApp,
  type Buyer,
} from './payment-helpers.ts';

/**
 * A refund or reversal event only names the capture; PayPal's capture (and refund) say what
 * happened (docs/decisions/0008-paypal-exactly-once.md). A partial refund removes
 * floor(credits x refunded / price) in all.
 */
describe.each(databaseKinds)('refunds and reversals on %s', (kind) => {
  const t = usePaymentsApp({ kind });

  /** A buyer who bought the Professional pack (50 credits for 89.00): balance 53. */
  async function bought(): Promise<{ buyer: Buyer; id: string; captureId: string; paymentId: string }> {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
    const payment = await paymentOf(t.container.database, id);
    return { buyer, id, captureId: payment?.captureId ?? '', paymentId: payment?.id ?? '' };
  }

  const sum = async (userId: string) => (await purchaseRows(t.container.database, userId)).reduce((n, r) => n + r.amount, 0);

  it('a verified event PayPal does not bear out changes nothing: the capture is not refunded, or does not exist', async () => {
    const { buyer, id, captureId, paymentId } = await bought();
    const sim = simulator(t);
    const forged = {
      id: 'REFUND0000000000X',
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '89.00' },
      custom_id: paymentId,
      links: [{ href: `${sim.baseUrl}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' }],
    };
    for (const delivery of [
      sim.webhookDelivery('PAYMENT.CAPTURE.REFUNDED', forged, 'refund'),
      sim.webhookDelivery('PAYMENT.CAPTURE.REVERSED', { id: captureId, status: 'REVERSED', custom_id: paymentId }, 'capture'),
      sim.webhookDelivery('PAYMENT.CAPTURE.REFUNDED', { ...forged, links: [{ href: `${sim.baseUrl}/v2/payments/captures/NOSUCHCAPTURE0001`, rel: 'up', method: 'GET' }] }, 'refund'),
    ]) {
      const res = await deliver(t.app, delivery);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toBe('ignored');
    }
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'completed', refundedCents: 0 });

    // A partial refund at PayPal reported as one of the whole amount: PayPal's total counts.
    const partial = sim.refundCapture(id, 'PAYMENT.CAPTURE.REFUNDED', '44.50');
    const inflated = sim.webhookDelivery('PAYMENT.CAPTURE.REFUNDED', { ...partial.event.resource, amount: { currency_code: 'USD', value: '89.00' } }, 'refund');
    expect((await deliver(t.app, inflated)).json().outcome).toBe('processed');
    expect(await balanceOf(t.container.database, buyer.id)).toBe(28);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'completed', refundedCents: 4450 });
  });

  it('a full refund removes the pack; replayed events change nothing', async () => {
    const { buyer, id } = await bought();
    const refund = simulator(t).refundCapture(id);
    expect((await deliver(t.app, refund)).json().outcome).toBe('processed');
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'refunded', refundedCents: 8900, shortfall: 0 });
    const copy = simulator(t).webhookDelivery('PAYMENT.CAPTURE.REFUNDED', refund.event.resource, 'refund');
    const answers = await Promise.all([deliver(t.app, refund), deliver(t.app, copy), deliver(t.app, refund)]);
    for (const res of answers) expect(res.statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect(await sum(buyer.id)).toBe(0);
  });

  it('partial refunds remove the proportional credits, floored, once each; the last one ends the payment refunded', async () => {
    const { buyer, id } = await bought();
    const sim = simulator(t);
    // 30.00 of 89.00: floor(50 x 3000 / 8900) = 16 credits.
    const first = sim.refundCapture(id, 'PAYMENT.CAPTURE.REFUNDED', '30.00');
    const copies = Array.from({ length: 10 }, () => sim.webhookDelivery('PAYMENT.CAPTURE.REFUNDED', first.event.resource, 'refund'));
    const answers = await Promise.all([first, ...copies, first].map((d) => deliver(t.app, d)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(37);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'completed', statusDetail: 'PARTIALLY_REFUNDED', refundedCents: 3000 });
    // The buyer keeps the tier while part of the purchase stands.
    expect(await t.container.payments.priorityForUser(t.container.database.db, buyer.id)).toBe(1);

    // 20.00 more, 50.00 in all: floor(50 x 5000 / 8900) = 28, so 12 more.
    const second = sim.refundCapture(id, 'PAYMENT.CAPTURE.REFUNDED', '20.00');
    expect((await deliver(t.app, second)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(25);
    // The first refund's event again, late (a smaller running total): nothing.
    await deliver(t.app, sim.webhookDelivery('PAYMENT.CAPTURE.REFUNDED', first.event.resource, 'refund'));
    expect(await balanceOf(t.container.database, buyer.id)).toBe(25);

    // The rest: the pack is gone in all, once.
    const rest = sim.refundCapture(id);
    expect((await deliver(t.app, rest)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'refunded', refundedCents: 8900, shortfall: 0 });
    expect((await purchaseRows(t.container.database, buyer.id)).map((r) => r.amount).sort((a, b) => a - b)).toEqual([-22, -16, -12, 50]);
  });

  it('a partial reversal after the credits were spent removes what is left and records the shortfall', async () => {
    const { buyer, id } = await bought();
    await t.container.database.db.transaction((tx) =>
      t.container.credits.record(tx, { userId: buyer.id, type: 'usage', amount: -45, description: 'Staging' }),
    );
    const reversal = simulator(t).refundCapture(id, 'PAYMENT.CAPTURE.REVERSED', '30.00');
    expect((await deliver(t.app, reversal)).statusCode).toBe(200);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(0);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'completed', refundedCents: 3000, shortfall: 8 });
  });
});
