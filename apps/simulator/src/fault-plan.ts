import { isRecord } from '@app/common';
import { InvalidControlInput, optionalNumber, optionalString, requireRecord } from './control-input.js';
import { createPrng } from './prng.js';

export const CREATE_FAULTS = [
  'reset_before_read',
  /**
   * The server's idle close of a kept-alive connection racing the client's reuse of it: the connection closes
   * as a create arrives on it, before any byte of an answer. Strikes only a connection that carried an earlier create.
   */
  'close_kept_alive',
  'hang_before_create',
  'hang_after_create',
  /** Holds the request (key in flight) for `hangMs`, then creates: the client timed out long before. */
  'create_late',
  '500_before_create',
  '500_after_create',
  '429',
  '409',
  'decline',
] as const;
export type CreateFault = (typeof CREATE_FAULTS)[number];

/** `malformed_200`: a 2xx whose body is no list at all (a proxy's error page answering 200, `{}`). */
export const QUERY_FAULTS = ['500', '429', 'hang', 'malformed_200'] as const;
export type QueryFault = (typeof QUERY_FAULTS)[number];

/**
 * Statement pages that look whole but are not, struck only on statement routes, each where it means something:
 * `has_more_empty` / `has_more_unreadable` (a list that says it has more with no items, or none readable),
 * `no_page_count` (Efí: no `quantidadeDePaginas`), `list_moved` (Asaas: a payment before this page left the list
 * while it was paged), `total_mismatch` (Asaas: a `totalCount` the pages never add up to).
 */
export const STATEMENT_FAULTS = ['has_more_empty', 'has_more_unreadable', 'no_page_count', 'list_moved', 'total_mismatch'] as const;
export type StatementFault = (typeof STATEMENT_FAULTS)[number];

/**
 * Faults that strike in front of Stripe's idempotency layer: the request is refused or lost before it
 * begins executing, so its key stays unused. The others strike during execution, which only a request
 * that actually executes can suffer (a replay of a stored response never does).
 */
const GATE_FAULTS: ReadonlySet<CreateFault> = new Set(['reset_before_read', 'close_kept_alive', 'hang_before_create', '429', '409']);

export interface FaultMatch {
  customerId?: string;
  attemptId?: string;
  idempotencyKey?: string;
}

export type FaultRule =
  | { fault: CreateFault; on?: 'create'; match?: FaultMatch; times?: number }
  | { fault: QueryFault; on: 'query'; times?: number }
  | { fault: StatementFault; on: 'statement'; times?: number };

export interface RandomFaults {
  seed: number;
  /** Probability per create request of each fault. Gate and execution faults are drawn separately. */
  rates: Partial<Record<CreateFault, number>>;
}

export interface FaultPlan {
  rules?: FaultRule[];
  random?: RandomFaults | null;
}

/** What a create request says about itself, for matching rules. */
export interface CreateRequestFacts {
  customerId: string | null;
  attemptId: string | null;
  idempotencyKey: string | null;
  /** The request came on a connection that carried an earlier one (only the Stripe routes tell). */
  reusedConnection?: boolean;
}

/** A rule as the planner holds it: defaults filled in, counting down its remaining uses. */
export interface PendingFaultRule {
  fault: CreateFault | QueryFault | StatementFault;
  on: 'create' | 'query' | 'statement';
  match: FaultMatch;
  remaining: number;
}

/** Hands out faults: queued rules first (each consumed by the requests it matches), then the seeded random mode. */
export class FaultPlanner {
  private rules: PendingFaultRule[] = [];
  private random: { rates: Partial<Record<CreateFault, number>>; next: () => number } | null = null;

  setPlan(input: unknown): void {
    const plan = requireRecord(input, 'fault plan');
    const rules = plan.rules === undefined ? [] : plan.rules;
    if (!Array.isArray(rules)) throw new InvalidControlInput('rules must be an array');
    this.rules = rules.map(readRule);
    this.random = plan.random ? readRandom(plan.random) : null;
  }

  clear(): void {
    this.rules = [];
    this.random = null;
  }

  /** Rules not yet used up, for inspection. */
  pendingRules(): PendingFaultRule[] {
    return structuredClone(this.rules);
  }

  takeGateFault(facts: CreateRequestFacts): CreateFault | null {
    return this.takeCreateFault(facts, true);
  }

