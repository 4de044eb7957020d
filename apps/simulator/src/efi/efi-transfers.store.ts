import { randomBytes } from 'node:crypto';

export type EfiPixStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';

export interface EfiTransfer {
  idEnvio: string;
  endToEndId: string;
  valor: string;
  pagador: { chave: string; infoPagador?: string };
  favorecido: { chave: string };
  status: EfiPixStatus;
  horario: { solicitacao: string; liquidacao?: string };
  /** What the payee's bank sent back of it (a MED or a payee's own return), oldest first. */
  devolucoes?: Array<{ rtrId: string; valor: string; horario: string }>;
  /** The request body that created it: a repeat must match it to be the same transfer. */
  fingerprint: string;
}

/** What the Efí API answers about a sent Pix (PUT answer and lookup share it). */
export function transferView(transfer: EfiTransfer): Record<string, unknown> {
  return {
    idEnvio: transfer.idEnvio,
    endToEndId: transfer.endToEndId,
    valor: transfer.valor,
    chave: transfer.pagador.chave,
    favorecido: transfer.favorecido,
    status: transfer.status,
    horario: transfer.horario,
    ...(transfer.devolucoes?.length ? { devolucoes: transfer.devolucoes } : {}),
    gnExtras: { idEnvio: transfer.idEnvio },
  };
}

/** BACEN end-to-end id shape: E + 8-digit ISPB + yyyyMMddHHmm + 11 characters. */
export function newEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E09089356${stamp}${randomBytes(8).toString('hex').slice(0, 11)}`;
}

/** BACEN return id shape: D + 8-digit ISPB + yyyyMMddHHmm + 11 characters. */
export function newReturnId(now: Date): string {
  return `D${newEndToEndId(now).slice(1)}`;
}

/** Sent Pix by idEnvio, and how many times each idEnvio debited the payer: anything above 1 is a double payout. */
export class EfiTransferStore {
  private readonly byIdEnvio = new Map<string, EfiTransfer>();
  private readonly inFlight = new Set<string>();
  /** The sorted list a statement pages through, rebuilt only when a transfer is added (a day may hold a million). */
  private sorted: EfiTransfer[] | null = null;
  readonly debitsByIdEnvio: Record<string, number> = {};

  get(idEnvio: string): EfiTransfer | undefined {
    return this.byIdEnvio.get(idEnvio);
  }

  all(): EfiTransfer[] {
    return structuredClone([...this.byIdEnvio.values()]);
  }

  add(transfer: EfiTransfer, debited: boolean): void {
    this.byIdEnvio.set(transfer.idEnvio, transfer);
    this.sorted = null;
    if (debited) this.debitsByIdEnvio[transfer.idEnvio] = (this.debitsByIdEnvio[transfer.idEnvio] ?? 0) + 1;
  }

  /** As if requested at `requestedAt`: the statement lists it on that day. */
  backdate(idEnvio: string, requestedAt: Date): void {
    const transfer = this.byIdEnvio.get(idEnvio);
    if (!transfer) throw new Error(`no transfer with idEnvio ${idEnvio}`);
    transfer.horario.solicitacao = requestedAt.toISOString();
    this.sorted = null;
  }

  /** A request executing late holds its idEnvio: a repeat meanwhile is told it is in progress. */
  markInFlight(idEnvio: string, inFlight: boolean): void {
    if (inFlight) this.inFlight.add(idEnvio);
    else this.inFlight.delete(idEnvio);
  }

  isInFlight(idEnvio: string): boolean {
    return this.inFlight.has(idEnvio);
  }

  /**
   * One page of the transfers requested in [from, to), oldest first (ties by idEnvio), and how many there are: the
   * live objects, for the page's view. Binary search on a list sorted once per added transfer, so a page of a
   * million-transfer day costs its own size, not the day's.
   */
  pageRequestedBetween(fromMs: number, toMs: number, offset: number, limit: number): { total: number; items: EfiTransfer[] } {
    this.sorted ??= [...this.byIdEnvio.values()].sort((a, b) => a.horario.solicitacao.localeCompare(b.horario.solicitacao) || a.idEnvio.localeCompare(b.idEnvio));
    const first = this.firstAtOrAfter(fromMs);
    const end = this.firstAtOrAfter(toMs);
    return { total: end - first, items: this.sorted.slice(Math.min(end, first + offset), Math.min(end, first + offset + limit)) };
  }

  private firstAtOrAfter(ms: number): number {
    const sorted = this.sorted!;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (Date.parse(sorted[mid].horario.solicitacao) < ms) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  clear(): void {
    this.sorted = null;
    this.byIdEnvio.clear();
    this.inFlight.clear();
    for (const key of Object.keys(this.debitsByIdEnvio)) delete this.debitsByIdEnvio[key];
  }
}
