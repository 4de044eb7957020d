/**
 * What one provider HTTP call proved, before any interpretation. Adapters produce it; the pure
 * classifier in @app/attempts turns it into an attempt outcome. Keeping transport facts separate
 * from their meaning is what lets every provider share one classification table.
 */
export type GatewayCallResult =
  /** The TCP/TLS connection was never established (DNS, refused, connect timeout): nothing was sent. */
  | { kind: 'connect_failed'; errorCode: string; message: string; durationMs: number }
  /** The request may have been sent but no complete response came back (read timeout, reset, hang up). */
  | { kind: 'no_response'; errorCode: string; message: string; durationMs: number }
  /** A complete HTTP response. `providerStatus` and `providerChargeId` are filled when the body named them. */
  | {
      kind: 'response';
      httpStatus: number;
      durationMs: number;
      replayed: boolean;
      providerChargeId: string | null;
      /** The provider's own status already mapped to ours, when the body carried one. */
      providerOutcome: ProviderOutcome | null;
      /** Provider error fields worth keeping (type, code, decline code, message). Never secrets. */
      error: ProviderError | null;
      body: unknown;
    };

/** What the provider says about an existing charge, mapped onto our states. */
export type ProviderOutcome = 'succeeded' | 'failed' | 'pending';

export interface ProviderError {
  type?: string;
  code?: string;
  declineCode?: string;
  message?: string;
}
