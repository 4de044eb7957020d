import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { AppConfig } from '@app/config';
import { ObjectWaiters } from './object-waiters.registry.js';

/** The channel `emit_event` notifies at commit when a charge has an event, with the charge's id. */
export const EVENTS_CHANNEL = 'charge_once_charges';
const RECONNECT_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * One dedicated PostgreSQL connection per api process, LISTENing for committed events and waking the long polls of
 * the object each one names. NOTIFY is sent at commit, so a wake-up never runs ahead of what a read can see. A lost
 * connection is opened again (backing off), and then every waiter reads once more: what committed while nobody
 * listened is not missed. Kept out of the pool, so LISTEN never rides on a connection that queries share.
 */
@Injectable()
export class EventNotificationListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EventNotificationListener.name);
  private client: pg.Client | null = null;
  private pid: number | null = null;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly waiters: ObjectWaiters,
  ) {}

  /** The listening backend's pid, or null while reconnecting. */
  get backendPid(): number | null {
    return this.client ? this.pid : null;
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.config.DATABASE_URL, application_name: 'charge-once-api-listen', keepAlive: true });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      const delay = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)];
      this.failures += 1;
      this.logger.warn({ err: error, retryInMs: delay }, 'event listener connection lost; long polls wait for the reconnect');
      this.retry = setTimeout(() => void this.connect(), delay);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      this.waiters.notify(`charge:${message.payload}`);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      this.pid = rows[0].pid;
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (lost || this.stopped) return;
    this.client = client;
    this.failures = 0;
    // Whatever committed while nobody listened (none at boot, some after a loss): every waiter reads again.
    this.waiters.notifyAll();
  }
}
