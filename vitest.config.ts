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
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
