import type { Browser, Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { axeViolations, baseUrl, hasBrowser, screenshot, toastWith, useBrowserSession, watchPageErrors } from '../support/browser.ts';
import { signIn } from '../support/sign-in.ts';
import { fixturePhoto, stagePhoto } from '../support/staging.ts';

const landscape = fixturePhoto('empty-open-plan-living-dining.jpg');
const patience = { timeout: 15_000 };

const SCREENS = {
  /** A phone of today's common width (390 CSS px), touch and all. */
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  /** A laptop's screen. */
  desktop: { viewport: { width: 1366, height: 768 } },
} as const;

/** Runs `use` on a page of a fresh context (no cookies) on that screen; the page must log no error or CSP violation. */
async function onScreen(browser: Browser, screen: keyof typeof SCREENS, use: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ baseURL: baseUrl(), ...SCREENS[screen] });
  try {
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await use(page);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

/** Stages the landscape photo as a new user and opens its dialog in the gallery. */
async function openStagedDialog(page: Page, name: string): Promise<Locator> {
  await signIn(page, { name });
  await page.goto('/generate');
  await stagePhoto(page, landscape, 'Modern');
  await page.getByRole('link', { name: 'View in Gallery' }).click();
  await page.locator('main').getByRole('button', { name: /^Open / }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Download Staged' }).waitFor(patience);
  return dialog;
}

/** Every image on the page has loaded with pixels (none broken). */
const imagesLoaded = (page: Page) =>
  page.evaluate(() => Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0));

describe.skipIf(!hasBrowser())('publishing a staging', () => {
  const session = useBrowserSession();
  let browser: Browser;
  beforeEach(() => {
    ({ browser } = session);
  });

  it('the dialog offers HD, 4K only with the Enterprise pack, a label, and a public link whose page anyone opens until it is turned off', { timeout: 240_000 }, async () => {
    await onScreen(browser, 'desktop', async (page) => {
      const dialog = await openStagedDialog(page, 'Julia Morgan');

      const hd = dialog.getByRole('radio', { name: /HD/ });
      const fourK = dialog.getByRole('radio', { name: /4K/ });
      expect(await hd.isChecked()).toBe(true);
      await dialog.getByText('4K downloads come with the Enterprise pack.').waitFor(patience);
      expect(await fourK.isDisabled()).toBe(true);
      expect(await dialog.getByRole('link', { name: 'See pricing' }).getAttribute('href')).toBe('/pricing');
      const label = dialog.getByRole('checkbox', { name: 'Stamp “Virtually Staged” on the photo' });
      expect(await label.isChecked()).toBe(false);

      // Keyboard only: focus the label's checkbox, tick it with Space, then download.
      await label.focus();
      await page.keyboard.press('Space');
      expect(await label.isChecked()).toBe(true);
      const answer = page.waitForResponse((res) => res.url().includes('/download?size=hd&label=1'));
      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download Staged' }).click();
      expect((await answer).status()).toBe(200);
      expect((await answer).headers()['content-type']).toBe('image/jpeg');
      expect((await download).suggestedFilename()).toMatch(/^staged-modern-\d{13}\.jpg$/);
      await toastWith(page, 'is being downloaded').waitFor(patience);

      await dialog.getByRole('button', { name: 'Create public link' }).click();
      const link = dialog.getByRole('textbox', { name: 'Link to the page' });
      await link.waitFor(patience);
      const url = await link.inputValue();
      expect(url).toMatch(new RegExp(`^${baseUrl()}/s/[A-Za-z0-9_-]{43}$`));
      const qr = dialog.getByRole('img', { name: 'QR code of the link to the page' });
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), patience).toBe(true);
      expect(await dialog.getByRole('link', { name: 'Download QR code' }).getAttribute('download')).toBe('roomstager-qr-code.png');
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('heading', { name: 'Public link' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'publish-dialog-desktop');

      // The page, for anyone: a fresh phone with no session.
      await onScreen(browser, 'phone', async (phone) => {
        const res = await phone.goto(url);
        expect(res?.status()).toBe(200);
        expect(res?.headers()['x-robots-tag']).toContain('noindex');
        await phone.getByRole('heading', { level: 1, name: 'Virtually staged' }).waitFor();
        expect(await phone.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
        expect(await phone.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/\/staged\.jpg$/);
        await expect.poll(() => imagesLoaded(phone), patience).toBe(true);
        expect(await phone.getByRole('img', { name: /virtually staged in the modern style/ }).count()).toBe(1);
        expect(await phone.getByRole('img', { name: /the unaltered original photo/ }).count()).toBe(1);
        const original = phone.getByRole('link', { name: 'Download the unaltered original' });
        expect(await original.getAttribute('href')).toMatch(/\/original\.jpg$/);

        // The slider by keyboard: the divide follows the range.
        const slider = phone.getByRole('slider', { name: /Compare the original photo/ });
        await slider.focus();
        for (let i = 0; i < 20; i++) await phone.keyboard.press('ArrowRight');
        expect(await phone.locator('figure.compare').evaluate((el) => (el as HTMLElement).style.getPropertyValue('--pos'))).toBe('70%');
        const scrollWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(390);
        expect(await axeViolations(phone)).toEqual([]);
        await screenshot(phone, 'share-page-phone', true);

        // Reopened later, the dialog says the link is on (its address is not kept) and turns it off:
        // the page is gone at once, and focus is on the button that makes a new one.
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        await page.locator('main').getByRole('button', { name: /^Open / }).first().click();
        await dialog.getByText(/A public link to this staging is on since/).waitFor(patience);
        expect(await dialog.getByRole('button', { name: 'Create new link' }).isVisible()).toBe(true);
        await dialog.getByRole('heading', { name: 'Public link' }).scrollIntoViewIfNeeded();
        await screenshot(page, 'publish-dialog-link-on');
        await dialog.getByRole('button', { name: 'Turn off link' }).click();
        await toastWith(page, 'Link turned off').waitFor(patience);
        const again = dialog.getByRole('button', { name: 'Create public link' });
        await expect.poll(() => again.evaluate((button) => button === document.activeElement), patience).toBe(true);
        for (const path of ['', '/original.jpg', '/staged.jpg', '/qr.png']) expect((await phone.request.get(url + path)).status(), path).toBe(404);
      });
    });
  });

  it('at phone width the dialog keeps every control reachable and labelled; the share page reads well on a laptop', { timeout: 240_000 }, async () => {
    await onScreen(browser, 'phone', async (page) => {
      const dialog = await openStagedDialog(page, 'Eileen Gray');
      await dialog.getByRole('button', { name: 'Create public link' }).click();
      const url = await dialog.getByRole('textbox', { name: 'Link to the page' }).inputValue();
      await dialog.getByRole('group', { name: 'Download size' }).scrollIntoViewIfNeeded();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'publish-dialog-phone');
      await dialog.getByRole('heading', { name: 'Public link' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'publish-dialog-phone-share');
      // Every control fits the phone's width.
      for (const name of ['Download Staged', 'Download Original', 'Copy link', 'Turn off link']) {
        const box = await dialog.getByRole('button', { name }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390, name).toBe(true);
      }

      await onScreen(browser, 'desktop', async (visitor) => {
        await visitor.goto(url);
        await expect.poll(() => imagesLoaded(visitor), patience).toBe(true);
        expect(await axeViolations(visitor)).toEqual([]);
        await screenshot(visitor, 'share-page-desktop', true);
      });
    });
  });

  it('an Enterprise buyer downloads 4K', { timeout: 240_000 }, async () => {
    await onScreen(browser, 'desktop', async (page) => {
      await signIn(page, { name: 'Lina Bo Bardi' });
      await page.goto('/checkout/399');
      await page.getByRole('button', { name: 'Pay $399.00 with the PayPal simulator' }).click();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Payment Successful!').waitFor(patience);
      await page.goto('/generate');
      await stagePhoto(page, landscape, 'Luxury');
      await page.getByRole('link', { name: 'View in Gallery' }).click();
      await page.locator('main').getByRole('button', { name: /^Open / }).first().click();
      const dialog = page.getByRole('dialog');
      const fourK = dialog.getByRole('radio', { name: /4K/ });
      await expect.poll(() => fourK.isEnabled(), patience).toBe(true);
      expect(await dialog.getByText('4K downloads come with the Enterprise pack.').count()).toBe(0);
      await fourK.check();
      const answer = page.waitForResponse((res) => res.url().includes('/download?size=4k&label=0'));
      await dialog.getByRole('button', { name: 'Download Staged' }).click();
      expect((await answer).status()).toBe(200);
      await toastWith(page, 'is being downloaded').waitFor(patience);
    });
  });
});
