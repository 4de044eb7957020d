import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from './metrics.js';

/**
 * The api's metrics on a port of their own (METRICS_PORT on METRICS_HOST, loopback by default), apart from the
 * merchant routes: queue depths, provider call counts and reconciliation state are for the operator's Prometheus,
 * not for whoever can reach the api. Only `GET /metrics`; anything else is a 404.
 */
export async function listenMetrics(port: number, host: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(text),
      () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`METRICS_PORT ${port} on METRICS_HOST ${host}: ${error.code ?? error.message} (another api on this machine? give each its own METRICS_PORT, or 0)`, { cause: error })),
    );
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics` };
}
