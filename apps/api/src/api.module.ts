import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { ChargesModule } from '@app/charges';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { GatewaysModule } from '@app/gateways';
import { LedgerModule } from '@app/ledger';
import { LoggerModule, ObservabilityModule } from '@app/observability';
import { QueuesModule } from '@app/queues';
import { WebhooksModule } from '@app/webhooks';
import { AccountsController } from './accounts/accounts.controller.js';
import { ChargesController } from './charges/charges.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';

@Module({
  imports: [ConfigModule, LoggerModule, DatabaseModule, QueuesModule, GatewaysModule, AuthModule, ObservabilityModule, ChargesModule, WebhooksModule, LedgerModule],
  controllers: [ChargesController, WebhooksController, AccountsController],
})
export class ApiModule {}
