export interface EfiSimulatorStats {
  faultsInjected: Record<string, number>;
  /** Transfers that debited the payer, by idEnvio. Anything above 1 is a Pix sent twice. */
  debitsByIdEnvio: Record<string, number>;
  transfersCreated: number;
  /** Repeated PUTs answered with the existing transfer (no debit). */
  idEnvioReplays: number;
  /** Repeated PUTs refused with 409 (no debit). */
  idEnvioConflicts: number;
  /** Returns the payee's bank sent back (each listed in its Pix's `devolucoes`). */
  returns: number;
  requests: { tokens: number; sends: number; lookups: number; unauthorized: number };
  webhooks: { sent: number; delivered: number; failed: number };
  hangingConnections: number;
}

export function emptyEfiStats(): Omit<EfiSimulatorStats, 'debitsByIdEnvio' | 'hangingConnections'> {
  return {
    faultsInjected: {},
    transfersCreated: 0,
    idEnvioReplays: 0,
    idEnvioConflicts: 0,
    returns: 0,
    requests: { tokens: 0, sends: 0, lookups: 0, unauthorized: 0 },
    webhooks: { sent: 0, delivered: 0, failed: 0 },
  };
}
