export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

export const PIX_KEY_TYPES: readonly PixKeyType[] = ['cpf', 'cnpj', 'email', 'phone', 'evp'];

/**
 * The shapes of the DICT key types (BACEN's DICT API): checked before anything is reserved or sent. A phone key is
 * a Brazilian number in E.164 (+55, a two-digit area code, 8 or 9 digits); an e-mail key is stored lower case,
 * at most 77 characters (DICT's own pattern); a random key (EVP) is a lower-case UUID.
 */
const PATTERNS: Record<PixKeyType, { pattern: RegExp; shape: string }> = {
  cpf: { pattern: /^\d{11}$/, shape: '11 digits' },
  cnpj: { pattern: /^\d{14}$/, shape: '14 digits' },
  email: {
    pattern: /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/,
    shape: 'a lower-case e-mail address of at most 77 characters',
  },
  phone: { pattern: /^\+55[1-9]{2}9?\d{8}$/, shape: 'a Brazilian number as +55, area code and number, e.g. +5511987654321' },
  evp: { pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, shape: 'a random key (uuid, lower case)' },
};

/** Null when the key fits its type; otherwise what it should look like, for a 400 naming `pixKey`. */
export function pixKeyProblem(type: PixKeyType, key: string): string | null {
  const rule = PATTERNS[type];
  if (key.length > 77 || !rule.pattern.test(key)) return `pixKey: a ${type} key must be ${rule.shape}`;
  if (type === 'cpf' || type === 'cnpj') {
    // One digit repeated passes the DV arithmetic (000.000.000-00 is "valid"), but the Receita never issues one
    // and banks refuse it: refused here, before anything is reserved.
    if (/^(\d)\1+$/.test(key)) return `pixKey: a ${type} key must be a number the Receita issues, not one digit repeated`;
    // A mistyped digit is a Pix to nobody, or to someone else: the two check digits catch it first.
    if (!checkDigitsHold(key)) return `pixKey: a ${type} key must be a number whose check digits match (one digit is mistyped)`;
  }
  return null;
}

/** The Receita's mod-11 check digits of a CPF (11 digits) or CNPJ (14): the last two, each over the digits before it. */
function checkDigitsHold(digits: string): boolean {
  const values = [...digits].map(Number);
  const body = values.length - 2;
  for (let position = body; position < values.length; position++) {
    const weights = values.length === 11 ? cpfWeights(position) : cnpjWeights(position);
    const sum = weights.reduce((total, weight, i) => total + weight * values[i], 0);
    const remainder = sum % 11;
    if (values[position] !== (remainder < 2 ? 0 : 11 - remainder)) return false;
  }
  return true;
}

/** CPF: weights position+1 down to 2 over the digits before `position`. */
function cpfWeights(position: number): number[] {
  return Array.from({ length: position }, (_, i) => position + 1 - i);
}

/** CNPJ: weights 2..9 from the right, repeating (5,4,3,2,9,...,2 for the first digit), over the digits before `position`. */
function cnpjWeights(position: number): number[] {
  return Array.from({ length: position }, (_, i) => ((position - 1 - i) % 8) + 2);
}
