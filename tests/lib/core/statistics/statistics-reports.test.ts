import { beforeAll, describe, expect, it } from 'vitest';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { sendMessage } from '@/lib/core/messages/send-message';
import { getBounceStatistics } from '@/lib/core/statistics/get-bounce-statistics';
import { getDeliverabilityStatistics } from '@/lib/core/statistics/get-deliverability-statistics';
import { getDeliveryTimeStatistics } from '@/lib/core/statistics/get-delivery-time-statistics';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { loadBatchContext, runPipeline } from '@/lib/mail/delivery-pipeline';
import { Destinations } from '@/lib/mail/destinations';
import { createMailBuilder } from '@/lib/mail/mail-builder';
import { OutcomeWriter } from '@/lib/mail/outcome-writer';
import { recordOutcomes } from '@/lib/mail/record-outcomes';
import { as, keyPrincipal, newAccount } from '../../../support/memory-services';
import { accountId, counted, NOV, principal, services, useStatisticsServices } from './statistics-fixture';

/**
 * The bounce and delivery-time reports on an in-memory PGlite, read from rollups written by the real
 * write path (the Rollup class that acceptance, outcomes and engagement use), with the test's clock;
 * that no report reads messages or events; and all three fed end to end by acceptance and the delivery
 * pipeline. The deliverability report's buckets and filters are in deliverability-statistics.test.ts.
 */
useStatisticsServices();

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
      {
        at: '2026-12-02T06:00:00Z',
        counter: 'delivered',
        deliveryMs: 10_000_000,
        recipient: 'outlook.example',
        tags: ['x'],
      },
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
    expect(second).toMatchObject({
      avg_delivery_time: 10_000,
      delivered_count: 1,
      delivery_times: [{ recipient_domain: 'outlook.example', delivery_time: 10_000, count: 1 }],
    });
    expect(second.delivery_time_histogram.at(-1)).toEqual({ up_to_seconds: null, count: 1 });
    const filtered = await getDeliveryTimeStatistics(as(services, principal), {
      ...DEC,
      recipient_domains: 'gmail.example',
      group_by: 'week',
    });
    expect(
      filtered.data.map((bucket) => [bucket.from_timestamp, bucket.avg_delivery_time, bucket.delivered_count]),
    ).toEqual([['2026-12-01T00:00:00.000Z', 1.5, 2]]);
    const empty = await getDeliveryTimeStatistics(as(services, principal), { ...DEC, tags: 'none' });
    expect(empty.data[0]).toMatchObject({ avg_delivery_time: 0, delivered_count: 0, delivery_times: [] });
  });
});

describe('reads rollups only', () => {
  it('no report touches messages or events, whatever the filters (the statements are recorded at the driver)', async () => {
    const client = (
      services.db as unknown as { $client: { query: (text: string, ...rest: unknown[]) => Promise<unknown> } }
    ).$client;
    const statements: string[] = [];
    const query = client.query.bind(client);
    client.query = (text: string, ...rest: unknown[]) => {
      statements.push(text);
      return query(text, ...rest);
    };
    try {
      const scoped = keyPrincipal(accountId, ['statistics-transactional:read:{acme.example}']);
      for (const filters of [
        {},
        { tags: 'eu,invoice', recipient_domains: 'gmail.example' },
        { sender_domain: 'acme.example', group_by: 'hour' },
      ]) {
        await getDeliverabilityStatistics(as(services, principal), { ...NOV, ...filters });
        await getBounceStatistics(as(services, scoped), { ...NOV, ...filters });
        await getDeliveryTimeStatistics(as(services, principal), {
          from_time: '2026-11-01T07:00:00Z',
          to_time: '2026-11-02T21:00:00Z',
          ...filters,
        });
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
    await sendMessage(as(services, owner), {
      from: { email: 'news@pipe.example' },
      subject: 'Hello',
      text_content: 'Hi',
      sandbox: true,
      sandbox_result: 'bounce',
      recipients: [{ email: 'c@other.example' }],
    });
    services.clock.advance(90_000);
    const claimed = await unsafeClaimDueMessages(services.db, {
      workerId: 'stats-worker',
      limit: 50,
      leaseMs: 60_000,
      now: services.now(),
    });
    const destinations = new Destinations(services);
    const writer = new OutcomeWriter((outcomes, dataSentIds) =>
      recordOutcomes(services, services.db, 'stats-worker', outcomes, { now: services.now(), dataSentIds }),
    );
    const batch = await loadBatchContext(services.db, claimed, {
      services,
      now: services.now(),
      destinations,
      mail: createMailBuilder({ threads: 0 }),
      onDataSent: (id) => writer.markDataSent(id),
      recordOutcome: (message, outcome) => writer.record(message, outcome),
    });
    await Promise.all(claimed.map((message) => runPipeline(message, batch)));
    await writer.drain();
    destinations.close();

    const query = { from_time: new Date(start.getTime() - 3_600_000).toISOString(), group_by: 'hour' };
    const sum = (data: { reception_count: number; delivered_count: number; bounced_count: number }[]) =>
      data.reduce(
        (total, bucket) => ({
          reception: total.reception + bucket.reception_count,
          delivered: total.delivered + bucket.delivered_count,
          bounced: total.bounced + bucket.bounced_count,
        }),
        { reception: 0, delivered: 0, bounced: 0 },
      );
    expect(sum((await getDeliverabilityStatistics(as(services, owner), query)).data)).toEqual({
      reception: 3,
      delivered: 2,
      bounced: 1,
    });
    expect(sum((await getDeliverabilityStatistics(as(services, owner), { ...query, tags: 'digest' })).data)).toEqual({
      reception: 2,
      delivered: 2,
      bounced: 0,
    });
    const times = (await getDeliveryTimeStatistics(as(services, owner), { ...query, group_by: 'day' })).data.filter(
      (bucket) => bucket.delivered_count > 0,
    );
    expect(times).toHaveLength(1);
    expect(times[0]).toMatchObject({
      avg_delivery_time: 90,
      delivered_count: 2,
      delivery_times: [{ recipient_domain: 'rcpt.example', delivery_time: 90, count: 2 }],
    });
    const bounces = (await getBounceStatistics(as(services, owner), { ...query, group_by: 'day' })).data.flatMap(
      (bucket) => bucket.bounces,
    );
    expect(bounces).toEqual([{ classification: 'InvalidRecipient', count: 1 }]);
  });
});
