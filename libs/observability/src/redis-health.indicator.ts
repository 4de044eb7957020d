import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { Redis } from 'ioredis';
import { AppConfig } from '@app/config';

@Injectable()
export class RedisHealthIndicator implements OnModuleDestroy {
  private readonly client: Redis;

  constructor(
    private readonly health: HealthIndicatorService,
    config: AppConfig,
  ) {
    this.client = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
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
