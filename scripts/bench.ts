// `npm run bench`: prints figures (bundle sizes, Lighthouse scores, API throughput); asserts nothing.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs, chromiumPath } from '../e2e/support/chromium.ts';
import { startProduct } from '../e2e/support/product.ts';
import { load, repoRoot as root } from './bench-support.ts';

const dist = path.join(root, 'web/dist');

/** JavaScript and CSS the landing page loads before it is interactive: entry, preloads, styles. */
async function landingBytes(): Promise<{ js: number; css: number; files: string[] }> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
  let js = 0;
  let css = 0;
  for (const ref of refs) {
    const size = gzipSync(await readFile(path.join(dist, ref)), { level: 9 }).length;
    if (ref.endsWith('.js')) js += size;
    else css += size;
  }
  return { js, css, files: refs };
}

async function lighthouseScores(url: string): Promise<Record<string, number>> {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
    const categories = result?.lhr.categories ?? {};
    return Object.fromEntries(Object.entries(categories).map(([k, c]) => [k, Math.round((c.score ?? 0) * 100)]));
  } finally {
    await chrome.kill();
  }
}


const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const bytes = await landingBytes();
console.log(`landing page initial JavaScript: ${kb(bytes.js)} gzip (target <= 120 KB)`);
console.log(`landing page initial CSS:        ${kb(bytes.css)} gzip`);

const { url, stop } = await startProduct();
try {
  if (existsSync(chromiumPath)) {
    const scores = await lighthouseScores(`${url}/`);
    console.log(
      `Lighthouse / (mobile): performance ${scores.performance}, accessibility ${scores.accessibility}, best practices ${scores['best-practices']}, SEO ${scores.seo} (targets 95 / 100 / 95 / 100)`,
    );
  } else {
    console.log(`Lighthouse skipped: no Chromium at ${chromiumPath}`);
  }
  const health = await load(`${url}/api/health`, { connections: 20, seconds: 10 });
  console.log(`GET /api/health: ${health.rps} requests/s, p99 ${health.p99} ms (20 connections, 10 s)`);
} finally {
  await stop();
}
