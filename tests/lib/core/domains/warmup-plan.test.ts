import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WARMUP_LIMITS,
  DEFAULT_WARMUP_PLAN,
  isWarmupOver,
  nextUtcDay,
  utcDay,
  warmupDayNumber,
  warmupLimit,
  warmupPlanOf,
} from '@/lib/core/domains/internal/warmup-plan';
import { updateDomainSchema } from '@/lib/core/domains/schemas';
import { validateInput } from '@/lib/core/shared/validation';

const at = (iso: string) => new Date(iso);

describe('warm-up plan arithmetic', () => {
  it('day 1 is the UTC day warm-up started, whatever the hour; a start in the future is day 1', () => {
    const started = at('2026-11-27T23:59:00Z');
    expect(warmupDayNumber(started, at('2026-11-27T23:59:30Z'))).toBe(1);
    expect(warmupDayNumber(started, at('2026-11-28T00:00:00Z'))).toBe(2);
    expect(warmupDayNumber(started, at('2026-12-13T12:00:00Z'))).toBe(17);
    expect(warmupDayNumber(started, at('2026-11-01T00:00:00Z'))).toBe(1);
  });

  it('counters are keyed by UTC day, and held mail is due at the next UTC midnight', () => {
    expect(utcDay(at('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
    expect(nextUtcDay(at('2026-11-27T23:59:59.999Z')).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    expect(nextUtcDay(at('2026-11-28T00:00:00Z')).toISOString()).toBe('2026-11-29T00:00:00.000Z');
  });

  it('the default plan starts at 50 per named provider, never falls, and is over after day 17', () => {
    expect(warmupLimit(DEFAULT_WARMUP_PLAN, 1, 'gmail')).toBe(50);
    expect(warmupLimit(DEFAULT_WARMUP_PLAN, 2, 'microsoft')).toBe(100);
    expect(warmupLimit(DEFAULT_WARMUP_PLAN, 17, 'yahoo')).toBe(100_000);
    expect(warmupLimit(DEFAULT_WARMUP_PLAN, 1, 'other')).toBeNull();
    for (let day = 1; day < DEFAULT_WARMUP_LIMITS.length; day++)
      expect(DEFAULT_WARMUP_LIMITS[day]).toBeGreaterThan(DEFAULT_WARMUP_LIMITS[day - 1]);
    expect(isWarmupOver(DEFAULT_WARMUP_PLAN, 17)).toBe(false);
    expect(isWarmupOver(DEFAULT_WARMUP_PLAN, 18)).toBe(true);
    expect(warmupLimit(DEFAULT_WARMUP_PLAN, 18, 'gmail')).toBeNull();
  });

  it('a custom plan limits only the providers each day names; null is no limit; none stored is the default', () => {
    const plan = [{ gmail: 5 }, { gmail: 10, other: 0, yahoo: null }];
    expect(warmupLimit(plan, 1, 'gmail')).toBe(5);
    expect(warmupLimit(plan, 1, 'microsoft')).toBeNull();
    expect(warmupLimit(plan, 2, 'other')).toBe(0);
    expect(warmupLimit(plan, 2, 'yahoo')).toBeNull();
    expect(isWarmupOver(plan, 3)).toBe(true);
    expect(warmupPlanOf(null)).toBe(DEFAULT_WARMUP_PLAN);
    expect(warmupPlanOf([])).toBe(DEFAULT_WARMUP_PLAN);
    expect(warmupPlanOf(plan)).toBe(plan);
  });
});

describe('the warm-up setting of PUT …/domains/{domain}', () => {
  const check = (warmup: unknown) => validateInput(updateDomainSchema, { warmup });

  it('accepts the default plan by name, a custom plan, and a start time', () => {
    const parsed = check({ enabled: true, plan: 'default' });
    expect(parsed).toMatchObject({ ok: true, input: { warmup: { enabled: true, plan: null } } });
    expect(check({ enabled: true, plan: [{ gmail: 5, other: null }], started_at: '2026-11-27T00:00:00Z' }).ok).toBe(
      true,
    );
    expect(check({ enabled: false }).ok).toBe(true);
  });

  it.each([
    ['not an object', 'on', 'warmup'],
    ['enabled missing', { plan: 'default' }, 'warmup.enabled'],
    ['enabled a string', { enabled: 'yes' }, 'warmup.enabled'],
    ['plan an unknown name', { enabled: true, plan: 'fast' }, 'warmup.plan'],
    ['plan empty', { enabled: true, plan: [] }, 'warmup.plan'],
    ['plan too long', { enabled: true, plan: Array.from({ length: 61 }, () => ({ gmail: 1 })) }, 'warmup.plan'],
    ['a day a number', { enabled: true, plan: [50] }, 'warmup.plan.0'],
    ['a negative limit', { enabled: true, plan: [{ gmail: -1 }] }, 'warmup.plan.0.gmail'],
    ['a fractional limit', { enabled: true, plan: [{ gmail: 1.5 }] }, 'warmup.plan.0.gmail'],
    ['a limit as text', { enabled: true, plan: [{ gmail: '5' }] }, 'warmup.plan.0.gmail'],
    ['a huge limit', { enabled: true, plan: [{ gmail: 1e12 }] }, 'warmup.plan.0.gmail'],
    ['an unknown provider', { enabled: true, plan: [{ hotmail: 5 }] }, 'warmup.plan.0'],
    ['an unknown field', { enabled: true, speed: 'fast' }, 'warmup'],
    ['started_at not a date', { enabled: true, started_at: 'yesterday' }, 'warmup.started_at'],
    ['started_at oversize', { enabled: true, started_at: '2'.repeat(10_000) }, 'warmup.started_at'],
  ])('%s is refused, naming the field', (_, warmup, field) => {
    const result = check(warmup);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message.startsWith(`${field}:`)).toBe(true);
  });
});
