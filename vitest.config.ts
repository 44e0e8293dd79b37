import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // The same V8 flag the bin sets: catastrophic regular expressions run in linear time.
    execArgv: ['--enable-experimental-regexp-engine-on-excessive-backtracks'],
    testTimeout: 20_000,
  },
})
