import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { LoggerModule, ObservabilityModule } from '@app/observability';
import { QueuesModule } from '@app/queues';

@Module({
  imports: [ConfigModule, LoggerModule, DatabaseModule, QueuesModule, AuthModule, ObservabilityModule],
})
export class ApiModule {}
