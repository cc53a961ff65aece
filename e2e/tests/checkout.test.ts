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

  it('an unknown amount goes back to the plans', async () => {
    await signIn(page, { name: 'Eero Saarinen' });
    await page.goto('/checkout/25');
    await page.waitForURL((url) => url.pathname === '/pricing');
    await toastWith(page, 'Package not found').waitFor();
  });
});
