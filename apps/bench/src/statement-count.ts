import { readFileSync, writeFileSync } from 'node:fs';
import type { ServiceProcess } from './bench-process.js';

/**
 * The running count of statements a service sent, from count-queries.preload.ts: asked for with SIGWINCH and read
 * once the service has written it to `file`.
 */
export async function statementsSentBy(service: ServiceProcess, file: string): Promise<number> {
  const asked = `asked at ${Date.now()}`;
  writeFileSync(file, asked);
  service.child.kill('SIGWINCH');
  for (let waited = 0; waited < 5000; waited += 20) {
    const text = readFileSync(file, 'utf8');
    if (text !== asked) return Number(text);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`a service did not write its statement count within 5 s of SIGWINCH`);
}
