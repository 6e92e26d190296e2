import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { getDeliverabilityStatistics } from '@/lib/core/statistics/get-deliverability-statistics';
import { getDeliveryTimeStatistics } from '@/lib/core/statistics/get-delivery-time-statistics';
import { as, keyPrincipal, newAccount } from '../../../support/memory-services';
import { accountId, counted, NOV, principal, services, useStatisticsServices } from './statistics-fixture';

/**
 * The deliverability report on an in-memory PGlite, read from rollups written by the real write path,
 * with the test's clock: buckets by hour, day, week and month, windows cut inside days, the filters,
 * a key scoped to one domain, tenancy and bad input. The bounce and delivery-time reports are in
 * statistics-reports.test.ts.
 */
useStatisticsServices();

const deliverability = (query: Record<string, string>, who: Principal = principal) =>
  getDeliverabilityStatistics(as(services, who), query);
const totals = async (query: Record<string, string>, who: Principal = principal) => {
  const report = await deliverability({ ...NOV, ...query }, who);
  const sum = (field: 'reception_count' | 'delivered_count' | 'opened_count' | 'bounced_count') =>
    report.data.reduce((total, bucket) => total + bucket[field], 0);
  return {
    reception: sum('reception_count'),
    delivered: sum('delivered_count'),
    opened: sum('opened_count'),
    bounced: sum('bounced_count'),
  };
};

