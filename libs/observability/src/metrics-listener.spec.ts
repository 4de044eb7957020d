import { afterAll, describe, expect, it } from 'vitest';
import { listenMetrics } from './metrics-listener.js';

describe('listenMetrics', () => {
  const servers: Array<{ close(): void }> = [];
  afterAll(() => servers.forEach((s) => s.close()));

  it('serves GET /metrics only, and names METRICS_PORT when the port is taken', async () => {
    const first = await listenMetrics(0, '127.0.0.1');
    servers.push(first.server);
    const page = await fetch(first.url);
    expect(page.status).toBe(200);
    expect((await fetch(first.url.replace('/metrics', '/health'))).status).toBe(404);
    const port = Number(new URL(first.url).port);
    await expect(listenMetrics(port, '127.0.0.1')).rejects.toThrow(`METRICS_PORT ${port} on METRICS_HOST 127.0.0.1: EADDRINUSE`);
  });
});
