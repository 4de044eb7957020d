import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; Prometheus scrapes each api and worker process separately. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const attemptTransitionsTotal = new Counter({
  name: 'charge_once_attempt_transitions_total',
  help: 'Attempt status transitions, by target status and cause',
  labelNames: ['provider', 'to', 'cause'] as const,
  registers: [metricsRegistry],
});

export const providerCallsTotal = new Counter({
  name: 'charge_once_provider_calls_total',
  help: 'Provider HTTP calls, by kind and classified outcome',
  labelNames: ['provider', 'kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const providerCallSeconds = new Histogram({
  name: 'charge_once_provider_call_seconds',
  help: 'Provider HTTP call duration',
  labelNames: ['provider', 'kind'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
  registers: [metricsRegistry],
});

/** Time to certainty: how long attempts stayed unknown, and what resolved them. */
export const unknownToCertaintySeconds = new Histogram({
  name: 'charge_once_unknown_to_certainty_seconds',
  help: 'Seconds an attempt spent unknown before a terminal status, by what resolved it',
  labelNames: ['provider', 'cause'] as const,
  buckets: [1, 5, 30, 60, 300, 900, 1800, 3600, 21600, 86400],
  registers: [metricsRegistry],
});

/** What each resolution try decided: apply (found), fail_not_found, wait, or review. */
export const resolutionDecisionsTotal = new Counter({
  name: 'charge_once_resolution_decisions_total',
  help: 'Resolution tries of unknown attempts, by the decision each one reached',
  labelNames: ['provider', 'action'] as const,
  registers: [metricsRegistry],
});

/** Merchant events: how long from the event's commit to the receiver's 2xx, and what each try came to. */
export const eventDeliveryLagSeconds = new Histogram({
  name: 'charge_once_event_delivery_lag_seconds',
  help: 'Time from a merchant event being written to its endpoint answering 2xx',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600, 21600, 86400],
  registers: [metricsRegistry],
});

export const eventDeliveriesTotal = new Counter({
  name: 'charge_once_event_delivery_attempts_total',
  help: 'Webhook delivery tries, by outcome (delivered, no_answer, http_4xx, http_5xx, ...)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
