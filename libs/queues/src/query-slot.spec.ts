import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { QuerySlot } from './query-slot.js';
import { SLOT_USE_MS } from './rules/query-pacing.js';

describe('QuerySlot', () => {
  it('lets its query leave within SLOT_USE_MS of the slot', () => {
    const slot = new QuerySlot(performance.now() - SLOT_USE_MS / 2);
    expect(slot.mayLeave()).toBe(true);
    expect(slot.missed).toBe(false);
  });

  it('refuses a query held up past SLOT_USE_MS, and says the slot was missed', () => {
    const slot = new QuerySlot(performance.now() - SLOT_USE_MS - 1);
    expect(slot.mayLeave()).toBe(false);
    expect(slot.missed).toBe(true);
  });

  it('holds only the first request to the slot: a second page of the same lookup is not refused', () => {
    const slot = new QuerySlot(performance.now());
    expect(slot.mayLeave()).toBe(true);
    const late = new QuerySlot(performance.now() - 10 * SLOT_USE_MS);
    expect(late.mayLeave()).toBe(false);
    expect(late.mayLeave()).toBe(true);
    expect(late.missed).toBe(true);
  });
});
