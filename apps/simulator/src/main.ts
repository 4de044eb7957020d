import { startEfiSimulator } from './efi/start-efi-simulator.js';
import { startSimulator } from './start-simulator.js';
import { DEFAULT_ASAAS_WEBHOOK_TOKEN, DEFAULT_WEBHOOK_SECRET } from './simulator-config.js';

/** Runs the simulator as its own process: `npm run start:simulator`. */
function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} must be a port number, got ${raw}`);
  return port;
}

const simulator = await startSimulator({
  port: portFromEnv('SIMULATOR_PORT', 12111),
  controlPort: portFromEnv('SIMULATOR_CONTROL_PORT', 12112),
  host: process.env.SIMULATOR_HOST || '127.0.0.1',
  recordQueryArrivals: process.env.SIMULATOR_RECORD_ARRIVALS === '1',
  webhook: {
    url: process.env.SIMULATOR_WEBHOOK_URL || null,
    secret: process.env.STRIPE_WEBHOOK_SECRET || DEFAULT_WEBHOOK_SECRET,
  },
  asaasWebhook: {
    url: process.env.SIMULATOR_ASAAS_WEBHOOK_URL || null,
    secret: process.env.ASAAS_WEBHOOK_TOKEN || DEFAULT_ASAAS_WEBHOOK_TOKEN,
  },
});

// The Efí Pix API only when asked for (plain HTTP: the mTLS path is exercised by the tests, with certificates).
const efiPort = process.env.SIMULATOR_EFI_PORT ? portFromEnv('SIMULATOR_EFI_PORT', 12113) : null;
const efi =
  efiPort === null
    ? null
    : await startEfiSimulator({ port: efiPort, host: process.env.SIMULATOR_HOST || '127.0.0.1', webhook: { url: process.env.SIMULATOR_EFI_WEBHOOK_URL || null } });

console.log(
  JSON.stringify({
    msg: 'simulator listening',
    efiApiUrl: efi?.apiUrl ?? null,
    apiUrl: simulator.apiUrl,
    controlUrl: simulator.controlUrl,
    webhookUrl: simulator.config().webhook.url,
  }),
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ msg: 'simulator stopping', signal }));
  void Promise.all([simulator.close(), efi?.close()]).then(() => process.exit(0));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
