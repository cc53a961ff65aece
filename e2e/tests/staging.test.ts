import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { axeViolations, hasBrowser, screenshot, toastWith, useBrowserSession } from '../support/browser.ts';
import { signIn } from '../support/sign-in.ts';

const photo = fileURLToPath(new URL('../fixtures/empty-open-plan-living-dining.jpg', import.meta.url));

async function stage(page: Page, style: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(photo);
  await page.getByRole('img', { name: /Selected photo/ }).waitFor();
  await page.getByText(style, { exact: true }).click();
  await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).click();
  await page.getByRole('progressbar', { name: 'Staging progress' }).waitFor();
  await page.getByRole('link', { name: 'View in Gallery' }).waitFor({ timeout: 90_000 });
}

describe.skipIf(!hasBrowser())('staging a photo', () => {
  const session = useBrowserSession();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  beforeEach(() => {
    ({ context, page, errors } = session);
  });

  it('a new user stages a photo in two styles, manages them in the gallery and ends with 1 credit', { timeout: 240_000 }, async () => {
    await signIn(page, { name: 'Julia Morgan' });
    await page.getByRole('heading', { name: 'Stage Your Property' }).waitFor();
    expect(await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).isDisabled()).toBe(true);
    expect(await page.locator('main').innerText()).toContain('Supports JPG, PNG up to 10MB');
    expect(await axeViolations(page)).toEqual([]);

    await stage(page, 'Modern');
    await screenshot(page, 'staging-result-modern');
    expect(await page.getByTestId('credits-balance').innerText()).toBe('2');
    expect(await page.getByTestId('before-after-slider').getByRole('slider').getAttribute('aria-valuenow')).toBe('50');

    await page.getByRole('button', { name: 'Stage another photo' }).click();
    await stage(page, 'Luxury');
    await expect.poll(() => page.getByTestId('credits-balance').innerText()).toBe('1');

    await page.getByRole('link', { name: 'View in Gallery' }).click();
    await page.getByRole('heading', { name: 'Your Gallery' }).waitFor();
    const cards = page.getByRole('button', { name: /^Open / });
    await expect.poll(() => cards.count()).toBe(2);
    expect(await cards.first().innerText()).toContain('luxury staging');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'gallery-two-jobs');

    await cards.first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/Credits Used\s*1/);
    expect(await dialog.innerText()).toMatch(/Processing Time\s*\d+m \d+s/);
    await dialog.getByRole('button', { name: 'Edit label' }).click();
    await dialog.getByLabel('Label').fill('  Oak Street living room  ');
    await page.keyboard.press('Enter');
    await toastWith(page, 'Label updated').waitFor();
    await expect.poll(() => dialog.getByRole('heading').first().innerText()).toBe('Oak Street living room');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'gallery-dialog');

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download Staged' }).click();
    expect((await download).suggestedFilename()).toMatch(/^staged-luxury-\d+\.jpg$/);
    await toastWith(page, 'is being downloaded').waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await cards.nth(1).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    await toastWith(page, 'Staging deleted').waitFor();
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().innerText()).toContain('Oak Street living room');
    expect(await page.getByTestId('credits-balance').innerText()).toBe('1');
    expect(errors.join('\n')).toBe('');
  });

  it('a failing engine shows the failed panel and keeps the credit', { timeout: 120_000 }, async () => {
    // Development-only switch of the server: this browser's jobs go to an engine that always fails.
    await context.setExtraHTTPHeaders({ 'x-test-staging-engine': 'fail' });
    await signIn(page, { name: 'Zaha Hadid' });
    await page.locator('input[type="file"]').setInputFiles(photo);
    await page.getByText('Minimalist', { exact: true }).click();
    await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).click();
    await page.getByRole('heading', { name: 'Generation Failed' }).waitFor({ timeout: 60_000 });
    // The server's message says the credit came back already; the panel does not say it twice.
    const panel = page.getByRole('alert').filter({ hasText: 'Generation Failed' });
    expect((await panel.innerText()).match(/refunded/g)).toHaveLength(1);
    await expect.poll(() => page.getByTestId('credits-balance').innerText()).toBe('3');
    await screenshot(page, 'staging-failed');
    await page.getByRole('button', { name: 'Try Again' }).click();
    expect(await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).isDisabled()).toBe(true);
    expect(await page.getByRole('img', { name: /Selected photo/ }).count()).toBe(0);

    await page.goto('/gallery');
    await page.getByRole('button', { name: /^Open / }).first().click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toMatch(/Credits Used\s*0 \(refunded\)/);
    expect(await dialog.innerText()).toContain('Staged image not available');
    expect(await dialog.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
  });

  it('refuses a file that is not a JPEG or PNG', async () => {
    await signIn(page, { name: 'Eileen Gray' });
    await page.locator('input[type="file"]').setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByText('Please upload a valid image file (JPG, PNG) under 10MB').waitFor();
    expect(await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).isDisabled()).toBe(true);
  });
});
