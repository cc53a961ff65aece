import type { Browser, Locator, Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { hasBrowser, newContext, screenshot, useBrowserSession } from '../support/browser.ts';
import { signIn } from '../support/sign-in.ts';
import { fixturePhoto, stagePhoto } from '../support/staging.ts';

const landscape = fixturePhoto('empty-open-plan-living-dining.jpg');
const portrait = fixturePhoto('empty-living-portrait.jpg');
const PORTRAIT_RATIO = 1049 / 1400;

/** The slider's box once both photos have loaded, and the width its container offers it. */
async function sliderBox(slider: Locator): Promise<{ width: number; height: number; available: number }> {
  await expect.poll(() => slider.getAttribute('aria-busy'), { timeout: 20_000 }).toBe('false');
  const box = await slider.boundingBox();
  if (!box) throw new Error('the slider is not visible');
  const available = await slider.evaluate((el) => (el.parentElement as HTMLElement).clientWidth);
  return { width: box.width, height: box.height, available };
}

/** The gallery's cards, also while a modal dialog hides them from the accessibility tree. */
const galleryCards = (page: Page) => page.locator('main').getByRole('button', { name: /^Open /, includeHidden: true });

describe.skipIf(!hasBrowser())('the gallery', () => {
  const session = useBrowserSession();
  let browser: Browser;
  let page: Page;
  let errors: string[];
  beforeEach(() => {
    ({ browser, page, errors } = session);
  });

  it("shows a portrait result in the photo's own shape across a phone's width, on /generate and in the dialog", { timeout: 180_000 }, async () => {
    const mobile = await newContext(browser, { mobile: true });
    try {
      const phone = await mobile.newPage();
      const viewport = phone.viewportSize()?.width ?? 0;
      await signIn(phone, { name: 'Charlotte Perriand' });
      await stagePhoto(phone, portrait, 'Minimalist');
      const result = await sliderBox(phone.getByTestId('before-after-slider'));
      expect(result.width / result.height).toBeCloseTo(PORTRAIT_RATIO, 1);
      expect(result.width).toBeGreaterThanOrEqual(result.available - 1);
      expect(result.width).toBeGreaterThan(viewport * 0.8);
      await screenshot(phone, 'mobile-generate-result-portrait');

      await phone.getByRole('link', { name: 'View in Gallery' }).click();
      await galleryCards(phone).first().click();
      const dialog = phone.getByRole('dialog');
      const inDialog = await sliderBox(dialog.getByTestId('before-after-slider'));
      expect(inDialog.width / inDialog.height).toBeCloseTo(PORTRAIT_RATIO, 1);
      expect(inDialog.width).toBeGreaterThanOrEqual(inDialog.available - 1);
      expect(inDialog.width).toBeGreaterThan(viewport * 0.8);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
      await screenshot(phone, 'mobile-gallery-dialog-portrait');
    } finally {
      await mobile.close();
    }
  });

  it('follows a regenerated job to the end in its dialog and card; Regenerate names its price and, at 0 credits, where to buy', { timeout: 180_000 }, async () => {
    await signIn(page, { name: 'Florence Knoll' });
    await stagePhoto(page, landscape, 'Modern');
    await page.getByRole('link', { name: 'View in Gallery' }).click();
    const cards = galleryCards(page);
    await cards.first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Style for a new version').selectOption('traditional');
    await dialog.getByRole('button', { name: 'Regenerate (1 credit)' }).click();

    // The dialog turns to the new job at once, its card is listed at once, and both follow it to the end.
    await expect.poll(() => dialog.getByRole('heading').first().innerText()).toBe('traditional staging');
    await expect.poll(() => cards.count()).toBe(2);
    await expect.poll(() => dialog.innerText(), { timeout: 60_000 }).toMatch(/Status\s*Completed/);
    await dialog.getByTestId('before-after-slider').waitFor();
    await expect.poll(() => cards.first().innerText()).toContain('Completed');
    expect(await cards.first().innerText()).toContain('traditional staging');
    await expect.poll(() => page.getByTestId('credits-balance').innerText()).toBe('1');

    await dialog.getByRole('button', { name: 'Regenerate (1 credit)' }).click();
    await expect.poll(() => page.getByTestId('credits-balance').innerText()).toBe('0');
    await expect.poll(() => dialog.getByRole('button', { name: 'Regenerate (1 credit)' }).isDisabled()).toBe(true);
    const buy = dialog.getByRole('link', { name: 'Buy credits' });
    expect(await buy.getAttribute('href')).toBe('/pricing');
    await expect.poll(() => cards.first().innerText(), { timeout: 60_000 }).toContain('Completed');
    await screenshot(page, 'gallery-dialog-no-credits');
    await buy.click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    expect(errors.join('\n')).toBe('');
  });
});
