import type { Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { axeViolations, hasBrowser, screenshot, toastWith, useBrowserSession } from '../support/browser.ts';
import { signIn, uniqueEmail } from '../support/sign-in.ts';

describe.skipIf(!hasBrowser())('buying credits', () => {
  const session = useBrowserSession();
  let page: Page;
  let errors: string[];
  beforeEach(() => {
    ({ page, errors } = session);
  });

  it('a signed-out visitor picks Professional, signs in, pays through the simulator and gets 50 credits once', async () => {
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Choose Professional' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.getByLabel('Name').fill('Florence Knoll');
    await page.getByLabel('Email').fill(uniqueEmail('florence'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout/89');
    const main = page.locator('main');
    await expect.poll(() => main.innerText()).toContain('Credits never expire');
    expect(await main.innerText()).toMatch(/Professional[\s\S]*50[\s\S]*\$89\.00/);
    await page.getByRole('button', { name: 'Pay $89.00 with the PayPal simulator' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.pathname === '/credits');
    await page.getByText('Payment Successful!').waitFor();
    await expect.poll(() => page.getByTestId('credits-page-balance').innerText()).toBe('53');
    await expect.poll(() => main.innerText()).toContain('Professional pack: 50 credits');
    expect(await main.getByText('+50', { exact: true }).getAttribute('class')).toContain('text-green-700');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'credits-after-purchase');

    await page.reload();
    await page.getByRole('heading', { name: 'Credits & Billing' }).waitFor();
    expect(await page.getByText('Payment Successful!').count()).toBe(0);
    await expect.poll(() => page.getByTestId('credits-page-balance').innerText()).toBe('53');

    await page.goto('/profile');
    await expect.poll(() => main.innerText()).toMatch(/Credits Purchased\s*50[\s\S]*Total Spent\s*\$89\.00/);
    expect(errors.join('\n')).toBe('');
  });

  it('cancelling at PayPal says so and lets the buyer try again', async () => {
    await signIn(page, { name: 'Charlotte Perriand', from: '/login' });
    await page.goto('/checkout/19');
    await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).click();
    await page.getByRole('link', { name: /Cancel/ }).or(page.getByRole('button', { name: /Cancel/ })).first().click();
    await page.waitForURL((url) => url.pathname === '/checkout/19');
    await page.getByText('Payment was cancelled. You can try again when ready.').waitFor();
    expect(await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).isEnabled()).toBe(true);
    await screenshot(page, 'checkout-cancelled');
    expect(await page.getByTestId('credits-balance').innerText()).toBe('3');
  });

  it("a return address without PayPal's approval captures nothing; approving afterwards still pays", async () => {
    await signIn(page, { name: 'Lina Bo Bardi', from: '/login' });
    await page.goto('/checkout/19');
    const captures: string[] = [];
    page.on('request', (req) => {
      if (/\/api\/paypal\/order\/[^/]+\/capture$/.test(new URL(req.url()).pathname)) captures.push(req.url());
    });
    await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    const approvalPage = page.url();
    const orderId = new URL(approvalPage).searchParams.get('token') ?? '';
    // Back to the shop before approving: the order id alone is no approval.
    await page.goto(`/checkout/19?token=${encodeURIComponent(orderId)}`);
    await page.getByText('Payment was cancelled. You can try again when ready.').waitFor();
    expect(captures).toEqual([]);
    await page.goto(approvalPage);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.pathname === '/credits');
    await expect.poll(() => page.getByTestId('credits-page-balance').innerText()).toBe('13');
    expect(captures).toHaveLength(1);
  });

  it('a declined funding source (INSTRUMENT_DECLINED) asks for another way to pay, and paying again works', async () => {
    await signIn(page, { name: 'Gae Aulenti', from: '/login' });
    await page.goto('/checkout/19');
    // PayPal declines the buyer's funding source at capture; the server answers 422 INSTRUMENT_DECLINED.
    await page.route('**/api/paypal/order/*/capture', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Your payment method was declined. Please choose another way to pay.', error: 'INSTRUMENT_DECLINED' }),
      }),
    );
    await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout/19');
    await page.getByText('Your payment method was declined. Please choose another way to pay.').waitFor();
    expect(await page.getByText('PayPal Error').count()).toBe(0);
    expect(await page.getByText('Payment processing failed. Please try again.').count()).toBe(0);
    await screenshot(page, 'checkout-instrument-declined');

    await page.unroute('**/api/paypal/order/*/capture');
    await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.pathname === '/credits');
    await page.getByText('Payment Successful!').waitFor();
    await expect.poll(() => page.getByTestId('credits-page-balance').innerText()).toBe('13');
    expect(errors.filter((e) => !/status of 422/.test(e)).join('\n')).toBe('');
  });

  it('a PENDING capture is polled until PayPal completes it, then the credits arrive', async () => {
    await signIn(page, { name: 'Marcel Breuer', from: '/login' });
    await page.goto('/checkout/19');
    // PayPal holds the capture (PENDING) at first; the server's confirmation says so twice, then
    // answers for real (it captures the approved order at the simulator: COMPLETED).
    const pendingAnswer = (orderID: string) => JSON.stringify({ id: orderID, status: 'PENDING', pack: 'starter', credits: 10, balance: 3, captureId: 'CAPTURE-PENDING' });
    await page.route('**/api/paypal/order/*/capture', (route) => {
      const orderID = new URL(route.request().url()).pathname.split('/')[4] ?? '';
      return route.fulfill({ status: 200, contentType: 'application/json', body: pendingAnswer(orderID) });
    });
    const confirmations: number[] = [];
    await page.route('**/api/payments/paypal-success', (route) => {
      confirmations.push(Date.now());
      const { orderID } = route.request().postDataJSON() as { orderID: string };
      if (confirmations.length <= 2) return route.fulfill({ status: 200, contentType: 'application/json', body: pendingAnswer(orderID) });
      return route.fallback();
    });
    await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout/19');
    await page.getByText('PayPal is still processing your payment. Your credits will be added as soon as it completes.').waitFor();
    // No second payment while PayPal decides.
    expect(await page.getByRole('button', { name: 'Pay $19.00 with the PayPal simulator' }).count()).toBe(0);
    await screenshot(page, 'checkout-pending');
    await page.waitForURL((url) => url.pathname === '/credits', { timeout: 30_000 });
    await page.getByText('Payment Successful!').waitFor();
    await expect.poll(() => page.getByTestId('credits-page-balance').innerText()).toBe('13');
    // The confirmation after capture, then polls 2 s and 4 s apart.
    expect(confirmations).toHaveLength(3);
    expect((confirmations[2] ?? 0) - (confirmations[1] ?? 0)).toBeGreaterThanOrEqual(3500);
    expect(errors.join('\n')).toBe('');
  });

  it('an unknown amount goes back to the plans', async () => {
    await signIn(page, { name: 'Eero Saarinen' });
    await page.goto('/checkout/25');
    await page.waitForURL((url) => url.pathname === '/pricing');
    await toastWith(page, 'Package not found').waitFor();
  });
});
