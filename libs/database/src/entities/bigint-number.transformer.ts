import type { ValueTransformer } from 'typeorm';

/** Money is integer minor units in a bigint column; node-pg returns bigint as a string. */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
