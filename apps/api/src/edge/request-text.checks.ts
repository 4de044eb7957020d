/**
 * What a request's text must be before any parser, validator or SQL sees it. A nesting limit (class-transformer
 * recurses once per level, so 100 000 brackets overflowed the stack into a 500), well-formed UTF-8 (decoding it
 * leniently would store U+FFFD in place of the merchant's own bytes: an order id silently changed), and no NUL or
 * lone surrogate in any string (PostgreSQL text cannot hold a NUL, and a lone surrogate is written as U+FFFD).
 */
export const MAX_BODY_DEPTH = 32;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or the problem that refuses it. */
export function decodeBody(body: Buffer): { text: string } | { problem: string } {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    return { problem: 'the body is not well-formed UTF-8' };
  }
  return jsonDepthAbove(text, MAX_BODY_DEPTH) ? { problem: `the body nests deeper than ${MAX_BODY_DEPTH} levels` } : { text };
}

/** True once the JSON text opens more than `limit` arrays or objects inside each other (strings skipped). */
export function jsonDepthAbove(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Where the first string no database column could hold faithfully is (`orderId`, `items[2].name`), or null. */
export function unstorableStringAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isStorable(value) ? null : path || 'body';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableStringAt(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isStorable(key)) return at;
      const found = unstorableStringAt(inner, at);
      if (found) return found;
    }
  }
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isStorable(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** A raw query string whose percent-escapes do not decode to UTF-8 (`%C3%28`), or one parameter the checks refuse. */
export function refusedQueryParameter(rawUrl: string, query: unknown): string | null {
  const mark = rawUrl.indexOf('?');
  if (mark === -1) return null;
  for (const pair of rawUrl.slice(mark + 1).split('&')) {
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      return pair.split('=')[0] || 'query';
    }
  }
  return unstorableStringAt(query);
}
