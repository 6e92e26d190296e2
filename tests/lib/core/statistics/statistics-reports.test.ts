import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { sendMessage } from '@/lib/core/messages/send-message';
import { getBounceStatistics } from '@/lib/core/statistics/get-bounce-statistics';
import { getDeliverabilityStatistics } from '@/lib/core/statistics/get-deliverability-statistics';
import { getDeliveryTimeStatistics } from '@/lib/core/statistics/get-delivery-time-statistics';
import { Rollup, type Counter } from '@/lib/core/stats/rollup';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { loadBatchContext, runPipeline } from '@/lib/mail/delivery-pipeline';
import { Destinations } from '@/lib/mail/destinations';
import { createMailBuilder } from '@/lib/mail/mail-builder';
import { OutcomeWriter } from '@/lib/mail/outcome-writer';
import { recordOutcomes } from '@/lib/mail/record-outcomes';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * The three reports on an in-memory PGlite, read from rollups written by the real write path
 * (the Rollup class that acceptance, outcomes and engagement use), with the test's clock.
 */
let services: TestServices;
let principal: Principal;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal, accountId } = await newAccount(services));
  for (const domain of ['acme.example', 'beta.example']) {
    const created = await createDomain(as(services, principal), { domain });
    services.dns.publishRecords(created.dns_records);
    await checkDomainDns(as(services, principal), { domain });
  }
}, 60_000);

afterAll(() => services?.close());

type Change = { at: string; counter: Counter; sender?: string; recipient?: string; tags?: string[]; deliveryMs?: number; bounce?: string; account?: string };

async function counted(changes: Change[]) {
  const rollup = new Rollup();
  for (const change of changes) {
    const facts = { accountId: change.account ?? accountId, at: new Date(change.at), senderDomain: change.sender ?? 'acme.example', recipientDomain: change.recipient ?? 'gmail.example', tags: change.tags ?? [] };
    rollup.count(facts, change.counter, change.deliveryMs);
    if (change.bounce) rollup.countBounce(facts, change.bounce);
  }
  await rollup.flush(services.db);
}

// November 2026 data; the clock stays at 2026-11-22T10:00Z, so these windows are all in the past.
const NOV = { from_time: '2026-11-01T00:00:00Z', to_time: '2026-11-08T00:00:00Z' };

