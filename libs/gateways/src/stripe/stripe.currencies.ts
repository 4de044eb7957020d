import type { CurrencyAmountRule, ProviderCurrencies } from '../provider-currencies.js';

/*
 * Stripe's currency rules as its docs publish them (docs.stripe.com/currencies). Where each figure was read: the
 * zero-decimal list and the three-decimal rule on that page and its 2022 archive; the minimum charge table only as
 * public integrations quote it (Mozilla's fxa), with gbp's £0.30 also in two integrators' help pages. Check a
 * minimum against the live page before relying on it; a wrong one refuses a charge Stripe would take, never the reverse
 * of a money rule (Stripe itself still refuses below its own).
 * - "Supported presentment currencies" for card payments, the list below; "Three-decimal currencies" (bhd, jod,
 *   kwd, omr, tnd) are taken for Payment Intents and Refunds only with the last digit 0 ("your integration must
 *   round amounts to the nearest ten").
 * - "Zero-decimal currencies": the amount is the major amount (¥500 is 500). Stripe's minor units equal ISO 4217's
 *   for every currency listed here (a spec checks it), so an amount we store is the amount Stripe reads.
 * - "Minimum and maximum charge amounts": the minimum is fixed in the settlement currency (the table below); a
 *   charge presented in another currency must convert to at least that much, which only Stripe can tell at the
 *   moment of the charge, so for those currencies no minimum is checked here.
 * Left out on purpose: isk (Stripe keeps it two-decimal in the API, amounts divisible by 100, while ISO 4217 gives
 * it none) and mga (zero-decimal at Stripe, two decimals in ISO): an amount would mean 100× another sum on each
 * side. std and xcg are Stripe codes the ISO list we read does not hold (std was withdrawn for stn).
 */

/** Zero-decimal at Stripe, as published (mga included: its balance lines are read in Stripe's units). */
export const STRIPE_ZERO_DECIMAL: ReadonlySet<string> = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

/** Three-decimal at Stripe; amounts must end in 0. */
export const STRIPE_THREE_DECIMAL: ReadonlySet<string> = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

const PRESENTMENT = [
  'usd', 'aed', 'afn', 'all', 'amd', 'ang', 'aoa', 'ars', 'aud', 'awg', 'azn', 'bam', 'bbd', 'bdt', 'bgn', 'bif', 'bmd', 'bnd',
  'bob', 'brl', 'bsd', 'bwp', 'byn', 'bzd', 'cad', 'cdf', 'chf', 'clp', 'cny', 'cop', 'crc', 'cve', 'czk', 'djf', 'dkk', 'dop',
  'dzd', 'egp', 'etb', 'eur', 'fjd', 'fkp', 'gbp', 'gel', 'gip', 'gmd', 'gnf', 'gtq', 'gyd', 'hkd', 'hnl', 'htg', 'huf', 'idr',
  'ils', 'inr', 'jmd', 'jpy', 'kes', 'kgs', 'khr', 'kmf', 'krw', 'kyd', 'kzt', 'lak', 'lbp', 'lkr', 'lrd', 'lsl', 'mad', 'mdl',
  'mkd', 'mmk', 'mnt', 'mop', 'mur', 'mvr', 'mwk', 'mxn', 'myr', 'mzn', 'nad', 'ngn', 'nio', 'nok', 'npr', 'nzd', 'pab', 'pen',
  'pgk', 'php', 'pkr', 'pln', 'pyg', 'qar', 'ron', 'rsd', 'rub', 'rwf', 'sar', 'sbd', 'scr', 'sek', 'sgd', 'shp', 'sle', 'sos',
  'srd', 'szl', 'thb', 'tjs', 'top', 'try', 'ttd', 'twd', 'tzs', 'uah', 'ugx', 'uyu', 'uzs', 'vnd', 'vuv', 'wst', 'xaf', 'xcd',
  'xof', 'xpf', 'yer', 'zar', 'zmw',
  ...STRIPE_THREE_DECIMAL,
];

/** "Minimum and maximum charge amounts", in minor units of the settlement currency (usd $0.50 is 50, huf 175.00 Ft is 17500). */
export const STRIPE_MINIMUM_CHARGE: Readonly<Record<string, number>> = {
  usd: 50, aed: 200, aud: 50, bgn: 100, brl: 50, cad: 50, chf: 50, czk: 1500, dkk: 250, eur: 50, gbp: 30, hkd: 400,
  huf: 17500, inr: 50, jpy: 50, mxn: 1000, myr: 200, nok: 300, nzd: 50, pln: 200, ron: 200, sek: 300, sgd: 50, thb: 1000,
};

/** Stripe's minor-unit exponent for a currency it takes. */
export function stripeMinorUnits(currency: string): number {
  return STRIPE_ZERO_DECIMAL.has(currency) ? 0 : STRIPE_THREE_DECIMAL.has(currency) ? 3 : 2;
}

function ruleOf(currency: string): CurrencyAmountRule {
  const minimum = STRIPE_MINIMUM_CHARGE[currency];
  return { ...(minimum === undefined ? {} : { minimumAmount: minimum }), ...(STRIPE_THREE_DECIMAL.has(currency) ? { multipleOf: 10 } : {}) };
}

/** What Stripe takes, as the api checks it before a charge is stored and as the simulator refuses it. */
export const STRIPE_CURRENCIES: ProviderCurrencies = new Map(PRESENTMENT.map((currency) => [currency, ruleOf(currency)]));
