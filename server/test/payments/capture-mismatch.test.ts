import { afterEach, describe, expect, it } from 'vitest';
import { PayPalSimulator } from '../../src/dev/paypal-simulator/simulator.ts';
import { PayPalClient, type PayPalOrder } from '../../src/integrations/paypal.ts';
import { databaseKinds } from '../helpers.ts';
import { approvedOrder, balanceOf, capture, confirm, newBuyer, paymentOf, purchaseRows, usePaymentsApp } from './payment-helpers.ts';

type Tamper = (capture: Record<string, unknown>) => void;

/** The real client to the simulator, with the capture in PayPal's answers altered on the way. */
class TamperingClient extends PayPalClient {
  tamper: Tamper | undefined;
  private apply(order: PayPalOrder): PayPalOrder {
    const captured = order.purchase_units?.[0]?.payments?.captures?.[0];
    if (captured && this.tamper) this.tamper(captured as Record<string, unknown>);
    return order;
  }
  override async captureOrder(orderId: string, requestId: string): Promise<PayPalOrder> {
    return this.apply(await super.captureOrder(orderId, requestId));
  }
  override async getOrder(orderId: string): Promise<PayPalOrder> {
    return this.apply(await super.getOrder(orderId));
  }
}

describe.each(databaseKinds)('a capture that is not what the server asked for, on %s', (kind) => {
  const sim = new PayPalSimulator('http://localhost:3000/dev/paypal');
  const paypal = new TamperingClient({ baseUrl: sim.baseUrl, clientId: sim.clientId, clientSecret: sim.clientSecret, fetch: sim.fetch });
  const t = usePaymentsApp({ kind, overrides: { paypalSimulator: sim, paypal } });
  afterEach(() => {
    paypal.tamper = undefined;
  });

  it.each<[string, Tamper]>([
    ['a smaller amount', (c) => void (c.amount = { currency_code: 'USD', value: '1.00' })],
    ['a larger amount', (c) => void (c.amount = { currency_code: 'USD', value: '890.00' })],
    ['another currency', (c) => void (c.amount = { currency_code: 'EUR', value: '89.00' })],
    ['a malformed amount', (c) => void (c.amount = { currency_code: 'USD', value: '89.00000001' })],
    ['no amount', (c) => void delete c.amount],
    ["another payment's custom id", (c) => void (c.custom_id = '00000000-0000-4000-8000-000000000000')],
  ])('is not credited: %s', async (_label, tamper) => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    paypal.tamper = tamper;
    const res = await capture(t.app, buyer, id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'PAYMENT_FAILED' });
    expect((await confirm(t.app, buyer, id)).statusCode).toBe(409);
    expect(await paymentOf(t.container.database, id)).toMatchObject({ status: 'failed', statusDetail: 'CAPTURE_MISMATCH' });
    expect(await purchaseRows(t.container.database, buyer.id)).toHaveLength(0);
    expect(await balanceOf(t.container.database, buyer.id)).toBe(3);
  });

  it('is credited when the amount is written differently but equal ("89" for 89.00)', async () => {
    const buyer = await newBuyer(t.app);
    const id = await approvedOrder(t, buyer);
    paypal.tamper = (c) => void (c.amount = { currency_code: 'USD', value: '89' });
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });
  });
});