const deliverability = (query: Record<string, string>, who: Principal = principal) => getDeliverabilityStatistics(as(services, who), query);
const totals = async (query: Record<string, string>, who: Principal = principal) => {
  const report = await deliverability({ ...NOV, ...query }, who);
  const sum = (field: 'reception_count' | 'delivered_count' | 'opened_count' | 'bounced_count') => report.data.reduce((total, bucket) => total + bucket[field], 0);
  return { reception: sum('reception_count'), delivered: sum('delivered_count'), opened: sum('opened_count'), bounced: sum('bounced_count') };
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
    expect(report.data.map((bucket) => bucket.from_timestamp)).toEqual(Array.from({ length: 7 }, (_, day) => `2026-11-0${day + 1}T00:00:00.000Z`));
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
    const hours = await deliverability({ from_time: '2026-11-01T00:00:00Z', to_time: '2026-11-02T00:00:00Z', group_by: 'hour' });
    expect(hours.data).toHaveLength(24);
    expect(hours.data[9]).toMatchObject({ from_timestamp: '2026-11-01T09:00:00.000Z', reception_count: 2, delivered_count: 1 });
    expect(hours.data[23].reception_count).toBe(1);
    const weeks = await deliverability({ ...NOV, group_by: 'week' });
    expect(weeks.data.map((bucket) => [bucket.from_timestamp, bucket.reception_count])).toEqual([
      ['2026-11-01T00:00:00.000Z', 3],
      ['2026-11-02T00:00:00.000Z', 2],
    ]);
    const months = await deliverability({ from_time: '2026-10-15T00:00:00Z', to_time: '2026-11-10T00:00:00Z', group_by: 'month' });
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
    expect(byDay.data.map((bucket) => [bucket.from_timestamp, bucket.reception_count, bucket.delivered_count])).toEqual([
      ['2026-11-01T09:00:00.000Z', 3, 1],
      ['2026-11-02T00:00:00.000Z', 0, 0],
      ['2026-11-03T00:00:00.000Z', 2, 0],
    ]);
    const byHour = await deliverability({ ...edges, group_by: 'hour' });
    expect(byHour.data.reduce((sum, bucket) => sum + bucket.reception_count, 0)).toBe(5);
    const late = await deliverability({ from_time: '2026-11-01T10:00:00Z', to_time: '2026-11-03T22:00:00Z', group_by: 'week' });
    expect(late.data.map((bucket) => [bucket.from_timestamp, bucket.reception_count])).toEqual([
      ['2026-11-01T10:00:00.000Z', 1],
      ['2026-11-02T00:00:00.000Z', 2],
    ]);
    expect((await totals({ ...edges, tags: 'invoice' })).reception).toBe(2);
    expect((await totals({ from_time: '2026-11-01T10:00:00Z', to_time: '2026-11-03T22:00:00Z', recipient_domains: 'outlook.example' })).reception).toBe(1);
    const times = await getDeliveryTimeStatistics(as(services, principal), { from_time: '2026-11-01T09:00:00Z', to_time: '2026-11-01T23:00:00Z' });
    expect(times.data.map((bucket) => bucket.delivered_count)).toEqual([1]);
    const excluded = await getDeliveryTimeStatistics(as(services, principal), { from_time: '2026-11-01T10:00:00Z', to_time: '2026-11-03T23:00:00Z' });
    expect(excluded.data[0]).toMatchObject({ delivered_count: 0, delivery_times: [] });
  });

  it.each([
    ['sender_domain', { sender_domain: 'BETA.example.' }, { reception: 1, delivered: 0, opened: 0, bounced: 0 }],
    ['several sender domains', { sender_domain: 'acme.example,beta.example' }, { reception: 5, delivered: 1, opened: 1, bounced: 1 }],
    ['recipient_domains', { recipient_domains: 'outlook.example' }, { reception: 2, delivered: 0, opened: 0, bounced: 1 }],
    ['one tag', { tags: 'invoice' }, { reception: 2, delivered: 0, opened: 1, bounced: 0 }],
    ['two tags of one message, counted once', { tags: 'eu,invoice' }, { reception: 2, delivered: 0, opened: 1, bounced: 0 }],
    ['tags of different messages', { tags: 'welcome, eu' }, { reception: 2, delivered: 0, opened: 1, bounced: 0 }],
    ['tags and recipient_domains together', { tags: 'invoice', recipient_domains: 'outlook.example' }, { reception: 1, delivered: 0, opened: 0, bounced: 0 }],
    ['an unknown tag', { tags: 'nope' }, { reception: 0, delivered: 0, opened: 0, bounced: 0 }],
    ['empty values, as absent', { sender_domain: '', recipient_domains: '', tags: '', group_by: '' }, { reception: 5, delivered: 1, opened: 1, bounced: 1 }],
  ])('filters: %s', async (_name, query, expected) => {
    expect(await totals(query)).toEqual(expected);
  });

  it('a key scoped to one domain: its domain by default, 403 for another named one', async () => {
    const scoped = keyPrincipal(accountId, ['statistics-transactional:read:{beta.example}']);
    expect(await totals({}, scoped)).toEqual({ reception: 1, delivered: 0, opened: 0, bounced: 0 });
    expect(await totals({ sender_domain: 'beta.example' }, scoped)).toEqual({ reception: 1, delivered: 0, opened: 0, bounced: 0 });
    for (const senderDomain of ['acme.example', 'beta.example,acme.example', 'unknown.example']) {
      await expect(deliverability({ ...NOV, sender_domain: senderDomain }, scoped)).rejects.toMatchObject({ kind: 'forbidden' });
    }
    await expect(deliverability(NOV, keyPrincipal(accountId, ['domains:read']))).rejects.toMatchObject({ kind: 'forbidden' });
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
    await expect(deliverability(query)).rejects.toMatchObject({ kind: 'invalid_input', message: expect.stringMatching(message) });
  });
});

