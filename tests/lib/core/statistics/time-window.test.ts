import { describe, expect, it } from 'vitest';
import type { GroupBy } from '@/lib/core/statistics/schemas';
import { bucketsOf, periodStart, resolveWindow, rollupRanges } from '@/lib/core/statistics/internal/time-window';

const now = new Date('2026-11-22T10:35:12Z');
const iso = (date: Date) => date.toISOString();
const window = (
  query: Partial<Record<'from_time' | 'to_time' | 'from_date' | 'to_date', string>>,
  groupBy: GroupBy = 'day',
) => resolveWindow({ group_by: groupBy, ...query }, now);
const spans = (buckets: { from: Date; to: Date }[]) => buckets.map((bucket) => `${iso(bucket.from)} ${iso(bucket.to)}`);

describe('resolveWindow', () => {
  it('defaults to the 30 days before now, widened to whole hours', () => {
    const { from, to } = window({});
    expect(iso(to)).toBe('2026-11-22T11:00:00.000Z');
    expect(iso(from)).toBe('2026-10-23T11:00:00.000Z');
  });

  it('rounds from_time down and to_time up to the hour, whatever the offset', () => {
    const { from, to } = window({ from_time: '2026-11-01T09:59:59+02:00', to_time: '2026-11-02T00:00:01Z' });
    expect(iso(from)).toBe('2026-11-01T07:00:00.000Z');
    expect(iso(to)).toBe('2026-11-02T01:00:00.000Z');
  });

  it('takes the legacy from_date and to_date when from_time and to_time are absent', () => {
    const { from, to } = window({ from_date: '2026-11-01T00:00:00Z', to_date: '2026-11-03T00:00:00Z' });
    expect([iso(from), iso(to)]).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-03T00:00:00.000Z']);
    expect(iso(window({ from_time: '2026-11-02T00:00:00Z', from_date: '2026-11-01T00:00:00Z' }).from)).toBe(
      '2026-11-02T00:00:00.000Z',
    );
  });

  it.each([
    [
      'from after to',
      { from_time: '2026-11-02T00:00:00Z', to_time: '2026-11-01T00:00:00Z' },
      'day',
      /from_time: must be before to_time/,
    ],
    [
      'from equal to to within one hour',
      { from_time: '2026-11-02T00:00:00Z', to_time: '2026-11-02T00:00:00Z' },
      'day',
      /from_time/,
    ],
    [
      '32 days of hours',
      { from_time: '2026-10-01T00:00:00Z', to_time: '2026-11-02T00:00:00Z' },
      'hour',
      /at most 31 days/,
    ],
    [
      'a legacy from_date after to_date',
      { from_date: '2026-11-02T00:00:00Z', to_date: '2026-11-01T00:00:00Z' },
      'day',
      /from_date: must be before to_date/,
    ],
  ] as const)('refuses %s', (_name, query, groupBy, message) => {
    expect(() => window(query, groupBy)).toThrow(message);
  });
});

describe('periodStart', () => {
  it('aligns to UTC hours, days, ISO weeks (Monday) and months', () => {
    const at = new Date('2026-11-22T10:35:00Z'); // a Sunday
    expect(iso(periodStart(at, 'hour'))).toBe('2026-11-22T10:00:00.000Z');
    expect(iso(periodStart(at, 'day'))).toBe('2026-11-22T00:00:00.000Z');
    expect(iso(periodStart(at, 'week'))).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(periodStart(new Date('2026-11-16T00:00:00Z'), 'week'))).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(periodStart(at, 'month'))).toBe('2026-11-01T00:00:00.000Z');
  });
});

