/**
 * What the Deliverability page shows, as it lives in the page's URL (so a view can be shared), and
 * how that becomes a statistics query. Buckets are UTC periods from the API; the page labels them in
 * the viewer's time zone.
 */

export const RANGES = ['24h', '7d', '30d', 'custom'] as const;
export type RangeKey = (typeof RANGES)[number];
export type GroupBy = 'hour' | 'day' | 'week' | 'month';

/** `from`/`to` are the viewer's calendar dates (YYYY-MM-DD), used only by the custom range. */
export type StatisticsView = {
  range: RangeKey;
  from: string;
  to: string;
  domain: string;
  tags: string;
  /** A mailbox provider (gmail, microsoft, yahoo, apple, other), or '' for all. */
  provider: string;
};

export const PROVIDER_OPTIONS = [
  ['gmail', 'Gmail'],
  ['microsoft', 'Microsoft'],
  ['yahoo', 'Yahoo'],
  ['apple', 'Apple'],
  ['other', 'Other'],
] as const;

export const DEFAULT_VIEW: StatisticsView = { range: '7d', from: '', to: '', domain: '', tags: '', provider: '' };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Tags as the API wants them: trimmed, no empties, no duplicates, comma-separated. */
export const normalizeTags = (value: string) =>
  [
    ...new Set(
      value
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ].join(',');

export function readStatisticsView(params: URLSearchParams): StatisticsView {
  const range = params.get('range');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const isCustom = range === 'custom' && DATE.test(from) && DATE.test(to) && from <= to;
  return {
    range: isCustom
      ? 'custom'
      : RANGES.includes(range as RangeKey) && range !== 'custom'
        ? (range as RangeKey)
        : DEFAULT_VIEW.range,
    from: isCustom ? from : '',
    to: isCustom ? to : '',
    domain: (params.get('domain') ?? '').trim().toLowerCase(),
    tags: normalizeTags(params.get('tags') ?? ''),
    provider: PROVIDER_OPTIONS.some(([key]) => key === params.get('provider')) ? params.get('provider')! : '',
  };
}

/** The page's query string for a view: only what differs from the default, in a stable order. */
export function statisticsViewSearch(view: StatisticsView): string {
  const search = new URLSearchParams();
  if (view.range !== DEFAULT_VIEW.range) search.set('range', view.range);
  if (view.range === 'custom') {
    search.set('from', view.from);
    search.set('to', view.to);
  }
  if (view.domain) search.set('domain', view.domain);
  if (view.tags) search.set('tags', view.tags);
  if (view.provider) search.set('provider', view.provider);
  return search.toString();
}

export type StatisticsWindow = { from: Date; to: Date; groupBy: GroupBy };

const floorUtc = (at: Date, unit: number) => new Date(Math.floor(at.getTime() / unit) * unit);
const localMidnight = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day);
};

/**
 * The period a view covers. Relative ranges end with the current bucket (so the query stays the same
 * for the rest of the hour or day and the cache works); custom ranges run from the viewer's midnight
 * of `from` to the end of `to`, with buckets sized so that a chart has at most about a hundred.
 */
export function statisticsWindow(view: StatisticsView, now: Date): StatisticsWindow {
  if (view.range === '24h') {
    const end = new Date(floorUtc(now, HOUR_MS).getTime() + HOUR_MS);
    return { from: new Date(end.getTime() - 24 * HOUR_MS), to: end, groupBy: 'hour' };
  }
  if (view.range === '7d' || view.range === '30d') {
    const days = view.range === '7d' ? 7 : 30;
    const end = new Date(floorUtc(now, DAY_MS).getTime() + DAY_MS);
    return { from: new Date(end.getTime() - days * DAY_MS), to: end, groupBy: 'day' };
  }
  const from = localMidnight(view.from);
  const to = localMidnight(view.to);
  to.setDate(to.getDate() + 1);
  const span = to.getTime() - from.getTime();
  const groupBy: GroupBy =
    span <= 3 * DAY_MS ? 'hour' : span <= 100 * DAY_MS ? 'day' : span <= 700 * DAY_MS ? 'week' : 'month';
  return { from, to, groupBy };
}

/** The query of the three statistics reports for a view. */
export function statisticsQuery(view: StatisticsView, window: StatisticsWindow): string {
  const query = new URLSearchParams({
    from_time: window.from.toISOString(),
    to_time: window.to.toISOString(),
    group_by: window.groupBy,
  });
  if (view.domain) query.set('sender_domain', view.domain);
  if (view.tags) query.set('tags', view.tags);
  if (view.provider) query.set('provider', view.provider);
  return query.toString();
}

