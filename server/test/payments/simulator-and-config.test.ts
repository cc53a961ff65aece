import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer, describeParts } from '../../src/container.ts';
import { configProblems, createTestApp, openTestDatabase, testConfig, type TestApp } from '../helpers.ts';
import { call, capture, createOrder, expectLedgerInvariant, newBuyer, simulator } from './payment-helpers.ts';

describe('the PayPal simulator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await expectLedgerInvariant(t.container.database);
    await t.close();
  });

  it('is described at start as the stand-in it is', () => {
    expect(describeParts(t.container)).toContainEqual(['payments', 'PayPal simulator (stand-in) at /dev/paypal']);
  });

  it('offers an approval page without inline scripts or styles, under the strict CSP', async () => {
    const buyer = await newBuyer(t.app);
    const res = await call(t.app, buyer, 'POST', '/api/payments/create-order', { creditPackage: 'professional' });
    const { id, approveUrl } = res.json();
    const url = new URL(approveUrl);
    const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('PayPal simulator');
    expect(page.body).toContain('Professional pack: 50 credits');
    expect(page.body).toContain('89.00 USD');
    expect(page.body).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/);
    expect(page.body).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/);
    expect(page.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toContain('paypal.com');
    const css = await t.app.inject({ method: 'GET', url: '/dev/paypal/style.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');

    // Approve: back to the checkout page with PayPal's return parameters; now capturable.
    const approve = await t.app.inject({
      method: 'POST',
      url: '/dev/paypal/checkoutnow',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: id, action: 'approve' }).toString(),
    });
    expect(approve.statusCode).toBe(303);
    const back = new URL(String(approve.headers.location));
    expect(back.origin).toBe('http://localhost:3000');
    expect(back.pathname).toBe('/checkout/89');
    expect(back.searchParams.get('token')).toBe(id);
    expect(back.searchParams.get('PayerID')).toMatch(/^[A-Z0-9]{13}$/);
    expect(simulator(t).order(id)?.status).toBe('APPROVED');
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 53 });

    // Nothing left to approve afterwards.
    const after = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(after.body).toMatch(/value="approve" disabled/);
  });

  it('cancels back to the checkout page, and the order stays uncapturable', async () => {
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer, 'starter');
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/dev/paypal/checkoutnow',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: id, action: 'cancel' }).toString(),
    });
    expect(cancel.statusCode).toBe(303);
    const back = new URL(String(cancel.headers.location));
    expect(`${back.pathname}`).toBe('/checkout/19');
    expect(back.searchParams.get('cancelled')).toBe('true');
    expect(back.searchParams.get('token')).toBe(id);
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ error: 'ORDER_NOT_APPROVED' });
  });

  it('answers 404 for an unknown order', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dev/paypal/checkoutnow?token=NOPE' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/dev/paypal/checkoutnow?token=%3Cscript%3E' })).body).not.toContain('<script>');
  });

  it('speaks OAuth like PayPal: wrong client secret and missing or expired tokens are 401', async () => {
    const basic = (secret: string) => `Basic ${Buffer.from(`${simulator(t).clientId}:${secret}`).toString('base64')}`;
    const bad = await t.app.inject({
      method: 'POST',
      url: '/dev/paypal/v1/oauth2/token',
      headers: { authorization: basic('wrong'), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: 'invalid_client' });
    const good = await t.app.inject({
      method: 'POST',
      url: '/dev/paypal/v1/oauth2/token',
      headers: { authorization: basic(simulator(t).clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(good.json()).toMatchObject({ token_type: 'Bearer', expires_in: 32400, access_token: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/dev/paypal/v2/checkout/orders/X' })).statusCode).toBe(401);

    // The app's client renews its token when the simulator forgets it.
    const buyer = await newBuyer(t.app);
    const id = await createOrder(t.app, buyer, 'starter');
    simulator(t).approve(id);
    simulator(t).expireTokens();
    expect((await capture(t.app, buyer, id)).json()).toMatchObject({ status: 'COMPLETED', balance: 13 });
  });
});

describe('PayPal configuration', () => {
  it('needs both PayPal credentials or neither, and a known PAYPAL_ENV', () => {
    expect(configProblems({ PAYPAL_CLIENT_ID: 'id' }).join()).toContain('PAYPAL_CLIENT_SECRET together');
    expect(configProblems({ PAYPAL_CLIENT_SECRET: 's' }).join()).toContain('PAYPAL_CLIENT_SECRET together');
    expect(configProblems({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_ENV: 'production' }).join()).toContain('PAYPAL_ENV');
  });

  it('picks the sandbox or live base URL, else the simulator', () => {
    expect(loadConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's' }).paypal).toMatchObject({ kind: 'paypal', env: 'sandbox', baseUrl: 'https://api-m.sandbox.paypal.com' });
    expect(loadConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_ENV: 'live', PAYPAL_WEBHOOK_ID: 'WH-1' }).paypal).toMatchObject({
      env: 'live',
      baseUrl: 'https://api-m.paypal.com',
      webhookId: 'WH-1',
    });
    expect(loadConfig({ PORT: '4000' }).paypal).toEqual({ kind: 'simulator', baseUrl: 'http://localhost:4000/dev/paypal', webhookId: undefined });
  });

  it('refuses to start production with the simulator, or with PayPal but no webhook id', async () => {
    const database = await openTestDatabase();
    try {
      const google = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'g', PUBLIC_URL: 'https://app.example' };
      await expect(createContainer(loadConfig(google), { database })).rejects.toThrow('The PayPal simulator never runs in production');
      await expect(createContainer(loadConfig({ ...google, PAYPAL_CLIENT_ID: 'p', PAYPAL_CLIENT_SECRET: 'p' }), { database })).rejects.toThrow('PAYPAL_WEBHOOK_ID');
    } finally {
      await database.close();
    }
  });

  describe('with PayPal configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { PAYPAL_CLIENT_ID: 'sandbox-client', PAYPAL_CLIENT_SECRET: 'sandbox-secret' } });
    });
    afterAll(async () => {
      await t.close();
    });

    it('mounts no simulator, loads PayPal in the CSP and answers the real client id', async () => {
      expect(t.container.paypalSimulator).toBeUndefined();
      expect(describeParts(t.container)).toContainEqual(['payments', 'PayPal (sandbox)']);
      expect((await t.app.inject({ method: 'GET', url: '/dev/paypal/checkoutnow?token=X' })).statusCode).toBe(404);
      const res = await call(t.app, undefined, 'GET', '/api/paypal/client-id');
      expect(res.json()).toEqual({ clientId: 'sandbox-client', environment: 'sandbox' });
      const csp = String(res.headers['content-security-policy']);
      for (const directive of ['script-src', 'connect-src', 'frame-src', 'img-src', 'style-src']) {
        expect(csp).toMatch(new RegExp(`${directive} [^;]*https://\\*\\.paypal\\.com`));
      }
      expect(csp).toMatch(/script-src [^;]*https:\/\/\*\.paypalobjects\.com/);
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    });

    it('refuses webhooks it cannot verify without PAYPAL_WEBHOOK_ID (503), changing nothing', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/paypal/webhook',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'C1' } }),
      });
      expect(res.statusCode).toBe(503);
    });
  });

  it('testConfig runs the simulator', () => {
    expect(testConfig().paypal.kind).toBe('simulator');
  });
});
