import type { ProviderTlsOptions } from '@app/gateways';

/**
 * How the simulated Efí behaves. What Efí leaves undocumented ([U] in provider-contracts.md §4b) is a knob.
 */
export interface EfiSimulatorConfig {
  clientId: string;
  clientSecret: string;
  /** `expires_in` of issued tokens, seconds. */
  tokenTtlS: number;
  /**
   * A repeated PUT with the same idEnvio and body, never a second debit. Efí documents one answer to a used idEnvio,
   * 409 `id_envio_duplicado` "O id de envio informado já foi utilizado em outro pagamento": `conflict` (default).
   * What else a repeat may get is [U]: `replay` answers 200 with the transfer as it stands now; `refused_400` answers
   * 400 `id_envio_duplicado`, `refused_422` the route's documented 422 `pagamento_negado`, as a PSP whose duplicate
   * check sits behind its validation or fraud analysis might. A repeat with another body is always the 409.
   */
  duplicateIdEnvio: 'conflict' | 'replay' | 'refused_400' | 'refused_422';
  /** How long a transfer stays EM_PROCESSAMENTO before it settles and its webhook fires; null = until told. */
  settleAfterMs: number | null;
  /** Payee keys whose transfers end NAO_REALIZADO (after settling) instead of REALIZADO. */
  failPayeeKeys: string[];
  /** How long a hang fault holds a connection before the simulator drops it. */
  hangMs: number;
  /** Where sent-Pix webhooks go (`{url}/pix`), and the client certificate they present (Efí's are mTLS). */
  webhook: { url: string | null; tls?: ProviderTlsOptions };
}

export const EFI_SIMULATOR_CLIENT_ID = 'efi_simulator_client';

export const DEFAULT_EFI_CONFIG: EfiSimulatorConfig = {
  clientId: EFI_SIMULATOR_CLIENT_ID,
  // The same value as SIMULATOR_EFI_CLIENT_SECRET in @app/config: the secret config accepts without webhook auth.
  clientSecret: 'efi_simulator_secret',
  tokenTtlS: 3600,
  duplicateIdEnvio: 'conflict',
  settleAfterMs: 20,
  failPayeeKeys: [],
  hangMs: 60_000,
  webhook: { url: null },
};
