import type { Page } from 'playwright-core';
import { describe, beforeEach, expect, it } from 'vitest';
import { axeViolations, hasBrowser, newContext, screenshot, toastWith, useBrowserSession } from '../support/browser.ts';
import { signIn, uniqueEmail } from '../support/sign-in.ts';

describe.skipIf(!hasBrowser())('sign-in, the signed-in shell, profile and logout', () => {
  const session = useBrowserSession();
  let page: Page;
  let errors: string[];
  beforeEach(() => {
    ({ page, errors } = session);
  });

  it('a signed-out visit to /gallery asks to sign in and returns to /gallery afterwards', async () => {
    const stored = page.waitForRequest((r) => r.url().endsWith('/api/auth/store-return-url'));
    await page.goto('/gallery');
    await toastWith(page, 'Authentication Required').waitFor();
    expect(await toastWith(page, 'Please sign in to access this page.').isVisible()).toBe(true);
    await page.waitForURL((url) => url.pathname === '/login');
    await screenshot(page, 'auth-required-toast');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    expect((await stored).postDataJSON()).toEqual({ returnTo: '/gallery' });
    await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(uniqueEmail('grace'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/gallery');
    await page.getByRole('heading', { name: 'Your Gallery' }).waitFor();
    expect(await page.getByTestId('avatar-initial').innerText()).toBe('G');
    expect(await page.getByTestId('credits-balance').innerText()).toBe('3');
    expect(await page.getByRole('link', { name: 'Gallery' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'signed-in-gallery');
    expect(errors.join('\n')).toBe('');
  });

  it('signing in without a return path lands on /generate', async () => {
    await signIn(page, { name: 'Ada Lovelace' });
    expect(new URL(page.url()).pathname).toBe('/generate');
    await page.getByRole('heading', { name: 'Stage Your Property' }).waitFor();
  });

  it('a signed-in user opening /login or /signup goes to /generate', async () => {
    await signIn(page, { name: 'Frances Allen' });
    for (const path of ['/login', '/signup?returnTo=%2Fcredits']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/generate');
      await page.getByRole('heading', { name: 'Stage Your Property' }).waitFor();
    }
  });

  it('a skip link is the first stop of the keyboard on every layout and moves focus to the content', async () => {
    await signIn(page, { name: 'Alan Turing' });
    for (const path of ['/generate', '/profile', '/pricing', '/']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await skip.evaluate((el) => el === document.activeElement), path).toBe(true);
      expect(await skip.isVisible(), path).toBe(true);
      if (path === '/generate') await screenshot(page, 'skip-link-focused');
      await page.keyboard.press('Enter');
      // On a prerendered page React may not have hydrated yet; the main then takes focus once it has.
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), { message: path }).toBe('MAIN');
      await expect.poll(() => new URL(page.url()).hash, { message: path }).toBe('');
      expect(new URL(page.url()).pathname, path).toBe(path);
      // The next Tab goes on inside the content, not back to the top bar.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('main')), path).toBe(true);
    }
  });

  it('edits the profile, cancels an edit, and refreshes the top bar', async () => {
    const email = await signIn(page, { name: 'Katherine Johnson' });
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
    const body = await page.locator('main').innerText();
    expect(body).toContain('Katherine Johnson');
    expect(body).toContain(email);
    expect(body).toContain('Member Since');
    expect(body).toContain(new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }));
    await expect.poll(() => page.locator('main').innerText()).toMatch(/Images Generated\s*0[\s\S]*Credits Purchased\s*0[\s\S]*Total Spent\s*\$0\.00/);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await page.getByLabel('Username').getAttribute('placeholder')).toBe('Katherine Johnson');
    expect(await page.getByLabel('Email').getAttribute('placeholder')).toBe(email);
    // The editor opens on the current values, focus in its first field.
    expect(await page.getByLabel('Username').inputValue()).toBe('Katherine Johnson');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Username').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel('Username').fill('Someone Else');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('button', { name: 'Edit Profile' }).isVisible()).toBe(true);
    expect(await page.locator('main').innerText()).not.toContain('Someone Else');

    // Escape leaves the editor too, and focus returns to the button that opened it.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Email').fill('someone@example.com');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit Profile' }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('main').innerText()).not.toContain('someone@example.com');

    let calls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/users/profile')) calls++;
    });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Username').fill('Katherine Johnson');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    expect(calls).toBe(0);

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Username').fill('  Mary Jackson  ');
    await screenshot(page, 'profile-editing');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastWith(page, 'Profile Updated').waitFor();
    expect(await toastWith(page, 'Your profile has been updated successfully.').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('avatar-initial').innerText()).toBe('M');
    expect(calls).toBe(1);
    await screenshot(page, 'profile-updated');
    expect(errors.join('\n')).toBe('');
  });

  it('shows the server message when a profile update is refused', async () => {
    await signIn(page, { name: 'Dorothy Vaughan' });
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Username').fill('x'.repeat(49) + 'y');
    // The browser's own check (type=email) accepts this; the server's stricter one does not.
    await page.getByLabel('Email').fill('agent@localhost');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastWith(page, 'Update Failed').waitFor();
    expect(await toastWith(page, 'Please enter a valid email address').isVisible()).toBe(true);
  });

  it('logs out from the user menu', async () => {
    await signIn(page, { name: 'Margaret Hamilton' });
    await page.getByRole('button', { name: /Account menu/ }).click();
    const menu = page.getByRole('menu');
    expect(await menu.innerText()).toMatch(/Profile[\s\S]*Credits & Billing[\s\S]*Logout/);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await toastWith(page, 'You have been successfully logged out.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.locator('header').getByRole('link', { name: 'Sign In' }).count()).toBe(1);
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect(me).toBe(401);
  });

  it('signs out everywhere from the profile: another browser of the same account is signed out too', async () => {
    const email = uniqueEmail('everywhere');
    await signIn(page, { name: 'Katherine Johnson', email });
    const phone = await newContext(session.browser);
    try {
      const phonePage = await phone.newPage();
      await signIn(phonePage, { name: 'Katherine Johnson', email });
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await toastWith(page, 'Every session of your account has ended, on all devices.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await phonePage.evaluate(async () => (await fetch('/api/auth/me')).status)).toBe(401);
    } finally {
      await phone.close();
    }
  });

  it('the signed-in menu works at 375 px', async () => {
    const mobile = await newContext(session.browser, { mobile: true });
    const phone = await mobile.newPage();
    await signIn(phone, { name: 'Hedy Lamarr' });
    await phone.getByRole('button', { name: 'Open menu' }).click();
    const menu = phone.getByRole('navigation', { name: 'Mobile' });
    expect(await menu.innerText()).toMatch(/3 credits[\s\S]*Generate[\s\S]*Gallery[\s\S]*Profile[\s\S]*Credits & Billing[\s\S]*Logout/);
    await screenshot(phone, 'mobile-signed-in-menu');
    // Escape closes the menu and leaves focus on its toggle.
    await menu.getByRole('link', { name: 'Gallery' }).focus();
    await phone.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    const toggle = phone.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await toggle.click();
    await menu.getByRole('link', { name: 'Profile' }).click();
    await phone.getByRole('heading', { name: 'Profile Settings' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await mobile.close();
  });

  it('the landing page and pricing know the signed-in user', async () => {
    await signIn(page, { name: 'Radia Perlman' });
    await page.goto('/');
    const header = page.locator('header');
    await expect.poll(() => header.getByRole('link', { name: 'Gallery' }).count()).toBe(1);
    expect(await header.getByRole('link', { name: 'Generate' }).getAttribute('href')).toBe('/generate');
    expect(await page.getByRole('link', { name: 'Start Free Trial' }).getAttribute('href')).toBe('/generate');
    await page.goto('/pricing');
    await expect.poll(() => page.locator('main').innerText()).toContain('Logged in as Radia Perlman');
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    await page.waitForURL('**/checkout/19');
  });
});
