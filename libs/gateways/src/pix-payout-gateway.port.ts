import type { GatewayCallResult } from './gateway-call.result.js';
import type { GatewayCapabilities } from './gateway.capabilities.js';
import type { LookupResult } from './provider-lookup.result.js';

/** What is sent for one payout attempt; encoded once, stored on the attempt, resent byte for byte. */
export interface PixSendRequest {
  attemptId: string;
  amountCents: number;
  /** Pix moves reais only: anything but `brl` is refused before a byte is sent. */
  currency: string;
  /** The payee's Pix key (CPF, CNPJ, e-mail, phone or random key). */
  payeePixKey: string;
  /** Shown to the payer's own statement (`infoPagador`). */
  description?: string | null;
}

/**
 * Money the payee's bank sent back on an executed Pix (Efí `devolucoes[]`): the transfer still happened, and this
 * much came back to the payer's account under BACEN's return id.
 */
export interface PixReturn {
  rtrId: string;
  amountCents: number;
  returnedAt: Date;
}

/** One sent Pix of the provider's statement (`GET /v2/gn/pix/enviados`), normalised. */
export interface SentPixLine {
  endToEndId: string;
  /** The provider's transfer id (Efí idEnvio) and the attempt it names, when it is one of ours. */
  transferId: string | null;
  attemptId: string | null;
  amountCents: number;
  currency: string;
  outcome: 'pending' | 'succeeded' | 'failed' | null;
  /** The provider's status as it wrote it (Efí: EM_PROCESSAMENTO, REALIZADO, NAO_REALIZADO), for evidence. */
  status: string | null;
  requestedAt: Date;
  /** What came back of it so far, each return once (none for a Pix never executed). */
  returns: PixReturn[];
}

/**
 * The Pix cash-out port and its DI token (money going out, DESIGN.md §10), the payout family's port beside the
 * charge and refund ports; it answers in the same shapes (GatewayCallResult, LookupResult) so one classifier and
 * one resolver serve every family. Like every adapter: exactly one HTTP call per send (an OAuth token
 * fetch before it never counts as the send), no hidden retries, the transfer id derived from the attempt.
 */
export abstract class PixPayoutGateway {
  abstract readonly provider: string;
  abstract readonly capabilities: GatewayCapabilities;
  /** The provider's transfer id for an attempt (Efí `idEnvio`): the idempotency key of every resend. */
  abstract transferIdFor(attemptId: string): string;
  /** Serialises the transfer the way it goes on the wire; its hash guards every resend. */
  abstract encodePixSend(request: PixSendRequest): string;
  /** Sends a previously encoded transfer under its transfer id. */
  abstract sendPix(transferId: string, encodedBody: string): Promise<GatewayCallResult>;
  /** Looks the transfer up by its id. Never sends anything. */
  abstract findTransfer(transferId: string): Promise<LookupResult>;
  /**
   * Every Pix sent in [from, to), streamed page by page (never the whole day in memory). Reads only; a page that
   * fails throws `StatementUnavailableError`, so nothing is concluded from half a statement.
   */
  abstract sentPixStatement(from: Date, to: Date, signal?: AbortSignal): AsyncIterable<SentPixLine>;
}
