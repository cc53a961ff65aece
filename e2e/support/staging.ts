import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** The path of a photo in e2e/fixtures/. */
export const fixturePhoto = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** Stages a photo on /generate as a person would and waits for the result view. */
export async function stagePhoto(page: Page, photo: string, style: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(photo);
  await page.getByRole('img', { name: /Selected photo/ }).waitFor();
  await page.getByText(style, { exact: true }).click();
  await page.getByRole('button', { name: 'Generate Staging (1 credit)' }).click();
  await page.getByRole('progressbar', { name: 'Staging progress' }).waitFor();
  await page.getByRole('link', { name: 'View in Gallery' }).waitFor({ timeout: 90_000 });
}
