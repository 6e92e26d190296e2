import { invalidInput } from '@/lib/shared/errors';
import type { GroupBy, StatisticsQuery } from '../schemas';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const DEFAULT_WINDOW_DAYS = 30;
/** Longest window per grouping: a month of hours, a year of days, two of weeks, five of months. */
export const MAX_WINDOW_DAYS: Record<GroupBy, number> = { hour: 31, day: 400, week: 800, month: 1900 };

/** Whole hours, UTC: `from` inclusive, `to` exclusive. */
export type TimeWindow = { from: Date; to: Date };
export type Bucket = { from: Date; to: Date };

const floorTo = (at: number, unit: number) => Math.floor(at / unit) * unit;
const ceilTo = (at: number, unit: number) => Math.ceil(at / unit) * unit;

/**
 * The window a report covers. Statistics have one-hour resolution, so the window widens to whole
 * hours: `from_time` rounds down, `to_time` up. Defaults: to now, from 30 days earlier.
 */
export function resolveWindow(
  query: Pick<StatisticsQuery, 'from_time' | 'to_time' | 'from_date' | 'to_date' | 'group_by'>,
  now: Date,
): TimeWindow {
  const fromField = query.from_time !== undefined || query.from_date === undefined ? 'from_time' : 'from_date';
  const toRaw = query.to_time ?? query.to_date;
  const fromRaw = query.from_time ?? query.from_date;
  const to = ceilTo(toRaw !== undefined ? Date.parse(toRaw) : now.getTime(), HOUR_MS);
  const from = floorTo(fromRaw !== undefined ? Date.parse(fromRaw) : to - DEFAULT_WINDOW_DAYS * DAY_MS, HOUR_MS);
  if (from >= to)
    throw invalidInput(`${fromField}: must be before ${fromField === 'from_time' ? 'to_time' : 'to_date'}`, fromField);
  const maxDays = MAX_WINDOW_DAYS[query.group_by];
  if (to - from > maxDays * DAY_MS)
    throw invalidInput(
      `${fromField}: with group_by=${query.group_by} the window is at most ${maxDays} days`,
      fromField,
    );
  return { from: new Date(from), to: new Date(to) };
}

/** The start of the `groupBy` period holding `at`, in UTC (weeks start on Monday, as ISO weeks do). */
export function periodStart(at: Date, groupBy: GroupBy): Date {
  const time = at.getTime();
  switch (groupBy) {
    case 'hour':
      return new Date(floorTo(time, HOUR_MS));
    case 'day':
      return new Date(floorTo(time, DAY_MS));
    case 'week': {
      const day = floorTo(time, DAY_MS);
      const daysSinceMonday = (new Date(day).getUTCDay() + 6) % 7;
      return new Date(day - daysSinceMonday * DAY_MS);
    }
    case 'month':
      return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  }
}

function nextPeriod(start: Date, groupBy: GroupBy): Date {
  switch (groupBy) {
    case 'hour':
      return new Date(start.getTime() + HOUR_MS);
    case 'day':
      return new Date(start.getTime() + DAY_MS);
    case 'week':
      return new Date(start.getTime() + 7 * DAY_MS);
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  }
}

/** Every period of the window in order, even empty ones; the first and last are cut to the window. */
export function bucketsOf(window: TimeWindow, groupBy: GroupBy): Bucket[] {
  const buckets: Bucket[] = [];
  for (let start = periodStart(window.from, groupBy); start < window.to; start = nextPeriod(start, groupBy)) {
    const end = nextPeriod(start, groupBy);
    buckets.push({ from: start < window.from ? window.from : start, to: end > window.to ? window.to : end });
  }
  return buckets;
}

/**
 * Which rollup rows answer a window: whole days from the daily tables, the rest from the hourly ones
 * (`hours`), less the hourly rows of `lessHours` (subtracted from a day read whole).
 */
export type RollupRanges = { days: TimeWindow | null; hours: TimeWindow[]; lessHours: TimeWindow[] };

/** An edge of more hours than this reads its whole day less the hours outside the window instead. */
const MOST_EDGE_HOURS = 12;

/**
 * Days are read whole, so a day enters only when the window covers all of it, or when it covers
 * more than half of it: then the day's row less the hours outside the window is fewer rows than
 * the hours inside, which caps what any window reads at its days plus a day of hours. A window that
 * runs to now or later covers the rest of today too, since nothing after now is counted yet: a
 * report up to now reads today's daily row instead of its hours.
 */
export function rollupRanges(window: TimeWindow, groupBy: GroupBy, now: Date): RollupRanges {
  if (groupBy === 'hour') return { days: null, hours: [window], lessHours: [] };
  const from = window.from.getTime();
  const to = window.to.getTime();
  const firstDay = ceilTo(from, DAY_MS);
  const end = to >= now.getTime() ? ceilTo(to, DAY_MS) : floorTo(to, DAY_MS);
  if (firstDay >= end) return { days: null, hours: [window], lessHours: [] };
  const span = (start: number, stop: number) => ({ from: new Date(start), to: new Date(stop) });
  const ranges: RollupRanges = { days: span(firstDay, end), hours: [], lessHours: [] };
  if (from < firstDay) {
    if (firstDay - from > MOST_EDGE_HOURS * HOUR_MS) {
      ranges.days!.from = new Date(firstDay - DAY_MS);
      ranges.lessHours.push(span(firstDay - DAY_MS, from));
    } else ranges.hours.push(span(from, firstDay));
  }
  if (end < to) {
    if (to - end > MOST_EDGE_HOURS * HOUR_MS) {
      ranges.days!.to = new Date(end + DAY_MS);
      ranges.lessHours.push(span(to, end + DAY_MS));
    } else ranges.hours.push(span(end, to));
  }
  return ranges;
}
