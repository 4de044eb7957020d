/** A Stripe request parameter: a scalar, a hash of them (`metadata`), or a list (`payment_method_types`). */
export type StripeFormValue = string | number | boolean | null | undefined | readonly StripeFormValue[] | { readonly [key: string]: StripeFormValue };

/**
 * Form-encodes typed Stripe parameters as stripe-node sends them: nested hashes as `key[sub]=…`, lists as
 * `key[0]=…` (stripe-node's indexed arrays), brackets literal, values percent-encoded, absent values left out. Fields come out in the order the object was written, so one
 * encoder function always yields the same bytes (the attempt stores them and resends them verbatim).
 */
export function encodeStripeForm(params: { readonly [key: string]: StripeFormValue } | readonly StripeFormValue[], prefix = ''): string {
  return Object.entries(params)
    .flatMap(([key, value]) => {
      const name = prefix ? `${prefix}[${key}]` : key;
      if (value === null || value === undefined) return [];
      if (typeof value === 'object') return [encodeStripeForm(value, name)].filter((part) => part !== '');
      return [`${name}=${encodeURIComponent(String(value))}`];
    })
    .join('&');
}
