import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortNumber } from '../apps/bench/src/free-port.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';
import { waitFor } from './support/wait-for.js';

/**
 * Spans are exported in batches; a process stopped between two batches must still export what it traced last (the
 * requests it answered while draining), or the slowest request of a deploy is the one whose trace is missing.
 */
describe('tracing at shutdown', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => receiver?.close());

  it('exports the spans still batched when the api stops, with no webhook secret in them', async () => {
    const port = await freePortNumber();
    const token = `trace-${randomUUID()}`;
    const child = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
      env: {
        ...process.env,
        PORT: String(port),
        METRICS_PORT: '0',
        QUEUE_PREFIX: `trace-stop-${randomUUID().slice(0, 8)}`,
        API_TOKENS: `merchant:trace-merchant:${token}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // Ten minutes between batches: only the shutdown can export this test's spans.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(() => fetch(`${url}/health`).then((r) => r.status).catch(() => 0), (s) => s === 200, 30_000, 'the api /health');
    const missing = randomUUID();
    expect((await fetch(`${url}/charges/${missing}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    // Efí authenticates its webhook with a secret in the query: the request's span must not carry it.
    const hmac = `hmac-secret-${randomUUID()}`;
    await fetch(`${url}/webhooks/efi/pix?hmac=${hmac}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(receiver.spans.filter((s) => s.name.startsWith('GET'))).toEqual([]);

    child.kill('SIGTERM');
    await exited;
    const served = receiver.spans.filter((s) => s.name.startsWith('GET') && JSON.stringify(s).includes(missing));
    expect(served.length).toBeGreaterThanOrEqual(1);
    const webhook = receiver.spans.filter((s) => s.name.startsWith('POST') && JSON.stringify(s).includes('/webhooks/efi'));
    expect(webhook.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(receiver.spans)).not.toContain(hmac);
  }, 60_000);
});
