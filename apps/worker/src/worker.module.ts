import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AttemptsModule } from '@app/attempts';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { GatewaysModule } from '@app/gateways';
import { LoggerModule } from '@app/observability';
import { QueuesModule } from '@app/queues';
import { ResolutionModule } from '@app/resolution';
import { ResolveAttemptProcessor } from './resolve-attempt.processor.js';
import { SendAttemptProcessor } from './send-attempt.processor.js';
import { SweeperScheduler } from './sweeper.scheduler.js';

/** Queue processors and scheduled work. Any number of workers may run; the database decides. */
@Module({
  imports: [ConfigModule, LoggerModule, ScheduleModule.forRoot(), DatabaseModule, QueuesModule, GatewaysModule, AttemptsModule, ResolutionModule],
  providers: [SendAttemptProcessor, ResolveAttemptProcessor, SweeperScheduler],
})
export class WorkerModule {}
