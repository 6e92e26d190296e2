/**
 * The statistics case of `npm run bench`: the three transactional reports over the last 30 days
 * grouped by day, through the HTTP API, on rollups holding 10 million events' worth of counters.
 *
 * The rollups are generated straight into the database, as sending would have left them: one
 * account, 5 sender domains x 60 recipient domains (a long tail: the busiest gets 60 times the
 * quietest), every hour of the last 31 days, hourly and daily rows, each with receptions, outcomes,
 * first opens and clicks, delivery times (sum, count, histogram) and bounce classes; and the tag
 * rollups of three tag sets on the 20 busiest recipient domains. The server runs the web role only,
 * with the statistics rate limit lifted so that it is not what is measured.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { getTableColumns } from 'drizzle-orm';
import pg from 'pg';
import { createAccountWithKey } from '../e2e/support/cli';
import { startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { statsHourly, type RollupCounter } from '../lib/db/schema';
import { api, percentile, tracked, type DatabaseName, benchDatabaseEnv } from './bench-support';

const TARGET_EVENTS = Number(process.env.BENCH_STATISTICS_EVENTS ?? 10_000_000);
const REQUESTS = Number(process.env.BENCH_STATISTICS_REQUESTS ?? 200);
const WARM_UP = 10;
const SENDERS = 5;
const RECIPIENTS = 60;
const TAGGED_RECIPIENTS = 20;
const HOURS = 31 * 24;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Each reception brings about this many counted events (its outcome, deferrals, opens, clicks...). */
const SHARES = {
  delivered: 0.93,
  deferred: 0.05,
  bounced: 0.02,
  failed: 0.005,
  suppressed: 0.01,
  opened: 0.3,
  clicked: 0.05,
  complained: 0.0005,
};
const EVENTS_PER_RECEPTION = 1 + Object.values(SHARES).reduce((sum, share) => sum + share, 0);
/** Delivery-time histogram: the share of deliveries up to each bound (the rest is the last bin). */
const HISTOGRAM_SHARES = [0.35, 0.35, 0.15, 0.05, 0.05, 0.03, 0.015];
const TAG_SETS = [
  { tags: ['welcome'], share: 0.3 },
  { tags: ['invoice'], share: 0.2 },
  { tags: ['eu', 'invoice'], share: 0.1 },
];

export type StatisticsResult = {
  database: DatabaseName;
  events: number;
  rows: { hourly: number; daily: number; byTagHourly: number; byTagDaily: number };
  generationSeconds: number;
  reports: { name: string; p50: number; p99: number; bytes: number }[];
};

export type Sql = { query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>; close: () => Promise<void> };

