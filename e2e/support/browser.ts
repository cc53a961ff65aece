import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { chromiumArgs, chromiumPath } from './chromium.ts';

export const baseUrl = (): string => inject('baseUrl');
export const hasBrowser = (): boolean => inject('browserAvailable');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

export async function newContext(browser: Browser, options: { mobile?: boolean; width?: number } = {}): Promise<BrowserContext> {
  const viewport = options.mobile ? { width: 375, height: 740 } : { width: 1280, height: 800 };
  return browser.newContext({
    baseURL: baseUrl(),
    viewport: { ...viewport, ...(options.width ? { width: options.width } : {}) },
    hasTouch: options.mobile ?? false,
    isMobile: options.mobile ?? false,
  });
}

/** Collects console errors and CSP violations, which must never happen on our pages. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 401/.test(msg.text())) errors.push(`${msg.text()} at ${msg.location().url}`);
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** WCAG 2.1 A and AA violations on the current page. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const screenshotDir = fileURLToPath(new URL('../screenshots', import.meta.url));

/** Screenshots land in e2e/screenshots/ (ignored by git) for a person to look at. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage });
}

/** The visible toast with this text (Radix also renders an off-screen copy for screen readers). */
export const toastWith = (page: Page, text: string) => page.locator('li.toast').filter({ hasText: text });

/** What a browser-test file works with: one Chromium per file, a fresh context and page per test. */
export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * How long closing a context and opening the next may take. Once in CI, on a loaded machine,
 * it never answered and the hook timed out: past this the browser is taken as hung and relaunched.
 */
const BROWSER_PATIENCE_MS = 30_000;

/** `work`'s answer, or a rejection once `ms` have passed without one. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the browser did not answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Registers the hooks every browser-test file needs and returns the session they fill in. */
export function useBrowserSession(): BrowserSession {
  const session = {} as BrowserSession;
  const fresh = async () => {
    session.context = await newContext(session.browser);
    session.page = await session.context.newPage();
  };
  beforeAll(async () => {
    session.browser = await launchBrowser();
  });
  afterAll(async () => {
    await session.browser?.close();
  });
  beforeEach(async () => {
    try {
      await within(
        (async () => {
          await session.context?.close();
          await fresh();
        })(),
        BROWSER_PATIENCE_MS,
      );
    } catch {
      await within(session.browser.close(), BROWSER_PATIENCE_MS).catch(() => undefined);
      session.browser = await launchBrowser();
      await fresh();
    }
    session.errors = watchPageErrors(session.page);
  });
  return session;
}
