import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Clients branch on `code`: one code names one refusal, and every domain error says what kind it is. */
describe('domain error codes', () => {
  const declared = sources('libs').flatMap((path) =>
    [...readFileSync(path, 'utf8').matchAll(/class (\w+) extends DomainError \{\n((?:.*\n)*?)\}/g)].map(([, name, body]) => ({
      path,
      name,
      code: /readonly code = '([a-z_]+)'/.exec(body)?.[1] ?? null,
      kind: /readonly kind = '([a-z_]+)'/.exec(body)?.[1] ?? null,
    })),
  );

  it('finds the errors it checks', () => {
    expect(declared.length).toBeGreaterThan(40);
  });

  it('gives each class its own code and a kind', () => {
    const byCode = new Map<string, string[]>();
    for (const error of declared) {
      expect(error.code, `${error.name} in ${error.path} has no code`).not.toBeNull();
      expect(error.kind, `${error.name} in ${error.path} has no kind`).not.toBeNull();
      byCode.set(error.code!, [...(byCode.get(error.code!) ?? []), error.name]);
    }
    expect([...byCode].filter(([, names]) => names.length > 1)).toEqual([]);
  });
});
