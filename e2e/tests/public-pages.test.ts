import type { Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { axeViolations, hasBrowser, screenshot, useBrowserSession } from '../support/browser.ts';

describe.skipIf(!hasBrowser())('public pages', () => {
  const session = useBrowserSession();
  let page: Page;
  let errors: string[];
  beforeEach(() => {
    ({ page, errors } = session);
  });

  const pages: Array<{ path: string; title: RegExp; texts: string[] }> = [
    {
      path: '/',
      title: /RoomStager/,
      texts: [
        'Start Free Trial',
        'No credit card required',
        'Results in 2 minutes',
        'Drag to explore the transformation',
        'Staged in 1m 47s',
        'Lightning Fast',
        'under 60 seconds',
        'Multiple Styles',
        'Professional Quality',
        'Simple Upload',
        'AI-Powered Styling',
        'Flexible Credit System',
        'No monthly fees or commitments',
        'Try it yourself',
        'Most Popular',
      ],
    },
    { path: '/login', title: /Sign in/, texts: ['Welcome Back', 'Sign in with Google', 'Secure authentication powered by Google'] },
    { path: '/signup', title: /Create your account/, texts: ['Create Your Account', 'Sign up with Google', 'Already have an account?'] },
    { path: '/pricing', title: /Pricing/, texts: ['Starter', 'Professional', 'Enterprise', 'Most Popular', 'Back to Generate', '$19', '$89', '$399', '4K quality', 'API access'] },
    { path: '/privacy-policy', title: /Privacy Policy/, texts: ['Privacy Policy', 'Back to Home', 'Last updated: August 8, 2025', '9. '] },
    { path: '/terms-and-conditions', title: /Terms and Conditions/, texts: ['Terms and Conditions', 'Back to Home', 'Last updated: August 8, 2025', '10. ', '18', '30 days'] },
  ];

  for (const p of pages) {
    it(`${p.path} shows its texts, passes axe and logs no errors`, async () => {
      const res = await page.goto(p.path);
      expect(res?.status()).toBe(200);
      await expect.poll(() => page.title()).toMatch(p.title);
      const body = await page.locator('body').innerText();
      for (const text of p.texts) expect(body).toContain(text);
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `public${p.path === '/' ? '-landing' : p.path.replaceAll('/', '-')}`, true);
      expect(errors.join('\n')).toBe('');
    });
  }

  it('landing top bar links to sign-in and sign-up; trial buttons go to /signup when signed out', async () => {
    await page.goto('/');
    const header = page.locator('header');
    await expect.poll(() => header.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    expect(await header.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/signup');
    for (const name of ['Features', 'Demo', 'Pricing']) {
      expect(await header.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(`#${name.toLowerCase()}`);
    }
    expect(await page.getByRole('link', { name: 'Start Free Trial' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('link', { name: 'Free Trial', exact: true }).getAttribute('href')).toBe('/signup');
    const planLinks = page.locator('#pricing').getByRole('link', { name: /Get Started/ });
    expect(await planLinks.count()).toBe(3);
    for (const href of await planLinks.evaluateAll((els) => els.map((e) => e.getAttribute('href')))) expect(href).toBe('/pricing');
  });

  it('footer links scroll to the landing sections and reach the legal pages', async () => {
    await page.goto('/');
    const footer = page.locator('footer');
    expect(await footer.getByRole('link', { name: 'Features' }).getAttribute('href')).toBe('/#features');
    expect(await footer.getByRole('link', { name: 'Examples' }).getAttribute('href')).toBe('/#demo');
    expect(await footer.getByRole('link', { name: /@/ }).getAttribute('href')).toMatch(/^mailto:.+@.+/);
    await footer.getByRole('link', { name: 'Pricing' }).click();
    await expect.poll(() => page.evaluate(() => document.getElementById('pricing')!.getBoundingClientRect().top)).toBeLessThan(200);
    await footer.getByRole('link', { name: 'Terms' }).click();
    await page.waitForURL('**/terms-and-conditions');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('the hero slider follows a mouse drag and the keyboard, clamped to 0-100', async () => {
    await page.goto('/');
    const slider = page.getByTestId('before-after-slider').first();
    const handle = slider.getByRole('slider');
    expect(await handle.getAttribute('aria-valuenow')).toBe('50');
    const box = (await slider.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBeCloseTo(25, -1);
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x - 200, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await handle.getAttribute('aria-valuenow')).toBe('0');
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    expect(await handle.getAttribute('aria-valuenow')).toBe('5');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    expect(await handle.getAttribute('aria-valuenow')).toBe('100');
    await page.keyboard.press('ArrowLeft');
    expect(await handle.getAttribute('aria-valuenow')).toBe('95');
  });

  it('the demo switches between its four examples', async () => {
    await page.goto('/#demo');
    const tabs = page.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Dining Room', 'Living Room', 'Kitchen', 'Bedroom']);
    await page.getByRole('tab', { name: 'Kitchen' }).click();
    expect(await page.getByRole('tab', { name: 'Kitchen' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tabpanel').getByRole('listitem').count()).toBe(3);
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Bedroom' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows the image placeholders when a photo cannot load', async () => {
    await page.route('**/img/living-*', (route) => route.abort());
    await page.goto('/');
    const slider = page.getByTestId('before-after-slider').first();
    await expect.poll(() => slider.innerText()).toContain('Before image not available');
    expect(await slider.innerText()).toContain('After image not available');
  });

  it('the 404 page has its title and a developer hint, with a 404 status', async () => {
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.locator('body').innerText()).toContain('Did you forget to add the page to the router?');
    expect(await axeViolations(page)).toEqual([]);
  });
});
