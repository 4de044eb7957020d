import { readFileSync } from 'node:fs';
import type { ProviderTlsOptions } from '../http/provider-http.client.js';

/**
 * The account certificate Efí requires on every call (mutual TLS). A `.p12`/`.pfx` file is used as is (Efí hands
 * out P12 files); anything else must be PEM holding both the certificate and its private key (what
 * `openssl pkcs12 -in cert.p12 -out cert.pem -nodes` produces).
 */
export function loadEfiClientCertificate(path: string, passphrase?: string): ProviderTlsOptions {
  if (/\.(p12|pfx)$/i.test(path)) return { pfx: readFileSync(path), ...(passphrase ? { passphrase } : {}) };
  const pem = readFileSync(path, 'utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----') || !/-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(pem)) {
    throw new Error(`EFI_CERT_PATH: ${path} must be a .p12 file, or PEM holding both the certificate and its private key`);
  }
  return { cert: pem, key: pem, ...(passphrase ? { passphrase } : {}) };
}
