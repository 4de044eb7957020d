export interface SimulatorStatsSnapshot {
  /** Faults actually injected, by name (`500_after_create`, `query_429`, `refuse_connections`...). */
  faultsInjected: Record<string, number>;
  intentsCreated: number;
  /** PaymentIntents created under each idempotency key. Anything above 1 is a double charge. */
  createsByIdempotencyKey: Record<string, number>;
  refundsCreated: number;
  /** Refunds created under each idempotency key. Anything above 1 is money refunded twice. */
  refundsByIdempotencyKey: Record<string, number>;
  idempotentReplays: number;
  /** Connections a hang fault is holding right now; 0 once every hung client has gone. */
  hangingConnections: number;
  requests: { creates: number; retrieves: number; lists: number; searches: number; unauthorized: number; refundCreates: number; refundRetrieves: number; refundLists: number; balanceTransactions: number; reportRuns: number; reportTypes: number; reportFiles: number };
  webhooks: { sent: number; delivered: number; failed: number; forged: number; dropped: number; duplicated: number };
  /** The Asaas API, which has no idempotency key: payments are counted by `externalReference` instead. */
  asaas: {
    paymentsCreated: number;
    /** Payments created under each external reference (our attempt id). Anything above 1 is a double charge. */
    createsByExternalReference: Record<string, number>;
    requests: { creates: number; retrieves: number; lists: number; unauthorized: number; deletes: number; refunds: number; financialTransactions: number };
  };
}

/** Counters that let a fault test prove what it injected and what the provider did. */
export class SimulatorStats {
  private state: SimulatorStatsSnapshot = emptyStats();

  countFault(name: string): void {
    this.state.faultsInjected[name] = (this.state.faultsInjected[name] ?? 0) + 1;
  }

  countIntentCreated(idempotencyKey: string | null): void {
    this.state.intentsCreated += 1;
    if (idempotencyKey === null) return;
    const byKey = this.state.createsByIdempotencyKey;
    byKey[idempotencyKey] = (byKey[idempotencyKey] ?? 0) + 1;
  }

  countAsaasPaymentCreated(externalReference: string | null): void {
    this.state.asaas.paymentsCreated += 1;
    if (externalReference === null) return;
    const byReference = this.state.asaas.createsByExternalReference;
    byReference[externalReference] = (byReference[externalReference] ?? 0) + 1;
  }

  countAsaasRequest(route: keyof SimulatorStatsSnapshot['asaas']['requests']): void {
    this.state.asaas.requests[route] += 1;
  }

  countRefundCreated(idempotencyKey: string | null): void {
    this.state.refundsCreated += 1;
    if (idempotencyKey === null) return;
    this.state.refundsByIdempotencyKey[idempotencyKey] = (this.state.refundsByIdempotencyKey[idempotencyKey] ?? 0) + 1;
  }

  countReplay(): void {
    this.state.idempotentReplays += 1;
  }

  countRequest(route: keyof SimulatorStatsSnapshot['requests']): void {
    this.state.requests[route] += 1;
  }

  countWebhook(outcome: keyof SimulatorStatsSnapshot['webhooks']): void {
    this.state.webhooks[outcome] += 1;
  }

  snapshot(hangingConnections: number): SimulatorStatsSnapshot {
    return { ...structuredClone(this.state), hangingConnections };
  }

  reset(): void {
    this.state = emptyStats();
  }
}

function emptyStats(): SimulatorStatsSnapshot {
  return {
    faultsInjected: {},
    intentsCreated: 0,
    createsByIdempotencyKey: {},
    refundsCreated: 0,
    refundsByIdempotencyKey: {},
    idempotentReplays: 0,
    hangingConnections: 0,
    requests: { creates: 0, retrieves: 0, lists: 0, searches: 0, unauthorized: 0, refundCreates: 0, refundRetrieves: 0, refundLists: 0, balanceTransactions: 0, reportRuns: 0, reportTypes: 0, reportFiles: 0 },
    webhooks: { sent: 0, delivered: 0, failed: 0, forged: 0, dropped: 0, duplicated: 0 },
    asaas: { paymentsCreated: 0, createsByExternalReference: {}, requests: { creates: 0, retrieves: 0, lists: 0, unauthorized: 0, deletes: 0, refunds: 0, financialTransactions: 0 } },
  };
}
