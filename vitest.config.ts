import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // PGlite instances and engine renders are CPU-heavy; two cores, two forks.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['contracts/test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts'],
          environment: 'node',
          // Shared 2-core machines differ up to three times in speed from one day to the next: a
          // staging at full size takes 3 s on one and 10 s on another, so these only catch hangs.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files run at once on two cores: a helper thread per staging would only add work
          // (helper.test.ts gives its stagings one explicitly).
          env: { ENGINE_HELPER: 'off' },
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/test/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
