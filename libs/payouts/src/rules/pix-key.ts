export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

export const PIX_KEY_TYPES: readonly PixKeyType[] = ['cpf', 'cnpj', 'email', 'phone', 'evp'];

/** The shapes of the DICT key types (BACEN): checked before anything is reserved or sent. */
const PATTERNS: Record<PixKeyType, { pattern: RegExp; shape: string }> = {
  cpf: { pattern: /^\d{11}$/, shape: '11 digits' },
  cnpj: { pattern: /^\d{14}$/, shape: '14 digits' },
  email: { pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, shape: 'an e-mail address' },
  phone: { pattern: /^\+[1-9]\d{10,13}$/, shape: '+ and country code, e.g. +5511987654321' },
  evp: { pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, shape: 'a random key (uuid, lower case)' },
};

/** Null when the key fits its type; otherwise what it should look like, for a 400 naming `pixKey`. */
export function pixKeyProblem(type: PixKeyType, key: string): string | null {
  const rule = PATTERNS[type];
  if (key.length > 77 || !rule.pattern.test(key)) return `pixKey: a ${type} key must be ${rule.shape}`;
  // One digit repeated passes the DV arithmetic (000.000.000-00 is "valid"), but the Receita never issues one
  // and banks refuse it: refused here, before anything is reserved.
  if ((type === 'cpf' || type === 'cnpj') && /^(\d)\1+$/.test(key)) {
    return `pixKey: a ${type} key must be a number the Receita issues, not one digit repeated`;
  }
  return null;
}
