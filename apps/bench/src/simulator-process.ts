import type { SimulatorStatsSnapshot } from '@app/simulator';
import { type ServiceProcess, startService } from './bench-process.js';

export interface SimulatorProcess {
  service: ServiceProcess;
  apiUrl: string;
  /** `GET /_sim/stats` */
  stats(): Promise<SimulatorStatsSnapshot>;
  /** `GET /_sim/arrivals`: when each query arrived, in ms on the simulator's own monotonic clock. */
  queryArrivals(): Promise<number[]>;
  stop(): Promise<void>;
}

/**
 * The simulator as its own process (`apps/simulator/src/main.ts`) on free ports, timestamping every query it
 * receives: a provider counts our rate on its own clock, undisturbed by whatever stalls the bench's event loop.
 */
export async function startSimulatorProcess(): Promise<SimulatorProcess> {
  let announce: (urls: { apiUrl: string; controlUrl: string }) => void = () => undefined;
  const listening = new Promise<{ apiUrl: string; controlUrl: string }>((resolve) => (announce = resolve));
  const service = startService({ script: 'apps/simulator/src/main.js' }, { SIMULATOR_PORT: '0', SIMULATOR_CONTROL_PORT: '0', SIMULATOR_RECORD_ARRIVALS: '1' }, [], (line) => {
    const message = parseLine(line);
    if (message?.msg === 'simulator listening') announce({ apiUrl: String(message.apiUrl), controlUrl: String(message.controlUrl) });
  });
  const exited = new Promise<never>((_, reject) => service.child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before listening`))));
  const { apiUrl, controlUrl } = await Promise.race([listening, exited]);
  const control = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${controlUrl}${path}`);
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return (await response.json()) as T;
  };
  return {
    service,
    apiUrl,
    stats: () => control<SimulatorStatsSnapshot>('/_sim/stats'),
    queryArrivals: async () => {
      const { recording, at } = await control<{ recording: boolean; at: number[] }>('/_sim/arrivals');
      if (!recording) throw new Error('the simulator is not recording query arrivals');
      return at;
    },
    stop: () => service.stop(),
  };
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
