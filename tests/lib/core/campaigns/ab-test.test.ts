import { describe, expect, it } from 'vitest';
import { metricRate, minimumAbAudience, pickWinner, planAbSplit } from '@/lib/core/campaigns/ab-test-rules';

describe('planAbSplit', () => {
  it.each([
    // recipients, percent, variants -> test, per variant, rest
    [4996, 20, 2, 999, [500, 499], 3997],
    [1000, 10, 3, 100, [34, 33, 33], 900],
    [100, 50, 4, 50, [13, 13, 12, 12], 50],
    [10, 5, 2, 2, [1, 1], 8],
    [3, 5, 2, 2, [1, 1], 1],
    [5, 5, 4, 4, [1, 1, 1, 1], 1],
  ])('%i recipients at %i%% over %i variants', (recipients, percent, variants, test, perVariant, rest) => {
    const split = planAbSplit(recipients, percent, variants);
    expect(split).toEqual({ test, perVariant, rest });
    expect(split!.perVariant.reduce((a, b) => a + b, 0) + split!.rest).toBe(recipients);
  });

  it('refuses an audience without one recipient per variant and one for the winner', () => {
    expect(planAbSplit(2, 50, 2)).toBeNull();
    expect(planAbSplit(4, 50, 4)).toBeNull();
    expect(planAbSplit(1, 5, 2)).toBeNull();
    expect(minimumAbAudience(4)).toBe(5);
    expect(planAbSplit(minimumAbAudience(4), 5, 4)).not.toBeNull();
  });

  it('never gives two variants sizes that differ by more than one', () => {
    for (let recipients = 3; recipients < 400; recipients += 7)
      for (const variants of [2, 3, 4]) {
        const split = planAbSplit(recipients, 37, variants);
        if (!split) continue;
        expect(Math.max(...split.perVariant) - Math.min(...split.perVariant)).toBeLessThanOrEqual(1);
      }
  });
});

describe('pickWinner', () => {
  const variants = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

  it('picks the highest unique rate among delivered, not the most opens', () => {
    const results = [
      { id: 'a', delivered: 100, opened: 30, clicked: 1 },
      { id: 'b', delivered: 50, opened: 20, clicked: 9 },
      { id: 'c', delivered: 100, opened: 35, clicked: 2 },
    ];
    expect(pickWinner(variants, results, 'opens')).toBe('b');
    expect(pickWinner(variants, results, 'clicks')).toBe('b');
  });

  it('gives a tie to the first variant in the campaign order', () => {
    const results = [
      { id: 'c', delivered: 10, opened: 5, clicked: 0 },
      { id: 'b', delivered: 20, opened: 10, clicked: 0 },
      { id: 'a', delivered: 4, opened: 1, clicked: 0 },
    ];
    expect(pickWinner(variants, results, 'opens')).toBe('b');
    expect(pickWinner(variants, results, 'clicks')).toBe('a');
  });

  it('with nothing delivered anywhere (or no counters at all), the first variant wins', () => {
    expect(pickWinner(variants, [], 'opens')).toBe('a');
    expect(pickWinner(variants, [{ id: 'c', delivered: 0, opened: 3, clicked: 3 }], 'opens')).toBe('a');
  });

  it('a variant with zero delivered rates 0, whatever it counted', () => {
    expect(metricRate({ id: 'a', delivered: 0, opened: 5, clicked: 5 }, 'opens')).toBe(0);
    const results = [
      { id: 'a', delivered: 0, opened: 4, clicked: 0 },
      { id: 'b', delivered: 10, opened: 1, clicked: 0 },
    ];
    expect(pickWinner(variants, results, 'opens')).toBe('b');
  });
});
