import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suites that drive canonry from outside, as separate processes (the CLI, `canonry serve`, crashes
 * and lost connections, the workbench in chromium): `npm run test:outside`, which CI runs after
 * `npm test`. They spawn a process per command (a Node process costs ~0.5 s on these machines), so
 * keeping them apart holds `npm test` to its ten-minute budget on two cores without dropping any of
 * them from CI.
 */
export const OUTSIDE = [
  'test/cli/**/*.test.ts',
  'test/auth/tokens-crash.test.ts',
  'test/journal/failure-*.test.ts',
  'test/relay/*-crash.test.ts',
  'test/server/*-process.test.ts',
  'test/server/tamper-start.test.ts',
  'test/web/workbench*.test.ts',
];

/**
 * One test file per core, and never fewer than two. Vitest's default is one fewer than the cores,
 * which is one on the two-core machines CI runs on, while most suites spend much of their time
 * waiting on fsync, PostgreSQL or a child process: with two workers `npm test` took 245 s against
 * 390 s and the outside suites 336 s against ~620 s of test time, on the same machine, with nothing
 * failing.
 */
export const SHARED = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks',
  maxWorkers: Math.max(2, availableParallelism()),
} as const;

export default defineConfig({
  test: {
    ...SHARED,
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...OUTSIDE],
  },
});
