import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Vitest's 1 s default for expect.poll is shorter than a page's session check takes
    // while the other file stages photos on the same two cores.
    expect: { poll: { timeout: 10_000 } },
    // One Chromium per file; two cores run two files at a time at most.
    maxWorkers: 2,
  },
});
