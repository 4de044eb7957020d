import { describe, expect, it } from 'vitest';
import { smoothLimiter } from './smooth-limiter.js';

describe('smoothLimiter', () => {
  it.each([
    [100, { max: 10, duration: 112 }],
    [20, { max: 2, duration: 112 }],
    [25, { max: 2, duration: 91 }],
    [5, { max: 1, duration: 250 }],
  ])('%i per second → %o', (rate, expected) => {
    expect(smoothLimiter(rate)).toEqual(expected);
  });

  it('never lets a sliding second see more than the limit, whatever its alignment', () => {
    for (let rate = 2; rate <= 1000; rate++) {
      const { max, duration } = smoothLimiter(rate);
      const windowsTouched = Math.ceil(1000 / duration) + 1;
      expect(windowsTouched * max, `rate ${rate}`).toBeLessThanOrEqual(rate);
      expect((max * 1000) / duration, `rate ${rate}`).toBeGreaterThanOrEqual(rate * 0.5);
    }
  });
});
