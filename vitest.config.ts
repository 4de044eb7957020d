import { defineConfig } from 'vitest/config';

/** Tests run against the real PostgreSQL and Redis, in a database of their own. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_test';

const FLUSHALL = 'test/redis-flushall.test.ts';
/**
 * Tests that start their own Redis Cluster, Sentinel set or PostgreSQL pair and kill a node mid-storm: a promotion
 * is timed by the engines' own failure detectors, which a machine saturated by the other files' parallel runs
 * delays past any sane wait (seen: a Cluster replica's elections lost, a failover test past 120 s). They run after
 * the suite, one at a time.
 */
const TOPOLOGIES = ['test/redis-cluster.test.ts', 'test/redis-sentinel.test.ts', 'test/postgres-failover.test.ts', 'test/database-replica.test.ts'];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      { extends: true, test: { name: 'suite', include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts', 'test/**/*.test.ts'], exclude: [FLUSHALL, ...TOPOLOGIES] } },
      { extends: true, test: { name: 'topologies', include: TOPOLOGIES, fileParallelism: false, sequence: { groupOrder: 1 } } },
      // Wipes all of Redis, so it runs alone once everything else has finished.
      { extends: true, test: { name: 'flushall', include: [FLUSHALL], sequence: { groupOrder: 2 } } },
    ],
    environment: 'node',
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    setupFiles: ['reflect-metadata'],
    env: {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // Worker processes spawned by tests pick a free port for /metrics, so parallel files never collide.
      WORKER_HTTP_PORT: '0',
      // Tests hammer one token far past any sane production budget; the rate-limit test sets its own.
      API_RATE_LIMIT: '100000000',
      AUTH_FAILURE_LIMIT: '100000000',
      WEBHOOK_RATE_LIMIT: '100000000',
      // Receivers in the tests listen on 127.0.0.1 over plain http; the SSRF tests turn this off for themselves.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      EVENTS_ENCRYPTION_KEY: 'dGVzdC1vbmx5LWtleS10ZXN0LW9ubHkta2V5LTMyYnk=',
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
