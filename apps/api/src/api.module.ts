import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { AuthModule } from '@app/auth';
import { ChargesModule } from '@app/charges';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { EventFeedModule, EventsModule } from '@app/events';
import { GatewaysModule } from '@app/gateways';
import { LedgerModule } from '@app/ledger';
import { PayoutsModule } from '@app/payouts';
import { LoggerModule, ObservabilityModule } from '@app/observability';
import { QueuesModule } from '@app/queues';
import { ReviewQueueModule } from '@app/review';
import { RefundsModule } from '@app/refunds';
import { ReconciliationModule } from '@app/reconciliation';
import { WebhooksModule } from '@app/webhooks';
import { RateLimitModule } from './edge/rate-limit.module.js';
import { AccountsController } from './accounts/accounts.controller.js';
import { ChargesController } from './charges/charges.controller.js';
import { PayoutsController } from './payouts/payouts.controller.js';
import { RefundsController } from './refunds/refunds.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { ReviewConsoleController } from './review/review-console.controller.js';
import { ReviewController } from './review/review.controller.js';
import { ReconciliationController } from './reconciliation/reconciliation.controller.js';
import { ConsoleVendorController } from './review/console-vendor.controller.js';
import { FinanceLookupController } from './finance/finance-lookup.controller.js';
import { FinanceReconciliationController } from './finance/finance-reconciliation.controller.js';
import { RefundProposalsController } from './reconciliation/refund-proposals.controller.js';
import { WebhookEndpointsController } from './webhook-endpoints/webhook-endpoints.controller.js';
import { EventDeliveriesController } from './events/event-deliveries.controller.js';
import { EventsFeedController } from './events/events-feed.controller.js';

@Module({
  imports: [ConfigModule, LoggerModule, DatabaseModule, QueuesModule, GatewaysModule, AuthModule, ObservabilityModule.register({ metricsOnMainPort: 'withToken' }), AttemptsModule, ChargesModule, WebhooksModule, ReviewQueueModule, RefundsModule, ReconciliationModule, LedgerModule, PayoutsModule, EventsModule, EventFeedModule, RateLimitModule],
  controllers: [ChargesController, WebhooksController, ReviewController, ReviewConsoleController, RefundsController, ReconciliationController, RefundProposalsController, AccountsController, PayoutsController, ConsoleVendorController, FinanceLookupController, FinanceReconciliationController, WebhookEndpointsController, EventDeliveriesController, EventsFeedController],
})
export class ApiModule {}
