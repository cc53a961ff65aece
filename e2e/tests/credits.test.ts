import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { axeViolations, hasBrowser, screenshot, useBrowserSession } from '../support/browser.ts';
import { signIn } from '../support/sign-in.ts';

describe.skipIf(!hasBrowser())('credits and billing', () => {
  const session = useBrowserSession();
  let page: Page;
  let errors: string[];
  beforeEach(() => {
    ({ page, errors } = session);
  });

  it('a signed-out visitor is sent to sign in and comes back to /credits', async () => {
    const stored = page.waitForRequest((r) => r.url().endsWith('/api/auth/store-return-url'));
    await page.goto('/credits');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    expect((await stored).postDataJSON()).toEqual({ returnTo: '/credits' });
  });

  it('shows the balance, the status, the actions and the free trial grant', async () => {
    await signIn(page, { name: 'Lilian Gilbreth', from: '/login' });
    await page.goto('/credits');
    await page.getByRole('heading', { name: 'Credits & Billing' }).waitFor();
    expect(await page.getByTestId('credits-page-balance').innerText()).toBe('3');
    const main = page.locator('main');
    await expect.poll(() => main.innerText()).toContain('Free trial credits');
    const text = await main.innerText();
    expect(text).toContain('Active');
    expect(text).not.toContain('Get Started with Credits');
    expect(text).not.toContain('Payment Successful!');
    expect(await page.getByRole('link', { name: 'Start Staging' }).getAttribute('href')).toBe('/generate');
    expect(await page.getByRole('link', { name: 'Buy More Credits' }).getAttribute('href')).toBe('/pricing');
    const amount = main.getByText('+3', { exact: true });
    expect(await amount.getAttribute('class')).toContain('text-green-700');
    expect(text).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'credits');
    expect(errors.join('\n')).toBe('');
  });

  it('at 0 credits: No Credits, Start Staging disabled, the packs card, and Generate disabled', { timeout: 120_000 }, async () => {
    await signIn(page, { name: 'Ray Eames' });
    // Spend the 3 free credits through the API, as the browser would, with a small photo.
    const photo = readFileSync(new URL('../fixtures/empty-open-plan-living-dining.jpg', import.meta.url)).toString('base64');
    const statuses = await page.evaluate(async (imageData) => {
      const post = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const { imageUrl } = (await (await post('/api/upload', { imageData, filename: 'room.jpg' })).json()) as { imageUrl: string };
      const results: number[] = [];
      for (const style of ['modern', 'luxury', 'minimalist', 'traditional']) {
        results.push((await post('/api/jobs', { originalImageUrl: imageUrl, style, userLabel: null })).status);
      }
      return results;
    }, photo);
    expect(statuses).toEqual([201, 201, 201, 402]);

    await page.goto('/credits');
    await page.getByRole('heading', { name: 'Credits & Billing' }).waitFor();
    await expect.poll(() => page.getByTestId('credits-page-balance').innerText()).toBe('0');
    const main = page.locator('main');
    expect(await main.getByText('No Credits', { exact: true }).getAttribute('class')).toContain('bg-red-700');
    expect(await page.getByRole('button', { name: 'Start Staging' }).isDisabled()).toBe(true);
    const text = await main.innerText();
    expect(text).toContain('Get Started with Credits');
    expect(text).toContain('Each credit generates one professionally staged room photo');
    expect(text).toMatch(/Starter[\s\S]*Professional[\s\S]*Enterprise/);
    expect(await page.getByRole('link', { name: 'View Pricing Plans' }).getAttribute('href')).toBe('/pricing');
    await expect.poll(() => main.getByText('-1', { exact: true }).count()).toBe(3);
    expect(await main.getByText('-1', { exact: true }).first().getAttribute('class')).toContain('text-blue-700');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'credits-zero');

    await page.goto('/generate');
    await page.locator('input[type="file"]').setInputFiles(fileURLToPath(new URL('../fixtures/empty-open-plan-living-dining.jpg', import.meta.url)));
    await page.getByText('Modern', { exact: true }).click();
    expect(await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).isDisabled()).toBe(true);
    expect(await page.locator('main').innerText()).toContain('0 credits available.');
  });

  it('shows the payment banner once and rewrites the address', async () => {
    await signIn(page, { name: 'Emily Roebling' });
    await page.goto('/credits?success=true');
    await page.getByText('Payment Successful!').waitFor();
    await expect.poll(() => page.url()).toMatch(/\/credits$/);
    await page.reload();
    await page.getByRole('heading', { name: 'Credits & Billing' }).waitFor();
    expect(await page.getByText('Payment Successful!').count()).toBe(0);
  });
});
