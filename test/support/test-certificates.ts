import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  ca: string;
  serverKey: string;
  serverCert: string;
  /** PEM holding the client certificate and its key (what EFI_CERT_PATH may point at). */
  clientPemPath: string;
  /** The same client identity as PKCS#12 with an empty passphrase (what Efí hands out). */
  clientP12Path: string;
  clientKey: string;
  clientCert: string;
  /** A client certificate from a CA the server does not trust. */
  strangerPemPath: string;
  remove(): void;
}

/** A throwaway CA, a server certificate for 127.0.0.1 and client certificates, made with the machine's openssl. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'efi-mtls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const issue = (name: string, ca: string, subject: string, ext: string) => {
    writeFileSync(join(dir, `${name}.ext`), ext);
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`);
  };
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=charge-once test CA');
  openssl('req', '-x509', ...ec, '-keyout', 'stranger-ca.key', '-out', 'stranger-ca.pem', '-days', '2', '-subj', '/CN=some other CA');
  issue('server', 'ca', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue('client', 'ca', '/CN=efi-account-client', 'extendedKeyUsage=clientAuth\n');
  issue('stranger', 'stranger-ca', '/CN=not-our-client', 'extendedKeyUsage=clientAuth\n');
  openssl('pkcs12', '-export', '-in', 'client.pem', '-inkey', 'client.key', '-out', 'client.p12', '-passout', 'pass:');
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  writeFileSync(join(dir, 'client-bundle.pem'), read('client.pem') + read('client.key'));
  writeFileSync(join(dir, 'stranger-bundle.pem'), read('stranger.pem') + read('stranger.key'));
  return {
    dir,
    ca: read('ca.pem'),
    serverKey: read('server.key'),
    serverCert: read('server.pem'),
    clientPemPath: join(dir, 'client-bundle.pem'),
    clientP12Path: join(dir, 'client.p12'),
    clientKey: read('client.key'),
    clientCert: read('client.pem'),
    strangerPemPath: join(dir, 'stranger-bundle.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
