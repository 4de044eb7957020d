import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const RESOURCES = join(process.cwd(), 'node_modules/stripe/cjs/resources');

/**
 * The top-level fields the official `stripe` package declares for an API object (`export interface <name> { … }`
 * in its resource's .d.ts, generated from Stripe's OpenAPI spec): what a simulator answer may carry.
 */
export function declaredFields(resourceFile: string, interfaceName: string): Set<string> {
  const source = readFileSync(join(RESOURCES, resourceFile), 'utf8');
  const start = source.indexOf(`\nexport interface ${interfaceName} {`);
  if (start < 0) throw new Error(`${interfaceName} is not declared in ${resourceFile}`);
  const body = source.slice(start, source.indexOf('\n}', start));
  const fields = new Set([...body.matchAll(/^ {4}([a-z_][a-z0-9_]*)\??:/gm)].map((m) => m[1]));
  if (fields.size < 5) throw new Error(`read too few fields of ${interfaceName}: ${[...fields].join(', ')}`);
  return fields;
}

/** The fields of `value` Stripe's type for it does not declare: a simulator answer should have none. */
export function undeclared(value: unknown, fields: Set<string>): string[] {
  return Object.keys(value as Record<string, unknown>).filter((key) => !fields.has(key));
}
