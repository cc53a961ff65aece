import type { TestProject } from 'vitest/node';
import { browserAvailable, chromiumPath } from './chromium.ts';
import { startProduct } from './product.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    browserAvailable: boolean;
  }
}

/** Starts the built product once for all browser tests. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const available = browserAvailable();
  project.provide('browserAvailable', available);
  if (!available) {
    console.warn(`\n  Browser tests SKIPPED: no Chromium at ${chromiumPath} (install Debian's chromium or set CHROME_PATH).\n`);
    project.provide('baseUrl', '');
    return async () => undefined;
  }
  const product = await startProduct({ logs: true });
  project.provide('baseUrl', product.url);
  return product.stop;
}
