// ISO 4217 minor units of every currency of money whose minor units are not 2 (from the currency-codes package the
// api checks charges with; test/console-money.test.ts holds this table to it). The browser's own Intl digits are
// CLDR's, which differ from ISO's for some (iqd, lyd, mga...), while every amount the api holds is in ISO's units.
const NOT_TWO = {
  bhd: 3, iqd: 3, jod: 3, kwd: 3, lyd: 3, omr: 3, tnd: 3,
  bif: 0, clp: 0, djf: 0, gnf: 0, isk: 0, jpy: 0, kmf: 0, krw: 0, pyg: 0, rwf: 0, ugx: 0, vnd: 0, vuv: 0, xaf: 0, xof: 0, xpf: 0,
};

/** Digits after the decimal point for a currency, as ISO 4217 counts its minor units (jpy 0, usd 2, bhd 3). */
export function minorUnitsOf(currency) {
  return NOT_TWO[currency.toLowerCase()] ?? 2;
}
