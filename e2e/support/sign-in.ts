import type { Page } from 'playwright-core';

let counter = 0;

/** A fresh e-mail per call, so every test signs up a new user with 3 free credits. */
export function uniqueEmail(prefix = 'agent'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now()}.${counter}@example.com`;
}

/** Goes through /login and the development sign-in page, as a person would. */
export async function signIn(page: Page, options: { name: string; email?: string; from?: string }): Promise<string> {
  const email = options.email ?? uniqueEmail();
  await page.goto(options.from ?? '/login');
  await page.getByRole('button', { name: /Sign (in|up) with Google/ }).click();
  await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
  await page.getByLabel('Name').fill(options.name);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/dev/') && !url.pathname.startsWith('/api/'));
  return email;
}
