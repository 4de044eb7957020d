import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AppConfig } from '@app/config';
import { createRedisClient, type RedisClient } from '@app/queues';

@Injectable()
export class RedisHealthIndicator implements OnModuleDestroy {
  private readonly client: RedisClient;

  constructor(
    private readonly health: HealthIndicatorService,
    config: AppConfig,
  ) {
    this.client = createRedisClient(config, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.client.on('error', () => undefined); // reported through the check below, not as an unhandled event
  }

  async isHealthy(key: string) {
    const indicator = this.health.check(key);
    try {
      if (this.client.status === 'wait' || this.client.status === 'end') await this.client.connect();
      await this.client.ping();
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
