import type { Browser, Page } from 'playwright-core';
import { describe, afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { hasBrowser, launchBrowser, newContext, screenshot, useBrowserSession } from '../support/browser.ts';

describe.skipIf(!hasBrowser())('login and signup', () => {
  const session = useBrowserSession();
  let page: Page;
  beforeEach(() => {
    ({ page } = session);
  });

  const cases: Array<[query: string, message: string]> = [
    ['error=OAuthSignin', 'There was an error signing in with Google. Please try again.'],
    ['error=OAuthCallback', 'Authentication failed. Please try signing in again.'],
    ['error=OAuthAccountNotLinked', 'This email is already associated with another account. Please use a different sign-in method.'],
    ['error=OAUTH_REQUIRED', 'This account uses Google sign-in. Please use the "Sign in with Google" button.'],
    ['error=SomethingNew', 'An unexpected error occurred'],
    ['error=Callback&message=Your%20link%20expired', 'Your link expired'],
  ];

  for (const [query, message] of cases) {
    it(`/login?${query} shows '${message}' and cleans the address`, async () => {
      await page.goto(`/login?${query}`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toBe(message);
      await expect.poll(() => new URL(page.url()).search).toBe('');
      expect(new URL(page.url()).pathname).toBe('/login');
    });
  }

  it('/signup shows the alert too and links to /login', async () => {
    await page.goto('/signup?error=USER_EXISTS');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toBe('An account with this email already exists. Please sign in instead.');
    await screenshot(page, 'signup-with-error');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/login');
    // The address changes before the lazily loaded page has rendered: wait for its heading.
    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
  });

  it('a signed-out visit settles: the session check\'s 401 answer is read to its end', async () => {
    const session = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/api/auth/me'));
    await page.goto('/login');
    await session;
    await page.waitForLoadState('networkidle');
  });

  it('no alert without an error parameter', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('keeps returnTo after cleaning the address, stores it on the server, then starts Google sign-in', async () => {
    await page.goto('/login?returnTo=%2Fcheckout%2F89');
    await expect.poll(() => new URL(page.url()).search).toBe('');
    const stored = page.waitForRequest((r) => r.url().endsWith('/api/auth/store-return-url'));
    const started = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/google');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    const request = await stored;
    expect(request.method()).toBe('POST');
    expect(request.headers()['content-type']).toBe('application/json');
    expect(request.postDataJSON()).toEqual({ returnTo: '/checkout/89' });
    await started;
  });

  it('choosing a plan while signed out remembers it and goes to login with a return path to checkout', async () => {
    await page.goto('/pricing');
    const nav = page.waitForURL((url) => url.pathname === '/login');
    const stored = page.waitForRequest((r) => r.url().endsWith('/api/auth/store-return-url'));
    await page.getByRole('button', { name: 'Choose Professional' }).click();
    await nav;
    expect(await page.evaluate(() => localStorage.getItem('roomstager.intendedPlan'))).toBe('89');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    expect((await stored).postDataJSON()).toEqual({ returnTo: '/checkout/89' });
  });
});

/** Holds back the page's requests for `pattern` until the returned function is called. */
async function holdBack(page: Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

describe.skipIf(!hasBrowser())('small screens', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the landing page menu collapses at 375 px and mirrors the top bar', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.goto('/');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.getByRole('navigation', { name: 'Mobile' }).count()).toBe(0);
    await toggle.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await menu.waitFor();
    expect(await menu.innerText()).toMatch(/Features[\s\S]*Demo[\s\S]*Pricing[\s\S]*Sign In[\s\S]*Get Started/);
    await screenshot(page, 'mobile-menu');
    await menu.getByRole('link', { name: 'Demo' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await toggle.click();
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    await context.close();
  });

  it('on the prerendered pages a tap before React has hydrated them waits for it rather than being lost', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    // The page's scripts are held back until released: the prerendered HTML shows alone.
    const release = await holdBack(page, '**/*.js');
    await page.goto('/', { waitUntil: 'commit' });
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const kitchen = page.getByRole('tab', { name: 'Kitchen' });
    await kitchen.waitFor({ state: 'attached' });
    expect(await toggle.isDisabled()).toBe(true);
    expect(await kitchen.isDisabled()).toBe(true);
    // The selected tab stays enabled, so the tab list keeps its place in the keyboard's order.
    expect(await page.getByRole('tab', { name: 'Living Room' }).isDisabled()).toBe(false);
    const tapped = kitchen.click();
    release();
    await tapped;
    await expect.poll(() => kitchen.getAttribute('aria-selected')).toBe('true');
    await toggle.click();
    await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
    await context.close();
  });

  it('the skip link taken while React is still hydrating the page lands focus on the content, and the address keeps no fragment', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    // The page's own chunk is held back: React has begun hydrating, but the page is not hydrated yet.
    const release = await holdBack(page, '**/assets/pricing-page-*.js');
    await page.goto('/pricing', { waitUntil: 'commit' });
    await page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('_reactListening')));
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await page.keyboard.press('Tab');
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    release();
    await page.getByRole('button', { name: 'Choose Professional' }).and(page.locator(':enabled')).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).pathname).toBe('/pricing');
    await context.close();
  });

  it('every public page fits 375 px without sideways scrolling', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    for (const path of ['/', '/login', '/signup', '/pricing', '/privacy-policy', '/terms-and-conditions']) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
    }
    await screenshot(page, 'mobile-terms');
    await context.close();
  });
});
