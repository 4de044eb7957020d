import { ProviderHttpClient } from '@app/gateways';
import type { EfiSimulatorConfig } from './efi-simulator-config.js';
import type { EfiTransfer } from './efi-transfers.store.js';

export interface EfiWebhookDelivery {
  idEnvio: string;
  status: string;
  outcome: 'delivered' | 'failed' | 'not_sent';
  httpStatus: number | null;
}

/**
 * Efí's sent-Pix webhook: `POST {url}/pix` with `{pix: [...]}`, authenticated only by the client certificate the
 * sender presents (mutual TLS; no payload signature). Failures are recorded, never thrown.
 */
export class EfiWebhookSender {
  private readonly log: EfiWebhookDelivery[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly settings: () => EfiSimulatorConfig['webhook'],
    private readonly count: (outcome: 'sent' | 'delivered' | 'failed') => void,
  ) {}

  emit(transfer: EfiTransfer): void {
    const { url, tls } = this.settings();
    if (!url) {
      this.log.push({ idEnvio: transfer.idEnvio, status: transfer.status, outcome: 'not_sent', httpStatus: null });
      return;
    }
    const body = JSON.stringify({
      pix: [
        {
          endToEndId: transfer.endToEndId,
          chave: transfer.favorecido.chave,
          valor: transfer.valor,
          horario: transfer.horario.liquidacao ?? transfer.horario.solicitacao,
          status: transfer.status,
          tipo: 'SOLICITACAO',
          gnExtras: { idEnvio: transfer.idEnvio },
        },
      ],
    });
    const http = new ProviderHttpClient({ connectTimeoutMs: 2_000, readTimeoutMs: 10_000 }, tls);
    this.count('sent');
    const delivery = http
      .send({ method: 'POST', url: `${url.replace(/\/+$/, '')}/pix`, headers: { 'Content-Type': 'application/json' }, body })
      .then((result) => {
        const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
        this.count(ok ? 'delivered' : 'failed');
        this.log.push({ idEnvio: transfer.idEnvio, status: transfer.status, outcome: ok ? 'delivered' : 'failed', httpStatus: result.kind === 'response' ? result.status : null });
      });
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  deliveries(): EfiWebhookDelivery[] {
    return structuredClone(this.log);
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  clear(): void {
    this.log.length = 0;
  }
}
