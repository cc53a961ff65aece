import { existsSync } from 'node:fs';

/** Debian's Chromium, or CHROME_PATH. */
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Browser tests must run in CI (E2E=required); elsewhere a missing browser skips them, loudly. */
export function browserAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env.E2E === 'required') {
    throw new Error(`E2E=required but no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROME_PATH)`);
  }
  return false;
}
