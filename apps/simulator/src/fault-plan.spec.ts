import { describe, expect, it } from 'vitest';
import { FaultPlanner } from './fault-plan.js';
import type { CreateRequestFacts } from './fault-plan.js';

const facts: CreateRequestFacts = { customerId: 'cus_1', attemptId: 'att_1', idempotencyKey: 'key_1' };

describe('FaultPlanner', () => {
  it('hands out queued rules in order, each as many times as asked', () => {
    const planner = new FaultPlanner();
    planner.setPlan({ rules: [{ fault: '500_after_create', times: 2 }, { fault: 'decline' }] });

    const taken = Array.from({ length: 4 }, () => planner.takeExecutionFault(facts));

    expect(taken).toEqual(['500_after_create', '500_after_create', 'decline', null]);
  });

  it('only applies a rule to requests it matches', () => {
    const planner = new FaultPlanner();
    planner.setPlan({ rules: [{ fault: '429', match: { attemptId: 'att_2' } }] });

    expect(planner.takeGateFault(facts)).toBeNull();
    expect(planner.takeGateFault({ ...facts, attemptId: 'att_2' })).toBe('429');
  });

  it('keeps gate faults and execution faults apart', () => {
    const planner = new FaultPlanner();
    planner.setPlan({ rules: [{ fault: 'hang_after_create' }, { fault: 'reset_before_read' }] });

    expect(planner.takeGateFault(facts)).toBe('reset_before_read');
    expect(planner.takeExecutionFault(facts)).toBe('hang_after_create');
  });

  it('keeps query rules away from creates', () => {
    const planner = new FaultPlanner();
    planner.setPlan({ rules: [{ fault: '500', on: 'query' }] });

    expect(planner.takeExecutionFault(facts)).toBeNull();
    expect(planner.takeQueryFault()).toBe('500');
    expect(planner.takeQueryFault()).toBeNull();
  });

  it('draws the same random faults for the same seed', () => {
    const draw = () => {
      const planner = new FaultPlanner();
      planner.setPlan({ random: { seed: 99, rates: { '500_after_create': 0.3, '429': 0.2 } } });
      return Array.from({ length: 50 }, () => [planner.takeGateFault(facts), planner.takeExecutionFault(facts)]);
    };
    const first = draw();

    expect(draw()).toEqual(first);
    expect(first.flat()).toContain('500_after_create');
    expect(first.flat()).toContain('429');
  });

  it.each([
    [{ rules: [{ fault: 'explode' }] }, /unknown create fault/],
    [{ rules: [{ fault: 'hang_after_create', on: 'query' }] }, /unknown query fault/],
    [{ rules: [{ fault: '429', times: 0 }] }, /times/],
    [{ rules: 'all' }, /array/],
    [{ random: { seed: 1, rates: { nope: 1 } } }, /unknown fault/],
  ])('rejects the invalid plan %j', (plan, message) => {
    expect(() => new FaultPlanner().setPlan(plan)).toThrow(message);
  });
});
