import { afterEach, describe, expect, it, vi } from 'vitest';
import { PayPalApiError } from '../../src/integrations/paypal.ts';
import { databaseKinds } from '../helpers.ts';
import { approvedOrder, balanceOf, capture, confirm, newBuyer, purchaseRows, simulator, usePaymentsAppPair } from './payment-helpers.ts';

/**
 * A purchase is credited exactly once (docs/decisions/0008-paypal-exactly-once.md), across
 * processes: two servers capture one order at once with the same
 * PayPal-Request-Id, and PayPal refuses the second while the first runs
 * (PREVIOUS_REQUEST_IN_PROGRESS) instead of answering ORDER_ALREADY_CAPTURED. Both callers are
 * answered with the completed purchase; it is credited once.
 */
describe.each(databaseKinds)('capture through two server processes on %s', (kind) => {
  const { t, second } = usePaymentsAppPair({ kind });
  afterEach(() => {
    simulator(t).rejectConcurrentDuplicates(undefined);
    vi.restoreAllMocks();
  });

  it('PayPal refusing the concurrent duplicate: both answers are the completed purchase, one credit', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    simulator(t).rejectConcurrentDuplicates(300);
    const lookups = [vi.spyOn(t.container.paypal, 'getOrder'), vi.spyOn(second.container.paypal, 'getOrder')];
    const answers = await Promise.all([capture(t.app, buyer, id), capture(second.app, buyer, id), confirm(second.app, buyer, id)]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    for (const res of answers) expect(res.json()).toMatchObject({ status: 'COMPLETED', credits: 50, balance: 53 });
    // The refused caller read the order again (a plain capture never does).
    expect(lookups.reduce((n, spy) => n + spy.mock.calls.length, 0)).toBeGreaterThan(0);
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(1);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(53);
  });

  it('a capture refused for good (the order stays APPROVED) is still a 502 and credits nothing', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    vi.spyOn(t.container.paypal, 'captureOrder').mockRejectedValue(new PayPalApiError('PayPal capture failed with 500', 500, 'INTERNAL_SERVER_ERROR', undefined, 'dbg'));
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'PAYMENT_PROVIDER_ERROR' });
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
  });
});
