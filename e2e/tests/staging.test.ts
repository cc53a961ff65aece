import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { axeViolations, hasBrowser, screenshot, toastWith, useBrowserSession } from '../support/browser.ts';
import { signIn } from '../support/sign-in.ts';
import { fixturePhoto, stagePhoto } from '../support/staging.ts';

const photo = fixturePhoto('empty-open-plan-living-dining.jpg');
const stage = (page: Page, style: string) => stagePhoto(page, photo, style);

/** The fixture grown to at least `bytes` with JPEG comment segments: still a valid photo, as large as a phone's. */
function largeJpeg(bytes: number): Buffer {
  const jpeg = readFileSync(photo);
  const segments: Buffer[] = [];
  for (let size = jpeg.length; size < bytes; size += 65_537) {
    const segment = Buffer.alloc(65_537, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(65_535, 2);
    segments.push(segment);
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** Drops these files on the photo drop-zone at once, as a person dragging a selection would. */
async function dropFiles(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
    return transfer;
  }, files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.buffer.toString('base64') })));
  await page.getByText('Drag a photo here, or click to choose one').dispatchEvent('drop', { dataTransfer });
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

  it('checks the photo when it is chosen: JPEG or PNG by its content, at most 10MB, one at a time', async () => {
    await signIn(page, { name: 'Eileen Gray' });
    const photoSection = page.getByRole('region', { name: 'Your photo' });
    const generate = page.getByRole('button', { name: 'Generate Staging (1 credit)' });
    const input = page.locator('input[type="file"]');
    const refused = async (message: string) => {
      await photoSection.getByText(message, { exact: true }).waitFor();
      await toastWith(page, 'Invalid file').filter({ hasText: message }).waitFor();
      expect(await page.getByRole('img', { name: /Selected photo/ }).count()).toBe(0);
      expect(await generate.isDisabled()).toBe(true);
    };

    // A PDF renamed .jpg: its name and the browser's type say JPEG, its bytes do not.
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    await input.setInputFiles({ name: 'living-room.jpg', mimeType: 'image/jpeg', buffer: pdf });
    await refused('Please upload a JPEG or PNG image file.');

    await input.setInputFiles({ name: 'bedroom.jpg', mimeType: 'image/jpeg', buffer: largeJpeg(13_440_000) });
    await refused('File size must be less than 10MB.');

    const jpeg = readFileSync(photo);
    await dropFiles(page, [
      { name: 'kitchen.jpg', mimeType: 'image/jpeg', buffer: jpeg },
      { name: 'office.jpg', mimeType: 'image/jpeg', buffer: jpeg },
    ]);
    await refused('Please upload a valid image file (JPG, PNG) under 10MB');

    // A real JPEG is one whatever it is called; the drop-zone's message goes once it is accepted.
    await dropFiles(page, [{ name: 'dining-room.webp', mimeType: 'image/webp', buffer: jpeg }]);
    await page.getByRole('img', { name: 'Selected photo: dining-room.webp' }).waitFor();
    expect(await photoSection.getByText('Please upload a valid image file (JPG, PNG) under 10MB').count()).toBe(0);
    await page.getByText('Modern', { exact: true }).click();
    expect(await generate.isDisabled()).toBe(false);
    expect(errors.join('\n')).toBe('');
  });

  it('keeps keyboard focus where it was when the photo is chosen and when it is removed', async () => {
    await signIn(page, { name: 'Charlotte Perriand' });
    const dropzone = page.getByRole('region', { name: 'Your photo' }).locator('[tabindex="0"]');
    await dropzone.focus();
    await page.locator('input[type="file"]').setInputFiles(photo);
    await page.getByRole('img', { name: /Selected photo/ }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('FIGURE');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove photo');
    await page.keyboard.press('Enter');
    await page.getByText('Drag a photo here, or click to choose one').waitFor();
    await expect.poll(() => dropzone.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('shows Uploading... at once and keeps the page responsive while a 9 MB photo is sent', { timeout: 120_000 }, async () => {
    await signIn(page, { name: 'Lina Bo Bardi' });
    const buffer = largeJpeg(9_000_000);
    await page.locator('input[type="file"]').setInputFiles({ name: 'large-living-room.jpg', mimeType: 'image/jpeg', buffer });
    await page.getByRole('img', { name: /Selected photo/ }).waitFor();
    await page.getByText('Traditional', { exact: true }).click();
    const generate = page.getByRole('button', { name: 'Generate Staging (1 credit)' });
    // Long tasks, the moment 'Uploading...' is on screen (in the page's own clock) and the body sent.
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; uploadingAt?: number; uploadBody?: unknown };
      const send = window.fetch;
      window.fetch = (input, init) => {
        if (String(input).endsWith('/api/upload')) w.uploadBody = init?.body;
        return send(input, init);
      };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: 'longtask' });
      const button = document.querySelector('button[type="submit"]') as HTMLButtonElement;
      new MutationObserver(() => {
        if (w.uploadingAt === undefined && button.textContent?.includes('Uploading...')) w.uploadingAt = performance.now();
      }).observe(button, { childList: true, subtree: true, characterData: true });
    });
    const uploaded = page.waitForRequest((r) => r.url().endsWith('/api/upload'));
    await generate.click();
    expect((await uploaded).headers()['content-type']).toBe('application/json');
    await page.getByRole('progressbar', { name: 'Staging progress' }).waitFor({ timeout: 60_000 });
    const timing = await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; uploadingAt?: number };
      const sent = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/upload'));
      return { uploadingAt: w.uploadingAt ?? Infinity, sentAt: sent?.startTime ?? -Infinity, longest: Math.max(0, ...w.longTasks) };
    });
    // The state changes before the request leaves, and no task holds the page for long meanwhile.
    expect(timing.uploadingAt).toBeLessThan(timing.sentAt);
    expect(timing.longest).toBeLessThan(400);
    const body = await page.evaluate(async () => JSON.parse(await new Response((window as unknown as { uploadBody: BodyInit }).uploadBody).text()) as unknown);
    expect(body).toEqual({ imageData: buffer.toString('base64'), filename: 'large-living-room.jpg' });
    expect(errors.join('\n')).toBe('');
  });
});