describe('bounce and delivery time', () => {
  const DEC = { from_time: '2026-12-01T00:00:00Z', to_time: '2026-12-03T00:00:00Z' };
  const later = new Date('2026-12-10T00:00:00Z');

  beforeAll(async () => {
    await counted([
      { at: '2026-12-01T01:00:00Z', counter: 'bounced', bounce: 'InvalidRecipient' },
      { at: '2026-12-01T02:00:00Z', counter: 'bounced', bounce: 'InvalidRecipient', tags: ['x'] },
      { at: '2026-12-01T03:00:00Z', counter: 'bounced', bounce: 'QuotaIssues' },
      { at: '2026-12-01T04:00:00Z', counter: 'bounced', bounce: 'SomethingNew' },
      { at: '2026-12-01T05:00:00Z', counter: 'delivered', deliveryMs: 500 },
      { at: '2026-12-01T05:00:00Z', counter: 'delivered', deliveryMs: 2_500 },
      { at: '2026-12-01T06:00:00Z', counter: 'delivered', deliveryMs: 90_000, recipient: 'outlook.example' },
      { at: '2026-12-02T06:00:00Z', counter: 'delivered', deliveryMs: 10_000_000, recipient: 'outlook.example', tags: ['x'] },
    ]);
    services.clock.advance(later.getTime() - services.now().getTime());
  });

  it('bounces by classification, most frequent first; unknown classifications are Uncategorized', async () => {
    const report = await getBounceStatistics(as(services, principal), DEC);
    expect(report.data).toEqual([
      {
        from_timestamp: '2026-12-01T00:00:00.000Z',
        to_timestamp: '2026-12-02T00:00:00.000Z',
        bounces: [
          { classification: 'InvalidRecipient', count: 2 },
          { classification: 'QuotaIssues', count: 1 },
          { classification: 'Uncategorized', count: 1 },
        ],
      },
      { from_timestamp: '2026-12-02T00:00:00.000Z', to_timestamp: '2026-12-03T00:00:00.000Z', bounces: [] },
    ]);
    const tagged = await getBounceStatistics(as(services, principal), { ...DEC, tags: 'x' });
    expect(tagged.data[0].bounces).toEqual([{ classification: 'InvalidRecipient', count: 1 }]);
  });

  it('delivery time: the average, per recipient domain (busiest first), and the histogram', async () => {
    const report = await getDeliveryTimeStatistics(as(services, principal), DEC);
    const [first, second] = report.data;
    expect(first).toMatchObject({ avg_delivery_time: 31, delivered_count: 3 });
    expect(first.delivery_times).toEqual([
      { recipient_domain: 'gmail.example', delivery_time: 1.5, count: 2 },
      { recipient_domain: 'outlook.example', delivery_time: 90, count: 1 },
    ]);
    expect(first.delivery_time_histogram).toEqual([
      { up_to_seconds: 1, count: 1 },
      { up_to_seconds: 5, count: 1 },
      { up_to_seconds: 30, count: 0 },
      { up_to_seconds: 60, count: 0 },
      { up_to_seconds: 300, count: 1 },
      { up_to_seconds: 1800, count: 0 },
      { up_to_seconds: 7200, count: 0 },
      { up_to_seconds: null, count: 0 },
    ]);
    expect(second).toMatchObject({ avg_delivery_time: 10_000, delivered_count: 1, delivery_times: [{ recipient_domain: 'outlook.example', delivery_time: 10_000, count: 1 }] });
    expect(second.delivery_time_histogram.at(-1)).toEqual({ up_to_seconds: null, count: 1 });
    const filtered = await getDeliveryTimeStatistics(as(services, principal), { ...DEC, recipient_domains: 'gmail.example', group_by: 'week' });
    expect(filtered.data.map((bucket) => [bucket.from_timestamp, bucket.avg_delivery_time, bucket.delivered_count])).toEqual([['2026-12-01T00:00:00.000Z', 1.5, 2]]);
    const empty = await getDeliveryTimeStatistics(as(services, principal), { ...DEC, tags: 'none' });
    expect(empty.data[0]).toMatchObject({ avg_delivery_time: 0, delivered_count: 0, delivery_times: [] });
  });
});

