import { getQueueToken } from '@nestjs/bull';
import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { AppConfig } from '@app/config';
import { QUEUE_NAMES } from './queue-names.js';
import { createRedisClient, type RedisClient } from './redis-connection.factory.js';

type BullClientType = 'client' | 'subscriber' | 'bclient';

/**
 * Bull's `createClient`, so its queues reach a Sentinel set or a Cluster like every other client. Its blocking and
 * subscribing connections must wait for Redis as long as it takes (`maxRetriesPerRequest: null`) and skip the ready
 * check, or Bull refuses them. Bull closes nothing it did not create: the queues are closed here first (Bull's
 * `close` is memoized, so its own shutdown hook and this one share it), then their connections.
 */
@Injectable()
export class BullRedisClients implements OnApplicationShutdown {
  private readonly clients = new Set<RedisClient>();

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  readonly createClient = (type: BullClientType): RedisClient => {
    const client = createRedisClient(this.config, type === 'client' ? {} : { maxRetriesPerRequest: null, enableReadyCheck: false });
    this.clients.add(client);
    return client;
  };

  async onApplicationShutdown(): Promise<void> {
    const queues = QUEUE_NAMES.map((name) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    await Promise.all(queues.map((queue) => queue.close()));
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
  }
}

@Module({ providers: [BullRedisClients], exports: [BullRedisClients] })
export class BullRedisModule {}
