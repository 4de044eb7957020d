import { data } from 'currency-codes';

/** A currency of money as ISO 4217 defines it: its code and how many minor units make one major unit. */
export interface IsoCurrency {
  /** Lower case, as the api and the providers write it. */
  code: string;
  /** Digits after the decimal point: 2 for usd (cents), 0 for jpy, 3 for bhd. */
  minorUnits: number;
}

/**
 * Codes in ISO 4217 that are not money a customer can be charged in: testing and "no currency" (XTS, XXX),
 * precious metals by the troy ounce (XAU, XAG, XPT, XPD), bond-market units (XBA..XBD), the IMF's and
 * regional drawing rights and settlement units (XDR, XSU, XUA), and fund or indexed units that only price
 * other money (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW). ISO lists them beside real currencies.
 */
const NOT_MONEY = new Set(['XXX', 'XTS', 'XAU', 'XAG', 'XPT', 'XPD', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA', 'BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW']);

// Built once: the create path asks on every charge, and the package's own lookup scans the list.
const BY_CODE = new Map(data.filter((record) => !NOT_MONEY.has(record.code)).map((record) => [record.code.toLowerCase(), record.digits]));

/** The ISO 4217 currency a code names (any case), or null when it names none or names something that is not money. */
export function isoCurrency(code: string): IsoCurrency | null {
  const lower = code.toLowerCase();
  const minorUnits = BY_CODE.get(lower);
  return minorUnits === undefined ? null : { code: lower, minorUnits };
}