describe('reads rollups only', () => {
  it('no report touches messages or events, whatever the filters (the statements are recorded at the driver)', async () => {
    const client = (services.db as unknown as { $client: { query: (text: string, ...rest: unknown[]) => Promise<unknown> } }).$client;
    const statements: string[] = [];
    const query = client.query.bind(client);
    client.query = (text: string, ...rest: unknown[]) => {
      statements.push(text);
      return query(text, ...rest);
    };
    try {
      const scoped = keyPrincipal(accountId, ['statistics-transactional:read:{acme.example}']);
      for (const filters of [{}, { tags: 'eu,invoice', recipient_domains: 'gmail.example' }, { sender_domain: 'acme.example', group_by: 'hour' }]) {
        await getDeliverabilityStatistics(as(services, principal), { ...NOV, ...filters });
        await getBounceStatistics(as(services, scoped), { ...NOV, ...filters });
        await getDeliveryTimeStatistics(as(services, principal), { from_time: '2026-11-01T07:00:00Z', to_time: '2026-11-02T21:00:00Z', ...filters });
      }
    } finally {
      client.query = query;
    }
    expect(statements.length).toBeGreaterThanOrEqual(9);
    for (const statement of statements) expect(statement).not.toMatch(/"(messages|events)"/);
    expect(statements.filter((statement) => statement.includes('stats_'))).toHaveLength(9);
  });
});

describe('from the write path', () => {
  it('acceptance, the delivery pipeline and its outcomes feed the reports, with the delivery time on the clock', async () => {
    const { principal: owner } = await newAccount(services, 'Pipeline');
    const domain = await createDomain(as(services, owner), { domain: 'pipe.example' });
    services.dns.publishRecords(domain.dns_records);
    await checkDomainDns(as(services, owner), { domain: 'pipe.example' });
    const start = services.now();
    await sendMessage(as(services, owner), {
      from: { email: 'news@pipe.example' },
      subject: 'Hello',
      text_content: 'Hi',
      sandbox: true,
      tags: ['digest'],
      recipients: [{ email: 'a@rcpt.example' }, { email: 'b@rcpt.example' }],
    });
    await sendMessage(as(services, owner), { from: { email: 'news@pipe.example' }, subject: 'Hello', text_content: 'Hi', sandbox: true, sandbox_result: 'bounce', recipients: [{ email: 'c@other.example' }] });
    services.clock.advance(90_000);
    const claimed = await unsafeClaimDueMessages(services.db, { workerId: 'stats-worker', limit: 50, leaseMs: 60_000, now: services.now() });
    const destinations = new Destinations(services);
    const writer = new OutcomeWriter((outcomes, dataSentIds) => recordOutcomes(services, services.db, 'stats-worker', outcomes, { now: services.now(), dataSentIds }));
    const batch = await loadBatchContext(services.db, claimed, { services, now: services.now(), destinations, mail: createMailBuilder({ threads: 0 }), onDataSent: (id) => writer.markDataSent(id), recordOutcome: (message, outcome) => writer.record(message, outcome) });
    await Promise.all(claimed.map((message) => runPipeline(message, batch)));
    await writer.drain();
    destinations.close();

    const query = { from_time: new Date(start.getTime() - 3_600_000).toISOString(), group_by: 'hour' };
    const sum = (data: { reception_count: number; delivered_count: number; bounced_count: number }[]) =>
      data.reduce((total, bucket) => ({ reception: total.reception + bucket.reception_count, delivered: total.delivered + bucket.delivered_count, bounced: total.bounced + bucket.bounced_count }), { reception: 0, delivered: 0, bounced: 0 });
    expect(sum((await getDeliverabilityStatistics(as(services, owner), query)).data)).toEqual({ reception: 3, delivered: 2, bounced: 1 });
    expect(sum((await getDeliverabilityStatistics(as(services, owner), { ...query, tags: 'digest' })).data)).toEqual({ reception: 2, delivered: 2, bounced: 0 });
    const times = (await getDeliveryTimeStatistics(as(services, owner), { ...query, group_by: 'day' })).data.filter((bucket) => bucket.delivered_count > 0);
    expect(times).toHaveLength(1);
    expect(times[0]).toMatchObject({ avg_delivery_time: 90, delivered_count: 2, delivery_times: [{ recipient_domain: 'rcpt.example', delivery_time: 90, count: 2 }] });
    const bounces = (await getBounceStatistics(as(services, owner), { ...query, group_by: 'day' })).data.flatMap((bucket) => bucket.bounces);
    expect(bounces).toEqual([{ classification: 'InvalidRecipient', count: 1 }]);
  });
});
