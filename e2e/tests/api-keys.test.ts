import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, baseUrl, hasBrowser, newContext, screenshot, toastWith, useBrowserSession } from '../support/browser.ts';
import { signIn } from '../support/sign-in.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const photo = path.join(repoRoot, 'e2e/fixtures/empty-living-portrait.jpg');

/** Buys the Enterprise pack through the PayPal simulator, as a person would. */
async function buyEnterprise(page: Page): Promise<void> {
  await page.goto('/checkout/399');
  await page.getByRole('button', { name: 'Pay $399.00 with the PayPal simulator' }).click();
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL((url) => url.pathname === '/credits');
  await page.getByText('Payment Successful!').waitFor();
}

describe.skipIf(!hasBrowser())('API keys', () => {
  const session = useBrowserSession();

  it('an account without Enterprise sees what the pack includes; a buyer creates a key shown once, copies it, runs the documented script with it, and revokes it', async () => {
    const { page, context, errors } = session;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await signIn(page, { name: 'Julia Morgan', from: '/login' });
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'API Keys' }).click();
    await page.waitForURL((url) => url.pathname === '/api-keys');
    await page.getByRole('heading', { name: 'API access comes with the Enterprise pack' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('API access');
    expect(await page.getByRole('link', { name: 'See pricing' }).getAttribute('href')).toBe('/pricing');
    await screenshot(page, 'api-keys-without-enterprise');

    await buyEnterprise(page);
    await page.goto('/api-keys');
    await page.getByLabel('Key name').fill('Listing sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Key "Listing sync" created' });
    await dialog.waitFor();
    const secret = (await dialog.getByLabel('API key', { exact: true }).innerText()).trim();
    expect(secret).toMatch(/^rs_live_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy API key' }).click();
    await dialog.getByRole('button', { name: 'API key copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'api-keys-created');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus is back at the form (the dialog returns it a tick after it leaves the page, as the
    // other dialogs' tests wait for), and the key is never shown again: only its prefix.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('api-key-name');
    const list = page.getByRole('list', { name: 'API keys' });
    await expect.poll(() => list.innerText()).toContain(`${secret.slice(0, 16)}...`);
    expect(await page.locator('body').innerText()).not.toContain(secret.slice(16));
    await page.reload();
    await list.waitFor();
    expect(await page.content()).not.toContain(secret.slice(16));

    // The webhook secret, after a failed first try: the card says so and tries again.
    await page.route('**/api/api-keys/webhook-secret', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service unavailable' }) }), { times: 1 });
    await page.getByRole('button', { name: 'Show secret' }).click();
    await page.getByRole('alert').filter({ hasText: 'The secret could not be loaded: Service unavailable' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByLabel('Webhook secret', { exact: true }).innerText()).toMatch(/^whsec_/);
    errors.splice(0, errors.length, ...errors.filter((e) => !/status of 503/.test(e)));

    // The reference's script, with this key, against this server.
    const out = await mkdtemp(path.join(tmpdir(), 'roomstager-api-example-'));
    try {
      const { stdout } = await promisify(execFile)('bash', ['scripts/api-example.sh', photo, path.join(out, 'staged.jpg')], {
        cwd: repoRoot,
        env: { ...process.env, ROOMSTAGER_URL: baseUrl(), ROOMSTAGER_KEY: secret },
        timeout: 240_000,
      });
      expect(stdout).toMatch(/job [0-9a-f-]+ is completed/);
      expect(stdout).toContain('credits left: 252');
      expect((await stat(path.join(out, 'staged.jpg'))).size).toBeGreaterThan(10_000);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
    await page.reload();
    await expect.poll(() => list.innerText()).toMatch(/Last used/);
    await screenshot(page, 'api-keys-list', true);

    await page.getByRole('button', { name: 'Revoke Listing sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke "Listing sync"?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await toastWith(page, 'Key revoked').waitFor();
    await page.getByText('No keys yet.').waitFor();
    const refused = await fetch(`${baseUrl()}/api/v1/account`, { headers: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    expect(errors.join('\n')).toBe('');
  }, 300_000);

  it('works at phone width', async () => {
    const phone = await newContext(session.browser, { mobile: true });
    try {
      const page = await phone.newPage();
      await signIn(page, { name: 'Eileen Gray', from: '/login' });
      await buyEnterprise(page);
      await page.goto('/generate');
      await page.getByRole('button', { name: /menu/i }).first().click();
      await page.getByRole('link', { name: 'API Keys' }).click();
      await page.waitForURL((url) => url.pathname === '/api-keys');
      await page.getByLabel('Key name').fill('Phone key');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('dialog', { name: 'Key "Phone key" created' }).waitFor();
      await screenshot(page, 'api-keys-created-phone');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'Revoke Phone key' }).click();
      await page.getByRole('dialog', { name: 'Revoke "Phone key"?' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'api-keys-revoke-phone');
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('No keys yet.').waitFor();
      await page.goto('/docs/api');
      await page.getByRole('heading', { name: 'RoomStager API', level: 1 }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'api-docs-phone');
    } finally {
      await phone.close();
    }
  }, 180_000);
});
