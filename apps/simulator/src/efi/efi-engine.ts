import { randomBytes } from 'node:crypto';
import { FaultPlanner } from '../fault-plan.js';
import { HangTracker } from '../hang-tracker.js';
import { DEFAULT_EFI_CONFIG, type EfiSimulatorConfig } from './efi-simulator-config.js';
import { emptyEfiStats, type EfiSimulatorStats } from './efi-stats.js';
import { EfiTransferStore, newEndToEndId, newReturnId, type EfiPixStatus, type EfiTransfer } from './efi-transfers.store.js';
import { EfiWebhookSender } from './efi-webhook-sender.js';

export interface NewTransfer {
  idEnvio: string;
  valor: string;
  pagador: { chave: string; infoPagador?: string };
  favorecido: { chave: string };
  fingerprint: string;
}

export interface PlantedTransfer {
  idEnvio: string;
  valor: string;
  requestedAt: Date;
  endToEndId?: string;
  status?: EfiPixStatus;
  payerKey?: string;
  payeeKey?: string;
}

/** The simulated Efí account: tokens, sent Pix, faults and counters. Knows nothing about HTTP. */
export class EfiEngine {
  readonly transfers = new EfiTransferStore();
  readonly faults = new FaultPlanner();
  readonly hangs = new HangTracker();
  readonly webhooks: EfiWebhookSender;
  private counters = emptyEfiStats();
  private readonly tokens = new Map<string, number>();
  private current: EfiSimulatorConfig;

  constructor(private readonly initialConfig: EfiSimulatorConfig = DEFAULT_EFI_CONFIG) {
    this.current = initialConfig;
    this.webhooks = new EfiWebhookSender(() => this.current.webhook, (outcome) => (this.counters.webhooks[outcome] += 1));
  }

  get config(): EfiSimulatorConfig {
    return this.current;
  }

  configure(patch: Partial<EfiSimulatorConfig>): EfiSimulatorConfig {
    this.current = { ...this.current, ...patch };
    return this.current;
  }

  get count(): Omit<EfiSimulatorStats, 'debitsByIdEnvio' | 'hangingConnections'> {
    return this.counters;
  }

  countFault(name: string): void {
    this.counters.faultsInjected[name] = (this.counters.faultsInjected[name] ?? 0) + 1;
  }

  stats(): EfiSimulatorStats {
    return { ...structuredClone(this.counters), debitsByIdEnvio: { ...this.transfers.debitsByIdEnvio }, hangingConnections: this.hangs.size };
  }

  issueToken(): { access_token: string; token_type: string; expires_in: number; scope: string } {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, Date.now() + this.current.tokenTtlS * 1000);
    this.counters.requests.tokens += 1;
    return { access_token: token, token_type: 'Bearer', expires_in: this.current.tokenTtlS, scope: 'pix.send pix.read gn.pix.send.read' };
  }

  tokenIsValid(token: string): boolean {
    const expiresAt = this.tokens.get(token);
    return expiresAt !== undefined && Date.now() < expiresAt;
  }

  /**
   * Executes a transfer: `EM_PROCESSAMENTO`, the only status the official SDK's schema gives the PUT's answer. It
   * debits the payer and schedules its settlement, unless declined: then nothing is debited and the caller settles
   * it `NAO_REALIZADO` once it has answered (a refusal is learnt by lookup or webhook, never from the send).
   */
  execute(input: NewTransfer, declined = false): EfiTransfer {
    const now = new Date();
    const transfer: EfiTransfer = {
      ...input,
      endToEndId: newEndToEndId(now),
      status: 'EM_PROCESSAMENTO',
      horario: { solicitacao: now.toISOString() },
    };
    this.transfers.add(transfer, !declined);
    this.counters.transfersCreated += 1;
    const settleAfterMs = this.current.settleAfterMs;
    if (!declined && settleAfterMs !== null) {
      const outcome: EfiPixStatus = this.current.failPayeeKeys.includes(input.favorecido.chave) ? 'NAO_REALIZADO' : 'REALIZADO';
      this.hangs.defer(settleAfterMs, () => this.settle(input.idEnvio, outcome));
    }
    return transfer;
  }

  /** Transfers as if sent earlier (a statement day for a bench or test): no settling, no webhook. */
  plant(transfers: PlantedTransfer[]): void {
    for (const t of transfers) {
      const transfer: EfiTransfer = {
        idEnvio: t.idEnvio,
        endToEndId: t.endToEndId ?? newEndToEndId(t.requestedAt),
        valor: t.valor,
        pagador: { chave: t.payerKey ?? 'payouts@charge-once.example' },
        favorecido: { chave: t.payeeKey ?? 'payee@example.com' },
        status: t.status ?? 'REALIZADO',
        horario: { solicitacao: t.requestedAt.toISOString() },
        fingerprint: '',
      };
      this.transfers.add(transfer, transfer.status !== 'NAO_REALIZADO');
    }
  }

  /** Moves a transfer still EM_PROCESSAMENTO to its final state and announces it by webhook. Final states never move. */
  settle(idEnvio: string, status: EfiPixStatus): EfiTransfer {
    const transfer = this.transfers.get(idEnvio);
    if (!transfer) throw new Error(`no transfer with idEnvio ${idEnvio}`);
    if (transfer.status !== 'EM_PROCESSAMENTO' || status === 'EM_PROCESSAMENTO') return transfer;
    transfer.status = status;
    transfer.horario.liquidacao = new Date().toISOString();
    this.webhooks.emit(transfer);
    return transfer;
  }

  /**
   * The payee's bank sends back `cents` of an executed transfer (Efí lists it in the Pix's `devolucoes`). Refused
   * for a transfer not executed, or beyond what is left of it: a bank can only return money it received.
   */
  returnPix(idEnvio: string, cents: number, at = new Date()): { rtrId: string; valor: string; horario: string } {
    const transfer = this.transfers.get(idEnvio);
    if (!transfer) throw new Error(`no transfer with idEnvio ${idEnvio}`);
    if (transfer.status !== 'REALIZADO') throw new Error(`transfer ${idEnvio} is ${transfer.status}: only an executed Pix can be returned`);
    // The valor strings are "12.34" (the send route refuses anything else): digits without the dot are cents.
    const centsOf = (valor: string) => Number(valor.replace('.', ''));
    const returned = (transfer.devolucoes ?? []).reduce((sum, d) => sum + centsOf(d.valor), 0);
    if (!Number.isSafeInteger(cents) || cents <= 0 || returned + cents > centsOf(transfer.valor)) throw new Error(`cannot return ${cents} of ${transfer.valor} (${returned} returned already)`);
    const valor = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const devolucao = { rtrId: newReturnId(at), valor, horario: at.toISOString() };
    transfer.devolucoes = [...(transfer.devolucoes ?? []), devolucao];
    this.counters.returns += 1;
    return structuredClone(devolucao);
  }

  reset(): void {
    this.hangs.releaseAll();
    this.transfers.clear();
    this.faults.clear();
    this.webhooks.clear();
    this.tokens.clear();
    this.counters = emptyEfiStats();
    this.current = this.initialConfig;
  }

  close(): void {
    this.hangs.releaseAll();
  }
}
