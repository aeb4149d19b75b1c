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

export const SHARED = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    ...SHARED,
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...OUTSIDE],
  },
});