/** A connection to the database the server will use, in this process, for the generation only. */
export async function connect(database: DatabaseName, dataDir: string, url: string | null): Promise<Sql> {
  if (database === 'PostgreSQL') {
    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    return { query: (text) => client.query(text), close: () => client.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  return {
    query: (text) => client.query(text) as Promise<{ rows: Record<string, unknown>[] }>,
    close: () => client.close(),
  };
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * One SQL expression per counter of an hourly row, from its reception count `n`, its delivered
 * count `d`, its bounced count `b` and its recipient domain's number `j`. Typed by the schema, so a
 * counter added to the rollups fails the build here until the benchmark fills it.
 */
function counterExpressions(): Record<RollupCounter, string> {
  const share = (value: number) => `floor(n * ${value} + random())::int`;
  const cumulative = HISTOGRAM_SHARES.map((_, index) =>
    HISTOGRAM_SHARES.slice(0, index + 1).reduce((sum, value) => sum + value, 0),
  );
  const upTo = (index: number) =>
    index < 0 ? '0' : index >= cumulative.length ? 'd' : `floor(d * ${cumulative[index].toFixed(4)})::int`;
  const bin = (index: number) => `(${upTo(index)} - ${upTo(index - 1)})`;
  return {
    reception: 'n',
    delivered: 'd',
    deferred: share(SHARES.deferred),
    bounced: 'b',
    failed: share(SHARES.failed),
    suppressed: share(SHARES.suppressed),
    opened: share(SHARES.opened),
    clicked: share(SHARES.clicked),
    complained: share(SHARES.complained),
    deliveredTls: 'd',
    deliveredPlain: '0',
    campaignDelivered: '0',
    campaignOneClick: '0',
    // Slower for the long tail of recipient domains: 1.5 s to 4.5 s on average.
    deliveryTimeSumMs: 'd::bigint * (1500 + j * 50)',
    deliveryTimeCount: 'd',
    deliveryTime0To1s: bin(0),
    deliveryTime1To5s: bin(1),
    deliveryTime5To30s: bin(2),
    deliveryTime30To60s: bin(3),
    deliveryTime1To5m: bin(4),
    deliveryTime5To30m: bin(5),
    deliveryTime30mTo2h: bin(6),
    deliveryTimeOver2h: bin(7),
    bouncedInvalidRecipient: '(b - b / 2)',
    bouncedPolicyRelated: '(b / 2 - b / 4)',
    bouncedQuotaIssues: '(b / 4)',
    bouncedAuthenticationFailed: '0',
    bouncedBadDomain: '0',
    bouncedDnsFailure: '0',
    bouncedInactiveMailbox: '0',
    bouncedProtocolErrors: '0',
    bouncedRoutingErrors: '0',
    bouncedTransientFailure: '0',
    bouncedUncategorized: '0',
  };
}

/** The rollups of TARGET_EVENTS events for one account, up to the current hour. */
async function generateRollups(
  sql: Sql,
  accountId: string,
  now: Date,
): Promise<Pick<StatisticsResult, 'events' | 'rows'>> {
  const columns = getTableColumns(statsHourly);
  const counters = Object.entries(counterExpressions()) as [RollupCounter, string][];
  const names = counters.map(([counter]) => columns[counter].name);
  const quoted = names.map((name) => `"${name}"`).join(', ');
  const lastHour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const firstHour = new Date(lastHour.getTime() - (HOURS - 1) * HOUR_MS);
  // Recipient domain j gets a share proportional to 1/j, scaled so that the mean row holds `mean`.
  const harmonic = Array.from({ length: RECIPIENTS }, (_, j) => 1 / (j + 1)).reduce((sum, value) => sum + value, 0);
  const mean = TARGET_EVENTS / EVENTS_PER_RECEPTION / (HOURS * SENDERS * RECIPIENTS);
  const account = `${literal(accountId)}::uuid`;
  // Nested selects, not lateral joins: a lateral subquery may be memoised per parameter value, which
  // would give every hour the same random count. OFFSET 0 keeps each level from being flattened.
  await sql.query(`
    insert into stats_hourly (account_id, hour, sender_domain, recipient_domain, ${quoted})
    select ${account}, hour, 'send' || i || '.bench.example', 'rcpt' || j || '.example', ${counters.map(([, expression]) => expression).join(', ')}
    from (
      select hour, i, j, n, floor(n * ${SHARES.delivered} + random())::int as d, floor(n * ${SHARES.bounced} + random())::int as b
      from (
        select h.hour, s.i, r.j, floor(random() * 2 * ${mean} * ${RECIPIENTS} / (r.j * ${harmonic}) + random())::int as n
        from generate_series(${literal(firstHour.toISOString())}::timestamptz, ${literal(lastHour.toISOString())}::timestamptz, interval '1 hour') as h(hour)
        cross join generate_series(1, ${SENDERS}) as s(i)
        cross join generate_series(1, ${RECIPIENTS}) as r(j)
        offset 0
      ) as receptions
      offset 0
    ) as outcomes
  `);
  const sums = names.map((name) => `sum("${name}")`).join(', ');
  const utcDay = `date_trunc('day', hour at time zone 'UTC') at time zone 'UTC'`;
  await sql.query(`
    insert into stats_daily (account_id, day, sender_domain, recipient_domain, ${quoted})
    select account_id, ${utcDay}, sender_domain, recipient_domain, ${sums} from stats_hourly where account_id = ${account} group by 1, 2, 3, 4
  `);
  // Each tag set's share of a row, once under each of its tags (as the rollup writer does).
  const tagRows = TAG_SETS.flatMap(({ tags, share }) =>
    tags.map((tag) => `(${literal(tag)}, ${literal(`{${tags.join(',')}}`)}::text[], ${share})`),
  ).join(', ');
  await sql.query(`
    insert into stats_by_tag_hourly (account_id, tag, hour, sender_domain, recipient_domain, tags, ${quoted})
    select account_id, t.tag, hour, sender_domain, recipient_domain, t.tags, ${names.map((name) => `floor("${name}" * t.share)`).join(', ')}
    from stats_hourly cross join (values ${tagRows}) as t(tag, tags, share)
    where account_id = ${account} and recipient_domain = any(array[${Array.from({ length: TAGGED_RECIPIENTS }, (_, j) => literal(`rcpt${j + 1}.example`)).join(', ')}])
  `);
  await sql.query(`
    insert into stats_by_tag_daily (account_id, tag, day, sender_domain, recipient_domain, tags, ${quoted})
    select account_id, tag, ${utcDay}, sender_domain, recipient_domain, tags, ${sums} from stats_by_tag_hourly where account_id = ${account} group by 1, 2, 3, 4, 5, 6
  `);
  // What autovacuum would have done by the time a table holds this much.
  await sql.query('analyze stats_hourly, stats_daily, stats_by_tag_hourly, stats_by_tag_daily');
  const eventColumns = ['reception', 'delivered', 'deferred', 'bounced', 'failed', 'suppressed', 'opened', 'clicked']
    .map((name) => `sum(${name})`)
    .join(' + ');
  const [totals] = (
    await sql.query(
      `select (${eventColumns})::float8 as events, count(*)::int as hourly from stats_hourly where account_id = ${account}`,
    )
  ).rows;
  const count = async (table: string) =>
    Number((await sql.query(`select count(*)::int as n from ${table} where account_id = ${account}`)).rows[0].n);
  return {
    events: Number(totals.events),
    rows: {
      hourly: Number(totals.hourly),
      daily: await count('stats_daily'),
      byTagHourly: await count('stats_by_tag_hourly'),
      byTagDaily: await count('stats_by_tag_daily'),
    },
  };
}

export async function runStatisticsBench(database: DatabaseName): Promise<StatisticsResult> {
  const dataDir = tempDataDir('ms-bench-stats-');
  const { env, drop } = await benchDatabaseEnv(database, dataDir, 'mailstead_bench_stats');
  try {
    // The CLI creates the database (and applies the migrations) with the account, before any server runs.
    const account = await createAccountWithKey(env, 'Statistics bench');
    const started = performance.now();
    const sql = await connect(database, dataDir, env.DATABASE_URL || null);
    const generated = await generateRollups(sql, account.accountId, new Date());
    await sql.close();
    const generationSeconds = (performance.now() - started) / 1000;

    const server = tracked(
      await startServer({
        dataDir,
        env: {
          ...env,
          ROLES: 'web',
          RATE_LIMIT_STATISTICS_PER_SECOND: '1000000',
          RATE_LIMIT_STATISTICS_BURST: '1000000',
        },
      }),
    );
    const agent = trustingAgent(dataDir);
    const to = new Date();
    const window = `from_time=${encodeURIComponent(new Date(to.getTime() - 30 * DAY_MS).toISOString())}&to_time=${encodeURIComponent(to.toISOString())}&group_by=day`;
    const cases = [
      { name: 'deliverability', path: `deliverability?${window}` },
      { name: 'bounce', path: `bounce?${window}` },
      { name: 'delivery-time', path: `delivery-time?${window}` },
      { name: 'deliverability, tags=invoice', path: `deliverability?${window}&tags=invoice` },
      {
        name: 'deliverability, 2 senders, 3 recipient domains',
        path: `deliverability?${window}&sender_domain=send1.bench.example,send2.bench.example&recipient_domains=rcpt1.example,rcpt2.example,rcpt30.example`,
      },
    ];
    const reports: StatisticsResult['reports'] = [];
    for (const { name, path: suffix } of cases) {
      const url = `/v2/accounts/${account.accountId}/statistics/transactional/${suffix}`;
      let bytes = 0;
      for (let i = 0; i < WARM_UP; i++) await api(server, agent, account.apiKey, 'GET', url, undefined, 200);
      const latencies: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t0 = performance.now();
        const body = await api(server, agent, account.apiKey, 'GET', url, undefined, 200);
        latencies.push(performance.now() - t0);
        if (i === 0) bytes = JSON.stringify(body).length;
        if (i === 0 && (body.data as unknown[]).length < 30)
          throw new Error(`${name}: ${(body.data as unknown[]).length} buckets for 30 days`);
      }
      reports.push({ name, p50: percentile(latencies, 50), p99: percentile(latencies, 99), bytes });
    }
    await server.stop();
    await agent.close();
    return { database, ...generated, generationSeconds, reports };
  } finally {
    await drop?.();
    // Half a gigabyte of rollups on PGlite: not worth keeping.
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printStatisticsResults(results: StatisticsResult[]) {
  for (const result of results) {
    const { rows } = result;
    console.log(
      `\n${result.database}: ${(result.events / 1e6).toFixed(2)} M events' worth of rollups (${rows.hourly} hourly, ${rows.daily} daily, ${rows.byTagHourly} + ${rows.byTagDaily} by tag) generated in ${result.generationSeconds.toFixed(1)} s; ${REQUESTS} sequential requests per report, 30 days by day`,
    );
  }
  console.log(
    '\n| database   | report                                          | p50 (ms) | p99 (ms) | response (bytes) |',
  );
  console.log(
    '|------------|-------------------------------------------------|----------|----------|------------------|',
  );
  for (const result of results) {
    for (const report of result.reports) {
      console.log(
        `| ${result.database.padEnd(10)} | ${report.name.padEnd(47)} | ${report.p50.toFixed(1).padStart(8)} | ${report.p99.toFixed(1).padStart(8)} | ${String(report.bytes).padStart(16)} |`,
      );
    }
  }
}
