import { describe, expect, it } from 'vitest';
import { EfiWebhookDecoder } from './efi-webhook.decoder.js';

const idEnvio = '2cbeb1a57ecb4a9b9c0f2f429e87bb8b';
const body = (pix: unknown[]) => Buffer.from(JSON.stringify({ pix }));
const realizado = { endToEndId: 'E0908935620261203070370ec579962c', valor: '12.34', status: 'REALIZADO', gnExtras: { idEnvio } };
const transport = (query: Record<string, string> = {}, tlsClientAuthorized = false) => ({ query, tlsClientAuthorized });

describe('EfiWebhookDecoder', () => {
  const hmac = 'h'.repeat(32);

  it('reads each Pix of a notification as one event naming our attempt, deduplicated by (endToEndId, status)', () => {
    const decoded = new EfiWebhookDecoder({ hmac, requireClientCertificate: false }).decode(
      body([realizado, { ...realizado, endToEndId: 'E2', status: 'NAO_REALIZADO' }]), {}, 0, transport({ hmac }),
    );
    expect(decoded).toMatchObject({
      ok: true,
      event: { eventId: `${realizado.endToEndId}:REALIZADO`, attemptId: '2cbeb1a5-7ecb-4a9b-9c0f-2f429e87bb8b', providerChargeId: realizado.endToEndId, outcome: 'succeeded', amountCents: 1234, currency: 'brl' },
      more: [{ eventId: 'E2:NAO_REALIZADO', outcome: 'failed' }],
    });
  });

  it.each([
    ['no hmac', transport()],
    ['a wrong hmac', transport({ hmac: 'x'.repeat(32) })],
  ])('refuses a delivery with %s when EFI_WEBHOOK_HMAC is set', (_, t) => {
    expect(new EfiWebhookDecoder({ hmac, requireClientCertificate: false }).decode(body([realizado]), {}, 0, t)).toEqual({ ok: false, reason: 'hmac: missing or wrong' });
  });

  it('requires a verified client certificate when EFI_WEBHOOK_CA_PATH is set, unless the hmac matches', () => {
    const mtls = new EfiWebhookDecoder({ requireClientCertificate: true });
    expect(mtls.decode(body([realizado]), {}, 0, transport())).toEqual({ ok: false, reason: 'client certificate: missing or not trusted' });
    expect(mtls.decode(body([realizado]), {}, 0, transport({}, true))).toMatchObject({ ok: true });
    expect(new EfiWebhookDecoder({ hmac, requireClientCertificate: true }).decode(body([realizado]), {}, 0, transport({ hmac }))).toMatchObject({ ok: true });
  });

  it('refuses a body that is not a Pix notification, and keeps an unreadable valor as a mismatch', () => {
    const decoder = new EfiWebhookDecoder({ hmac, requireClientCertificate: false });
    const signed = transport({ hmac });
    expect(decoder.decode(Buffer.from('nope'), {}, 0, signed)).toMatchObject({ ok: false });
    expect(decoder.decode(body([]), {}, 0, signed)).toMatchObject({ ok: false });
    expect(decoder.decode(body([{ status: 'REALIZADO' }]), {}, 0, signed)).toMatchObject({ ok: false });
    expect(decoder.decode(body([{ ...realizado, valor: 'doze' }]), {}, 0, signed)).toMatchObject({ ok: true, event: { amountCents: Number.NaN } });
  });

  it('refuses every delivery when no authentication is configured, whatever it carries', () => {
    const open = new EfiWebhookDecoder({ requireClientCertificate: false });
    expect(open.decode(body([realizado]), {}, 0, transport({ hmac }))).toEqual({ ok: false, reason: 'no webhook authentication is configured for Efí' });
  });
});
