import type { Page } from 'playwright-core';

/** The photo cards of a listing page. */
export const photoCards = (page: Page) => page.getByRole('region', { name: 'Photos' }).getByRole('listitem').filter({ has: page.getByRole('heading') });

/** The card of the listing's photo number `n`. */
export const photoCard = (page: Page, n: number) => photoCards(page).filter({ has: page.getByRole('heading', { name: `Photo ${n}`, exact: true }) });

/** Creates a listing through the New listing dialog and waits for its page. */
export async function createListing(page: Page, title: string, style: string): Promise<void> {
  await page.getByRole('button', { name: 'New listing' }).click();
  const dialog = page.getByRole('dialog', { name: 'New listing' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Style').selectOption(style);
  await dialog.getByRole('button', { name: 'Create listing' }).click();
  await page.waitForURL(/\/listings\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 15_000 });
}