describe('bucketsOf', () => {
  it('gives every period, cutting the first and last to the window', () => {
    const buckets = bucketsOf(window({ from_time: '2026-11-01T22:00:00Z', to_time: '2026-11-03T05:00:00Z' }), 'day');
    expect(spans(buckets)).toEqual([
      '2026-11-01T22:00:00.000Z 2026-11-02T00:00:00.000Z',
      '2026-11-02T00:00:00.000Z 2026-11-03T00:00:00.000Z',
      '2026-11-03T00:00:00.000Z 2026-11-03T05:00:00.000Z',
    ]);
  });

  it('weeks start on Monday and months have their own lengths', () => {
    const weeks = bucketsOf(
      window({ from_time: '2026-11-01T00:00:00Z', to_time: '2026-11-20T00:00:00Z' }, 'week'),
      'week',
    );
    expect(spans(weeks)).toEqual([
      '2026-11-01T00:00:00.000Z 2026-11-02T00:00:00.000Z',
      '2026-11-02T00:00:00.000Z 2026-11-09T00:00:00.000Z',
      '2026-11-09T00:00:00.000Z 2026-11-16T00:00:00.000Z',
      '2026-11-16T00:00:00.000Z 2026-11-20T00:00:00.000Z',
    ]);
    const months = bucketsOf(
      window({ from_time: '2026-01-15T00:00:00Z', to_time: '2026-04-01T00:00:00Z' }, 'month'),
      'month',
    );
    expect(spans(months)).toEqual([
      '2026-01-15T00:00:00.000Z 2026-02-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z 2026-03-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z 2026-04-01T00:00:00.000Z',
    ]);
  });

  it('hours: one bucket per hour', () => {
    expect(
      bucketsOf(window({ from_time: '2026-11-22T00:00:00Z', to_time: '2026-11-23T00:00:00Z' }, 'hour'), 'hour'),
    ).toHaveLength(24);
  });
});

describe('rollupRanges', () => {
  const ranges = (query: Parameters<typeof window>[0], groupBy: GroupBy = 'day') => {
    const result = rollupRanges(window(query, groupBy), groupBy, now);
    return {
      days: result.days && `${iso(result.days.from)} ${iso(result.days.to)}`,
      hours: spans(result.hours),
      lessHours: spans(result.lessHours),
    };
  };

  it('reads whole days from the daily rows and short edges from the hourly ones', () => {
    expect(ranges({ from_time: '2026-11-01T22:00:00Z', to_time: '2026-11-05T05:00:00Z' })).toEqual({
      days: '2026-11-02T00:00:00.000Z 2026-11-05T00:00:00.000Z',
      hours: ['2026-11-01T22:00:00.000Z 2026-11-02T00:00:00.000Z', '2026-11-05T00:00:00.000Z 2026-11-05T05:00:00.000Z'],
      lessHours: [],
    });
    expect(ranges({ from_time: '2026-11-01T12:00:00Z', to_time: '2026-11-05T12:00:00Z' })).toMatchObject({
      days: '2026-11-02T00:00:00.000Z 2026-11-05T00:00:00.000Z',
      lessHours: [],
    });
  });

  it('an edge of more than 12 hours reads its whole day less the hours outside the window', () => {
    expect(ranges({ from_time: '2026-11-01T02:00:00Z', to_time: '2026-11-05T21:00:00Z' })).toEqual({
      days: '2026-11-01T00:00:00.000Z 2026-11-06T00:00:00.000Z',
      hours: [],
      lessHours: [
        '2026-11-01T00:00:00.000Z 2026-11-01T02:00:00.000Z',
        '2026-11-05T21:00:00.000Z 2026-11-06T00:00:00.000Z',
      ],
    });
    // Up to now: today is read whole anyway.
    expect(ranges({ from_time: '2026-11-20T11:00:00Z' })).toEqual({
      days: '2026-11-20T00:00:00.000Z 2026-11-23T00:00:00.000Z',
      hours: [],
      lessHours: ['2026-11-20T00:00:00.000Z 2026-11-20T11:00:00.000Z'],
    });
  });

  it('a window running to now or later reads today whole: nothing later is counted yet', () => {
    expect(ranges({ from_time: '2026-11-20T00:00:00Z' })).toEqual({
      days: '2026-11-20T00:00:00.000Z 2026-11-23T00:00:00.000Z',
      hours: [],
      lessHours: [],
    });
    expect(ranges({ from_time: '2026-11-20T00:00:00Z', to_time: '2026-11-22T09:00:00Z' }).hours).toEqual([
      '2026-11-22T00:00:00.000Z 2026-11-22T09:00:00.000Z',
    ]);
  });

  it('hour grouping and windows without a whole day read hours only', () => {
    expect(ranges({ from_time: '2026-11-01T00:00:00Z', to_time: '2026-11-03T00:00:00Z' }, 'hour')).toEqual({
      days: null,
      hours: ['2026-11-01T00:00:00.000Z 2026-11-03T00:00:00.000Z'],
      lessHours: [],
    });
    expect(ranges({ from_time: '2026-11-01T03:00:00Z', to_time: '2026-11-01T20:00:00Z' })).toEqual({
      days: null,
      hours: ['2026-11-01T03:00:00.000Z 2026-11-01T20:00:00.000Z'],
      lessHours: [],
    });
  });
});