  takeExecutionFault(facts: CreateRequestFacts): CreateFault | null {
    return this.takeCreateFault(facts, false);
  }

  takeQueryFault(): QueryFault | null {
    return this.consume((rule) => rule.on === 'query') as QueryFault | null;
  }

  /** A statement fault the route can produce (`supported`), or null; others wait for a route that can. */
  takeStatementFault(supported: readonly StatementFault[]): StatementFault | null {
    return this.consume((rule) => rule.on === 'statement' && supported.includes(rule.fault as StatementFault)) as StatementFault | null;
  }

  private takeCreateFault(facts: CreateRequestFacts, gate: boolean): CreateFault | null {
    const fromRule = this.consume(
      (rule) => rule.on === 'create' && GATE_FAULTS.has(rule.fault as CreateFault) === gate && matches(rule.match, facts) && canStrike(rule.fault as CreateFault, facts),
    );
    if (fromRule) return fromRule as CreateFault;
    if (!this.random) return null;
    // One draw per phase, even when no fault is picked, so the sequence depends only on the requests seen.
    let draw = this.random.next();
    for (const fault of CREATE_FAULTS) {
      if (GATE_FAULTS.has(fault) !== gate || !canStrike(fault, facts)) continue;
      draw -= this.random.rates[fault] ?? 0;
      if (draw < 0) return fault;
    }
    return null;
  }

  private consume(applies: (rule: PendingFaultRule) => boolean): PendingFaultRule['fault'] | null {
    const index = this.rules.findIndex(applies);
    if (index < 0) return null;
    const rule = this.rules[index];
    rule.remaining -= 1;
    if (rule.remaining === 0) this.rules.splice(index, 1);
    return rule.fault;
  }
}

function canStrike(fault: CreateFault, facts: CreateRequestFacts): boolean {
  return fault !== 'close_kept_alive' || facts.reusedConnection === true;
}

function matches(match: FaultMatch, facts: CreateRequestFacts): boolean {
  return (
    (match.customerId === undefined || match.customerId === facts.customerId) &&
    (match.attemptId === undefined || match.attemptId === facts.attemptId) &&
    (match.idempotencyKey === undefined || match.idempotencyKey === facts.idempotencyKey)
  );
}

function readRule(input: unknown, index: number): PendingFaultRule {
  const rule = requireRecord(input, `rules[${index}]`);
  const on = rule.on ?? 'create';
  if (on !== 'create' && on !== 'query' && on !== 'statement') throw new InvalidControlInput(`rules[${index}].on must be create, query or statement`);
  const known: readonly string[] = on === 'query' ? QUERY_FAULTS : on === 'statement' ? STATEMENT_FAULTS : CREATE_FAULTS;
  if (typeof rule.fault !== 'string' || !known.includes(rule.fault)) {
    throw new InvalidControlInput(`rules[${index}]: unknown ${on} fault ${JSON.stringify(rule.fault)}`);
  }
  const times = optionalNumber(rule.times, `rules[${index}].times`, 1) ?? 1;
  const match = rule.match === undefined ? {} : requireRecord(rule.match, `rules[${index}].match`);
  return {
    fault: rule.fault as PendingFaultRule['fault'],
    on,
    remaining: Math.floor(times),
    match: {
      customerId: optionalString(match.customerId, 'match.customerId'),
      attemptId: optionalString(match.attemptId, 'match.attemptId'),
      idempotencyKey: optionalString(match.idempotencyKey, 'match.idempotencyKey'),
    },
  };
}

function readRandom(input: unknown): { rates: Partial<Record<CreateFault, number>>; next: () => number } {
  const random = requireRecord(input, 'random');
  const seed = optionalNumber(random.seed, 'random.seed', 0, 2 ** 32) ?? 0;
  const rates = isRecord(random.rates) ? random.rates : {};
  const checked: Partial<Record<CreateFault, number>> = {};
  for (const [fault, rate] of Object.entries(rates)) {
    if (!(CREATE_FAULTS as readonly string[]).includes(fault)) throw new InvalidControlInput(`random: unknown fault ${fault}`);
    checked[fault as CreateFault] = optionalNumber(rate, `random.rates.${fault}`, 0, 1);
  }
  return { rates: checked, next: createPrng(seed) };
}
