import type Stripe from 'stripe';
import { isRecord } from '@app/common';

/**
 * A Stripe object as it came off the wire: exactly the fields the official `stripe` package's type names, each
 * still `unknown` until checked. Reading a field through it that Stripe's API does not have (a misspelling, a
 * field of another object, one removed in the pinned version) is a compile error, not a silent `undefined`.
 */
export type Wire<T> = { readonly [K in keyof T]?: unknown };

/** `value` read as a `T` from the wire, when it is an object at all. */
export function wire<T>(value: unknown): Wire<T> | null {
  return isRecord(value) ? value : null;
}

export type WirePaymentIntent = Wire<Stripe.PaymentIntent>;
