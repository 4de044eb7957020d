import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One event as a merchant's receiver got it: first arrival, how many times it came, under which webhook-ids. */
export interface ReceivedEvent {
  type: string;
  objectId: string;
  merchantId: string;
  createdAt: number;
  firstReceivedAt: number;
  deliveries: number;
  webhookIds: Set<string>;
}

export interface EventReceiver {
  url: string;
  /** Set once the endpoint exists: from then on every request is verified with `standardwebhooks` before it counts. */
  trust(secret: string): void;
  events: Map<string, ReceivedEvent>;
  /** Requests whose signature did not verify (answered 400, so the service retries them). */
  rejected(): number;
  close(): Promise<void>;
}

/**
 * A merchant's receiver for the benches and the demo: verifies every delivery with the Standard Webhooks reference
 * library (never our own signing code), answers 204, and keeps when each event first arrived.
 */
export async function startEventReceiver(onEvent?: (event: ReceivedEvent & { id: string }, fresh: boolean) => void): Promise<EventReceiver> {
  let verifier: Webhook | null = null;
  let rejected = 0;
  const events = new Map<string, ReceivedEvent>();
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const now = Date.now();
      let payload: { id: string; type: string; createdAt: string; merchantId: string; data: { object: { id: string } } };
      try {
        if (!verifier) throw new Error('no secret yet');
        payload = verifier.verify(body, req.headers as Record<string, string>) as typeof payload;
      } catch {
        rejected++;
        res.writeHead(400).end();
        return;
      }
      const known = events.get(payload.id);
      const event = known ?? {
        type: payload.type,
        objectId: payload.data.object.id,
        merchantId: payload.merchantId,
        createdAt: Date.parse(payload.createdAt),
        firstReceivedAt: now,
        deliveries: 0,
        webhookIds: new Set<string>(),
      };
      event.deliveries++;
      event.webhookIds.add(String(req.headers['webhook-id']));
      events.set(payload.id, event);
      onEvent?.({ ...event, id: payload.id }, !known);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    trust: (secret) => (verifier = new Webhook(secret)),
    events,
    rejected: () => rejected,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