/** The start of the UTC period that holds `at` (weeks start on Monday, as PostgreSQL's date_trunc). */
export function periodStart(at: Date, groupBy: GroupBy): Date {
  if (groupBy === 'hour') return floorUtc(at, HOUR_MS);
  const day = floorUtc(at, DAY_MS);
  if (groupBy === 'day') return day;
  if (groupBy === 'week') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextPeriod(start: Date, groupBy: GroupBy): Date {
  if (groupBy === 'hour') return new Date(start.getTime() + HOUR_MS);
  if (groupBy === 'day') return new Date(start.getTime() + DAY_MS);
  if (groupBy === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

type Bucket = { from_timestamp: string; to_timestamp: string };

/**
 * One entry per period of the window, in order, whether or not the API sent a bucket for it: a
 * chart with gaps left out would draw a quiet day as if it did not exist. Each API bucket lands in
 * the period that holds its start; should one fall outside every period (a server that buckets
 * differently), the API's own buckets are used as they are.
 */
export function fillPeriods<T extends Bucket>(
  buckets: readonly T[],
  window: StatisticsWindow,
  empty: (from: string, to: string) => T,
  merge: (into: T, from: T) => T,
): T[] {
  const periods: T[] = [];
  for (
    let start = periodStart(window.from, window.groupBy);
    start < window.to && periods.length < 2000;
    start = nextPeriod(start, window.groupBy)
  ) {
    periods.push(empty(start.toISOString(), nextPeriod(start, window.groupBy).toISOString()));
  }
  const filled = [...periods];
  for (const bucket of buckets) {
    const at = Date.parse(bucket.from_timestamp);
    const index = periods.findIndex(
      (period) => Date.parse(period.from_timestamp) <= at && at < Date.parse(period.to_timestamp),
    );
    if (index < 0) return [...buckets].sort((a, b) => Date.parse(a.from_timestamp) - Date.parse(b.from_timestamp));
    filled[index] = merge(filled[index], bucket);
  }
  return filled;
}

/** Tick and tooltip labels of a period, in the viewer's time zone. */
export function periodLabels(
  fromTimestamp: string,
  toTimestamp: string,
  groupBy: GroupBy,
): { tick: string; full: string } {
  const from = new Date(fromTimestamp);
  const to = new Date(toTimestamp);
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
  const day: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };
  if (groupBy === 'hour') {
    return {
      tick: from.toLocaleTimeString(undefined, time),
      full: `${from.toLocaleString(undefined, { weekday: 'short', ...day, ...time })} – ${to.toLocaleTimeString(undefined, time)}`,
    };
  }
  // A UTC day, week or month is named by the date of its middle, which is the same calendar date
  // in every time zone within ±12 h of UTC; the tooltip gives the exact local start and end.
  const middle = new Date((from.getTime() + to.getTime()) / 2);
  const exact = `${from.toLocaleString(undefined, { ...day, ...time })} – ${to.toLocaleString(undefined, { ...day, ...time })}`;
  if (groupBy === 'day')
    return {
      tick: middle.toLocaleDateString(undefined, day),
      full: `${middle.toLocaleDateString(undefined, { weekday: 'short', ...day })} (${exact})`,
    };
  if (groupBy === 'week')
    return {
      tick: from.toLocaleDateString(undefined, { ...day, timeZone: 'UTC' }),
      full: `Week of ${from.toLocaleDateString(undefined, { ...day, year: 'numeric', timeZone: 'UTC' })} (${exact})`,
    };
  return {
    tick: middle.toLocaleDateString(undefined, { month: 'short', year: '2-digit' }),
    full: `${middle.toLocaleDateString(undefined, { month: 'long', year: 'numeric' })} (${exact})`,
  };
}

export function describeWindow(view: StatisticsView, window: StatisticsWindow): string {
  if (view.range === '24h') return 'the last 24 hours';
  if (view.range === '7d') return 'the last 7 days';
  if (view.range === '30d') return 'the last 30 days';
  const day: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
  const last = new Date(window.to.getTime() - 1);
  return `${window.from.toLocaleDateString(undefined, day)} – ${last.toLocaleDateString(undefined, day)}`;
}
