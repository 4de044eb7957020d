/** A form-encoded body decoded into Stripe's nested shape: `metadata[charge_id]=x` → `{ metadata: { charge_id: 'x' } }`. */
export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

const KEY_PATTERN = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;
// Keys that would reach Object.prototype if written through.
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export function parseFormBody(raw: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const match = KEY_PATTERN.exec(key);
    const path = match ? [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])] : [key];
    if (path.some((segment) => FORBIDDEN_KEYS.has(segment))) continue;
    assign(root, path, value);
  }
  return root;
}

function assign(target: FormObject, path: string[], value: string): void {
  let node: FormObject = target;
  for (let index = 0; index < path.length - 1; index += 1) {
    const segment = path[index];
    if (path[index + 1] === '' && index + 1 === path.length - 1) {
      // `expand[]=a&expand[]=b` builds an array.
      const existing = node[segment];
      const list = Array.isArray(existing) ? existing : [];
      list.push(value);
      node[segment] = list;
      return;
    }
    const child = node[segment];
    node = node[segment] = typeof child === 'object' && !Array.isArray(child) ? child : {};
  }
  node[path[path.length - 1]] = value;
}

/** The string at a top-level or nested key, or null when it is absent or not a string. */
export function formString(form: FormObject, ...path: string[]): string | null {
  let node: FormValue | undefined = form;
  for (const segment of path) {
    node = typeof node === 'object' && !Array.isArray(node) ? node[segment] : undefined;
  }
  return typeof node === 'string' ? node : null;
}
