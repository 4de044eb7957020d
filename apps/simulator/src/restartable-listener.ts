import http from 'node:http';
import https from 'node:https';
import type { RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP listener that can stop accepting connections and start again on the same port. A genuine
 * "connection refused" only comes from a port with nothing listening, so that is what `refuse` makes.
 */
export class RestartableListener {
  private server: http.Server | https.Server | null = null;
  private port = 0;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly handler: RequestListener,
    private readonly host: string,
    /** Serve HTTPS with these options (mutual TLS when they ask for a client certificate). */
    private readonly tls?: https.ServerOptions,
  ) {}

  get accepting(): boolean {
    return this.server !== null;
  }

  get boundPort(): number {
    return this.port;
  }

  /** Binds `port` (0 picks one); later `accept` calls reuse whatever port was bound. */
  async listen(port: number): Promise<number> {
    this.port = port;
    await this.accept();
    return this.port;
  }

  async accept(): Promise<void> {
    if (this.server) return;
    const server = this.tls ? https.createServer(this.tls, this.handler) : http.createServer(this.handler);
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /**
   * Closes the port at once. Idle keep-alive sockets are destroyed too, or a client reusing one would
   * still get through; requests already being handled (a hang, say) finish on their own terms.
   */
  async refuse(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // `close` resolves only once active requests end; the port itself is released immediately.
    await Promise.race([closed, new Promise<void>((resolve) => setImmediate(resolve))]);
  }

  /** Stops listening and destroys every connection, active ones included. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
