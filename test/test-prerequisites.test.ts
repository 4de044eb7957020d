import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePortNumber } from '../apps/bench/src/free-port.js';

const CHECK = 'test/support/check-prerequisites.mjs';

function runCheck(env: NodeJS.ProcessEnv): Promise<{ code: number | null; text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHECK], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('exit', (code) => resolve({ code, text, ms: Date.now() - started }));
  });
}

/** `npm test` starts with this check, so a machine missing a piece learns it in seconds, not after the build. */
describe('npm test prerequisites', () => {
  it('passes silently on a machine that has everything', async () => {
    const run = await runCheck({});
    expect(run.text).toBe('');
    expect(run.code).toBe(0);
  });

  it('stops within seconds with one line and the install command per missing piece', async () => {
    const run = await runCheck({ CHROMIUM_PATH: '/nonexistent/chromium', REDIS_URL: `redis://127.0.0.1:${await freePortNumber()}`, PATH: '/nonexistent' });
    expect(run.code).toBe(1);
    expect(run.ms).toBeLessThan(10_000);
    const lines = run.text.trim().split('\n').slice(1);
    expect(lines).toHaveLength(6);
    expect(run.text).toContain('Chromium is not at /nonexistent/chromium');
    expect(run.text).toContain('sudo apt-get install -y chromium');
    expect(run.text).toMatch(/Redis at 127\.0\.0\.1:\d+ does not answer \(ECONNREFUSED\): sudo apt-get install -y redis-server/);
    expect(run.text).toContain('redis-server is not on PATH');
    expect(run.text).toContain('redis-cli is not on PATH');
    expect(run.text).toContain('openssl is not on PATH');
    expect(run.text).toContain('pgbouncer is not on PATH');
    expect(run.text).not.toContain('PostgreSQL');
  });

  it('names PostgreSQL when nothing answers where TEST_DATABASE_URL points', async () => {
    const run = await runCheck({ TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePortNumber()}/charge_once_test` });
    expect(run.code).toBe(1);
    expect(run.text).toMatch(/PostgreSQL at 127\.0\.0\.1:\d+ refused the tests \(ECONNREFUSED\): sudo apt-get install -y postgresql/);
  });
});
