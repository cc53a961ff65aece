import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, hasBrowser, newContext, screenshot, toastWith, useBrowserSession, watchPageErrors } from '../support/browser.ts';
import { createListing, photoCard } from '../support/listings.ts';
import { signIn } from '../support/sign-in.ts';
import { fixturePhoto, stagePhoto } from '../support/staging.ts';

const landscape = fixturePhoto('empty-open-plan-living-dining.jpg');
const patience = { timeout: 20_000 };
/** A variation is a queued job: behind other files' stagings on the one worker it may wait a while. */
const queued = { timeout: 90_000 };

/** The gallery's cards, also while a modal dialog hides them from the accessibility tree. */
const galleryCards = (page: Page) => page.locator('main').getByRole('button', { name: /^Open /, includeHidden: true });

/**
 * Stages with the development engine `paid` (a provider paid per image: one variation a credit),
 * asks for another in the gallery's dialog, sees it appear, chooses it; then, by keyboard, spends
 * the last credit on a third and is told where to buy more.
 */
async function askForMoreVariations(page: Page, shot: string): Promise<void> {
  const errors = watchPageErrors(page);
  await signIn(page, { name: 'Gae Aulenti' });
  await page.context().setExtraHTTPHeaders({ 'x-test-staging-engine': 'paid' });
  await stagePhoto(page, landscape, 'Modern');
  await page.getByRole('link', { name: 'View in Gallery' }).click();
  await galleryCards(page).first().click();
  const dialog = page.getByRole('dialog');
  const balance = page.getByTestId('credits-balance');
  await expect.poll(() => balance.innerText(), patience).toBe('2');

  const variations = dialog.getByRole('group', { name: 'Variations' });
  const tiles = variations.getByRole('button', { name: /^Variation \d$/ });
  const another = variations.getByRole('button', { name: 'Another variation (1 credit)' });
  await another.waitFor(patience);
  expect(await tiles.count()).toBe(1);
  expect(await variations.getByRole('img', { name: 'Variation 1' }).count()).toBe(1);
  await variations.scrollIntoViewIfNeeded();
  await screenshot(page, `${shot}-offered`);

  await another.click();
  await toastWith(page, 'One credit was used.').waitFor(patience);
  await expect.poll(() => balance.innerText(), patience).toBe('1');
  await screenshot(page, `${shot}-asked`);
  expect(await axeViolations(page)).toEqual([]);
  await expect.poll(() => tiles.count(), queued).toBe(2);
  expect(await variations.getByText('Making another variation…').count()).toBe(0);
  expect(await tiles.nth(0).getAttribute('aria-pressed')).toBe('true');

  // The new variation is another image; choosing it makes it the staged photo.
  const staged = () => dialog.getByRole('img', { name: /staged in the modern style/ }).getAttribute('src');
  const before = await staged();
  await variations.getByRole('button', { name: 'Variation 2' }).click();
  await toastWith(page, 'Variation 2 is now the staged photo.').waitFor(patience);
  await expect.poll(() => variations.getByRole('button', { name: 'Variation 2' }).getAttribute('aria-pressed'), patience).toBe('true');
  await expect.poll(staged, patience).not.toBe(before);
  await screenshot(page, `${shot}-chosen`);

  // By keyboard: the last credit buys a third; the next press is told where to buy credits.
  await another.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => balance.innerText(), patience).toBe('0');
  await expect.poll(() => tiles.count(), queued).toBe(3);
  await another.focus();
  await page.keyboard.press('Enter');
  const buy = variations.getByRole('link', { name: 'Buy credits' });
  await buy.waitFor(patience);
  expect(await variations.innerText()).toContain('You have no credits left for another variation.');
  expect(await buy.getAttribute('href')).toBe('/pricing');
  expect(await tiles.count()).toBe(3);
  expect(await balance.innerText()).toBe('0');
  await screenshot(page, `${shot}-no-credits`);
  expect(errors.filter((e) => !/status of 402/.test(e)).join('\n')).toBe('');
}

describe.skipIf(!hasBrowser())('more variations of a staging by an engine paid per image', () => {
  const session = useBrowserSession();

  it('at 1366 px: asked for in the gallery dialog, made, chosen', { timeout: 180_000 }, async () => {
    const context = await newContext(session.browser, { width: 1366 });
    try {
      await askForMoreVariations(await context.newPage(), 'more-variations-desktop');
    } finally {
      await context.close();
    }
  });

  it('at 390 px: the same on a phone', { timeout: 180_000 }, async () => {
    const context = await newContext(session.browser, { mobile: true, width: 390 });
    try {
      await askForMoreVariations(await context.newPage(), 'more-variations-phone');
    } finally {
      await context.close();
    }
  });

  it('at 1366 px on a listing: the photo card offers one more, makes it and chooses it', { timeout: 180_000 }, async () => {
    const context = await newContext(session.browser, { width: 1366 });
    try {
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      await signIn(page, { name: 'Lina Bo Bardi' });
      await context.setExtraHTTPHeaders({ 'x-test-staging-engine': 'paid' });
      await page.goto('/listings');
      await createListing(page, '7 Via Cassia', 'modern');
      await page.getByLabel('Add photos to this listing').setInputFiles(landscape);
      const card = photoCard(page, 1);
      await card.waitFor(patience);
      await page.getByRole('button', { name: 'Stage 1 photo' }).click();
      await page.getByRole('dialog', { name: 'Stage 1 photo?' }).getByRole('button', { name: 'Stage 1 photo (1 credit)' }).click();
      const picker = card.getByRole('group', { name: 'Variations of Photo 1' });
      const tiles = picker.getByRole('button', { name: /^Variation \d$/ });
      await picker.getByRole('button', { name: 'Another variation (1 credit)' }).click({ timeout: 60_000 });
      await expect.poll(() => page.getByTestId('credits-balance').innerText(), patience).toBe('1');
      await expect.poll(() => tiles.count(), queued).toBe(2);
      await picker.getByRole('button', { name: 'Variation 2' }).click();
      await expect.poll(() => picker.getByRole('button', { pressed: true }).getAttribute('aria-label'), patience).toBe('Variation 2');
      await page.reload();
      await expect.poll(() => photoCard(page, 1).getByRole('button', { pressed: true }).getAttribute('aria-label'), patience).toBe('Variation 2');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'more-variations-listing-desktop', true);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });
});
