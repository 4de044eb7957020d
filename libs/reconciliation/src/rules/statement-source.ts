import type { StatementSource } from '@app/gateways';

/**
 * The statement the nightly run reads for one provider: the configured one when the provider offers it, else
 * the first it does offer (Asaas has no report file, only paging), else none: that provider is not reconciled.
 */
export function statementSourceFor(preferred: StatementSource, offered: readonly StatementSource[]): StatementSource | null {
  return offered.includes(preferred) ? preferred : (offered[0] ?? null);
}
