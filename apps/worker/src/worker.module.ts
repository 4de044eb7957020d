import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AttemptsModule } from '@app/attempts';
import { ChargesModule } from '@app/charges';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { EventDeliveryModule } from '@app/events';
import { GatewaysModule, PROVIDERS } from '@app/gateways';
import { LoggerModule } from '@app/observability';
import { PayoutsModule } from '@app/payouts';
import { QueuesModule } from '@app/queues';
import { ReconciliationModule } from '@app/reconciliation';
import { ResolutionModule } from '@app/resolution';
import { resolveAttemptProcessorFor } from './resolve-attempt.processor.js';
import { SendAttemptProcessor } from './send-attempt.processor.js';
import { ScheduledWork } from './scheduled-work.js';
import { ReconciliationSchedule } from './reconciliation-schedule.js';
import { ReconciliationRunWorkerModule } from './reconciliation-run-worker.module.js';

/** Queue processors and scheduled work. Any number of workers may run; the database decides. */
@Module({
  imports: [ConfigModule, LoggerModule, ScheduleModule.forRoot(), DatabaseModule, QueuesModule, GatewaysModule, AttemptsModule, ResolutionModule, ChargesModule, ReconciliationModule, PayoutsModule, ReconciliationRunWorkerModule, EventDeliveryModule],
  providers: [SendAttemptProcessor, ...PROVIDERS.map(resolveAttemptProcessorFor), ScheduledWork, ReconciliationSchedule],
})
export class WorkerModule {}
