import { Counter } from 'prom-client';
import { metricsRegistry } from '@app/observability';

/** Decisions by action and what became of them: applied, awaiting_second, confirmed, rejected or refused. */
export const reviewDecisionsTotal = new Counter({
  name: 'charge_once_review_decisions_total',
  help: 'Review decisions by action and result',
  labelNames: ['action', 'result'] as const,
  registers: [metricsRegistry],
});