describe('deliverability', () => {
  beforeAll(async () => {
    await counted([
      { at: '2026-11-01T09:15:00Z', counter: 'reception' },
      { at: '2026-11-01T09:15:00Z', counter: 'reception', recipient: 'outlook.example' },
      { at: '2026-11-01T09:16:00Z', counter: 'delivered', deliveryMs: 60_000 },
      { at: '2026-11-01T23:30:00Z', counter: 'reception', sender: 'beta.example', tags: ['welcome'] },
      { at: '2026-11-03T12:00:00Z', counter: 'reception', tags: ['invoice', 'eu'] },
      { at: '2026-11-03T12:00:00Z', counter: 'reception', tags: ['invoice'], recipient: 'outlook.example' },
      { at: '2026-11-03T12:05:00Z', counter: 'opened', tags: ['invoice', 'eu'] },
      { at: '2026-11-05T08:00:00Z', counter: 'bounced', bounce: 'InvalidRecipient', recipient: 'outlook.example' },
      { at: '2026-11-09T08:00:00Z', counter: 'reception' },
      { at: '2026-11-03T12:00:00Z', counter: 'reception', account: '00000000-0000-4000-8000-0000000000ff' },
    ]);
  });

  it('one bucket per day of the window, empty days included, counts in the day of the change', async () => {
    const report = await deliverability({ ...NOV, group_by: 'day' });
    expect(report.object).toBe('list');
    expect(report.data.map((bucket) => bucket.from_timestamp)).toEqual(
      Array.from({ length: 7 }, (_, day) => `2026-11-0${day + 1}T00:00:00.000Z`),
    );
    expect(report.data[6].to_timestamp).toBe('2026-11-08T00:00:00.000Z');
    expect(report.data[0]).toEqual({
      from_timestamp: '2026-11-01T00:00:00.000Z',
      to_timestamp: '2026-11-02T00:00:00.000Z',
      reception_count: 3,
      delivered_count: 1,
      deferred_count: 0,
      bounced_count: 0,
      failed_count: 0,
      suppressed_count: 0,
      opened_count: 0,
      clicked_count: 0,
    });
    expect(report.data.map((bucket) => bucket.reception_count)).toEqual([3, 0, 2, 0, 0, 0, 0]);
  });

  it('hour, week and month buckets hold the same counts; hours read the hourly rows', async () => {
    const hours = await deliverability({
      from_time: '2026-11-01T00:00:00Z',
      to_time: '2026-11-02T00:00:00Z',
      group_by: 'hour',
    });
    expect(hours.data).toHaveLength(24);
    expect(hours.data[9]).toMatchObject({
      from_timestamp: '2026-11-01T09:00:00.000Z',
      reception_count: 2,
      delivered_count: 1,
    });
    expect(hours.data[23].reception_count).toBe(1);
    const weeks = await deliverability({ ...NOV, group_by: 'week' });
    expect(weeks.data.map((bucket) => [bucket.from_timestamp, bucket.reception_count])).toEqual([
      ['2026-11-01T00:00:00.000Z', 3],
      ['2026-11-02T00:00:00.000Z', 2],
    ]);
    const months = await deliverability({
      from_time: '2026-10-15T00:00:00Z',
      to_time: '2026-11-10T00:00:00Z',
      group_by: 'month',
    });
    expect(months.data.map((bucket) => bucket.reception_count)).toEqual([0, 6]);
  });

  it('a window cut inside days counts only its hours (daily rows for whole days, hourly for the edges)', async () => {
    const report = await deliverability({ from_time: '2026-11-01T10:00:00Z', to_time: '2026-11-03T12:00:00Z' });
    expect(report.data.map((bucket) => [bucket.from_timestamp, bucket.to_timestamp, bucket.reception_count])).toEqual([
      ['2026-11-01T10:00:00.000Z', '2026-11-02T00:00:00.000Z', 1],
      ['2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z', 0],
      ['2026-11-03T00:00:00.000Z', '2026-11-03T12:00:00.000Z', 0],
    ]);
    const inclusive = await deliverability({ from_time: '2026-11-01T09:59:00Z', to_time: '2026-11-03T12:00:01Z' });
    expect(inclusive.data.map((bucket) => bucket.reception_count)).toEqual([3, 0, 2]);
  });

  it('long edges (a whole day less the hours outside) count the same as hours would, in every grouping and filter', async () => {
    // Both edges over 12 hours: the first and last days are read whole, their outside hours subtracted.
    const edges = { from_time: '2026-11-01T09:00:00Z', to_time: '2026-11-03T22:00:00Z' };
    const byDay = await deliverability({ ...edges, group_by: 'day' });
    expect(byDay.data.map((bucket) => [bucket.from_timestamp, bucket.reception_count, bucket.delivered_count])).toEqual(
      [
        ['2026-11-01T09:00:00.000Z', 3, 1],
        ['2026-11-02T00:00:00.000Z', 0, 0],
        ['2026-11-03T00:00:00.000Z', 2, 0],
      ],
    );
    const byHour = await deliverability({ ...edges, group_by: 'hour' });
    expect(byHour.data.reduce((sum, bucket) => sum + bucket.reception_count, 0)).toBe(5);
    const late = await deliverability({
      from_time: '2026-11-01T10:00:00Z',
      to_time: '2026-11-03T22:00:00Z',
      group_by: 'week',
    });
    expect(late.data.map((bucket) => [bucket.from_timestamp, bucket.reception_count])).toEqual([
      ['2026-11-01T10:00:00.000Z', 1],
      ['2026-11-02T00:00:00.000Z', 2],
    ]);
    expect((await totals({ ...edges, tags: 'invoice' })).reception).toBe(2);
    expect(
      (
        await totals({
          from_time: '2026-11-01T10:00:00Z',
          to_time: '2026-11-03T22:00:00Z',
          recipient_domains: 'outlook.example',
        })
      ).reception,
    ).toBe(1);
    const times = await getDeliveryTimeStatistics(as(services, principal), {
      from_time: '2026-11-01T09:00:00Z',
      to_time: '2026-11-01T23:00:00Z',
    });
    expect(times.data.map((bucket) => bucket.delivered_count)).toEqual([1]);
    const excluded = await getDeliveryTimeStatistics(as(services, principal), {
      from_time: '2026-11-01T10:00:00Z',
      to_time: '2026-11-03T23:00:00Z',
    });
    expect(excluded.data[0]).toMatchObject({ delivered_count: 0, delivery_times: [] });
  });

  it.each([
    ['sender_domain', { sender_domain: 'BETA.example.' }, { reception: 1, delivered: 0, opened: 0, bounced: 0 }],
    [
      'several sender domains',
      { sender_domain: 'acme.example,beta.example' },
      { reception: 5, delivered: 1, opened: 1, bounced: 1 },
    ],
    [
      'recipient_domains',
      { recipient_domains: 'outlook.example' },
      { reception: 2, delivered: 0, opened: 0, bounced: 1 },
    ],
    ['one tag', { tags: 'invoice' }, { reception: 2, delivered: 0, opened: 1, bounced: 0 }],
    [
      'two tags of one message, counted once',
      { tags: 'eu,invoice' },
      { reception: 2, delivered: 0, opened: 1, bounced: 0 },
    ],
    ['tags of different messages', { tags: 'welcome, eu' }, { reception: 2, delivered: 0, opened: 1, bounced: 0 }],
    [
      'tags and recipient_domains together',
      { tags: 'invoice', recipient_domains: 'outlook.example' },
      { reception: 1, delivered: 0, opened: 0, bounced: 0 },
    ],
    ['an unknown tag', { tags: 'nope' }, { reception: 0, delivered: 0, opened: 0, bounced: 0 }],
    [
      'empty values, as absent',
      { sender_domain: '', recipient_domains: '', tags: '', group_by: '' },
      { reception: 5, delivered: 1, opened: 1, bounced: 1 },
    ],
  ])('filters: %s', async (_name, query, expected) => {
    expect(await totals(query)).toEqual(expected);
  });

  it('a key scoped to one domain: its domain by default, 403 for another named one', async () => {
    const scoped = keyPrincipal(accountId, ['statistics-transactional:read:{beta.example}']);
    expect(await totals({}, scoped)).toEqual({ reception: 1, delivered: 0, opened: 0, bounced: 0 });
    expect(await totals({ sender_domain: 'beta.example' }, scoped)).toEqual({
      reception: 1,
      delivered: 0,
      opened: 0,
      bounced: 0,
    });
    for (const senderDomain of ['acme.example', 'beta.example,acme.example', 'unknown.example']) {
      await expect(deliverability({ ...NOV, sender_domain: senderDomain }, scoped)).rejects.toMatchObject({
        kind: 'forbidden',
      });
    }
    await expect(deliverability(NOV, keyPrincipal(accountId, ['domains:read']))).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });

  it("another account's figures are never counted; its own are empty", async () => {
    const other = await newAccount(services, 'Other');
    expect(await totals({}, other.principal)).toEqual({ reception: 0, delivered: 0, opened: 0, bounced: 0 });
  });

  it.each([
    [{ group_by: 'fortnight' }, /group_by: must be one of hour, day, week, month/],
    [{ from_time: 'yesterday' }, /from_time: must be an RFC 3339 timestamp/],
    [{ to_date: '2026-13-01T00:00:00Z' }, /to_date: must be an RFC 3339 timestamp/],
    [{ sender_domain: 'not a domain' }, /sender_domain: "not a domain" is not a valid domain name/],
    [{ recipient_domains: 'gmail.com,192.0.2.1' }, /recipient_domains: "192.0.2.1" is not a valid domain name/],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') }, /tags: at most 20 tags/],
    [{ from_time: '2026-11-08T00:00:00Z', to_time: '2026-11-01T00:00:00Z' }, /from_time: must be before to_time/],
  ])('bad input %j is a 400 naming the field', async (query, message) => {
    await expect(deliverability(query)).rejects.toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(message),
    });
  });
});
