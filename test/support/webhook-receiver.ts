import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Answer = 'ok' | 'hang' | 'reset' | number;

export interface ReceivedRequest {
  webhookId: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; merchantId: string; objectVersion: number; data: { object: { id: string; status?: string } } };
  /** Which of the secrets this receiver holds verified it (with the official `standardwebhooks` package). */
  verifiedWith: string[];
  answered: Answer;
  at: number;
}

/**
 * A merchant's receiver for the tests: every request is verified with `standardwebhooks` against each secret it is
 * told about (never with our own signing code), recorded, and answered as `answer` decides: 2xx, a status, a hang
 * past the deliverer's timeout, or a reset connection. It counts what it did, so a fault test proves its faults.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly did: Record<string, number> = {};
  secrets: string[] = [];
  answer: (request: Omit<ReceivedRequest, 'answered' | 'at'>, nth: number) => Answer = () => 'ok';
  /** While set, answers wait for it: a try the test holds in flight. */
  held: Promise<void> | null = null;
  private server!: Server;
  private readonly sockets = new Set<Socket>();

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const verifiedWith = receiver.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, req.headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        });
        const seen = { webhookId: String(req.headers['webhook-id']), headers: req.headers, body, event: JSON.parse(body) as ReceivedRequest['event'], verifiedWith };
        const answered = receiver.answer(seen, receiver.requests.length);
        receiver.requests.push({ ...seen, answered, at: Date.now() });
        const kind = typeof answered === 'number' ? `http_${answered}` : answered;
        receiver.did[kind] = (receiver.did[kind] ?? 0) + 1;
        if (answered === 'hang') return;
        if (answered === 'reset') return req.socket.destroy();
        const reply = () => res.writeHead(answered === 'ok' ? 204 : answered).end(answered === 'ok' ? undefined : `answer ${answered}`);
        if (receiver.held) void receiver.held.then(reply);
        else reply();
      });
    });
    receiver.server.on('connection', (socket: Socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Requests for one event, in arrival order. */
  of(eventId: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.event.id === eventId);
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
