/**
 * The campaign-report case of `npm run bench`: GET /v2/.../campaigns/{id}/report for a sent campaign
 * of 100,000 recipients with 30,000 opens (20,000 messages opened) and 5,000 clicks (3,000 messages
 * clicked, over 10 links), seeded straight into the database as sending and tracking would have
 * left it: the messages, recipients and events, and the report's counters summed from them (delivery
 * in four writers' rows, engagement in the shared one). The server runs the web role only.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createAccountWithKey } from '../e2e/support/cli';
import { startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, percentile, tracked, type DatabaseName, benchDatabaseEnv } from './bench-support';
import { connect, type Sql } from './statistics';

const RECIPIENTS = Number(process.env.BENCH_REPORT_RECIPIENTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REPORT_REQUESTS ?? 200);
const WARM_UP = 10;
/** Messages 1..TWICE are opened twice and the next as many once: 30,000 opens of 20,000 messages. */
const OPENED_TWICE = RECIPIENTS / 10;
const CLICKED_TWICE = RECIPIENTS / 50;
const CLICKED_ONCE = RECIPIENTS / 100;
const HOURS = 72;

export type CampaignReportResult = {
  database: DatabaseName;
  recipients: number;
  opens: number;
  clicks: number;
  seedSeconds: number;
  p50: number;
  p99: number;
  bytes: number;
  load: string;
};

const PROVIDERS = `(array['gmail','gmail','gmail','gmail','microsoft','microsoft','yahoo','apple','other','other'])[i % 10 + 1]`;

async function seed(sql: Sql, accountId: string, campaignId: string, started: Date) {
  const account = `'${accountId}'::uuid`;
  const campaign = `'${campaignId}'::uuid`;
  const start = `'${started.toISOString()}'::timestamptz`;
  await sql.query(`insert into campaigns (id, account_id, name, status, from_email, subject, html_content, recipient_count, queued_count, queued_at, started_at, completed_at)
    values (${campaign}, ${account}, 'Bench report', 'sent', 'news@bench.example', 'Hello {{ first_name }}', '<p>Hi</p>', ${RECIPIENTS}, ${RECIPIENTS}, ${start}, ${start}, ${start} + interval '1 hour')`);
  await sql.query(`insert into campaign_recipients (campaign_id, contact_id, account_id, email)
    select ${campaign}, gen_random_uuid(), ${account}, 'reader' || i || '@bench.example' from generate_series(1, ${RECIPIENTS}) as i`);
  await sql.query(`insert into messages (id, account_id, domain_id, content_id, campaign_id, message_id_header, sender, recipient, recipient_domain, sender_domain,
      subject, status, first_attempt_at, expires_at, return_path_token, retain_until, sent_at, delivered_at, mailbox_provider, open_count, click_count, created_at, updated_at)
    select gen_random_uuid(), ${account}, '${randomUUID()}'::uuid, '${randomUUID()}'::uuid, ${campaign}, '<' || i || '@bench.example>', 'news@bench.example',
      'reader' || i || '@rcpt' || (i % 50) || '.example', 'rcpt' || (i % 50) || '.example', 'bench.example', 'Hello Reader' || i, 'delivered',
      ${start}, ${start} + interval '3 days', 'token' || i, ${start} + interval '30 days', at, at, ${PROVIDERS},
      case when i <= ${OPENED_TWICE} then 2 when i <= ${OPENED_TWICE * 2} then 1 else 0 end,
      case when i <= ${CLICKED_TWICE} then 2 when i <= ${CLICKED_TWICE + CLICKED_ONCE} then 1 else 0 end, ${start}, at
    from (select i, ${start} + (i * interval '1 second') * 3600 / ${RECIPIENTS} as at from generate_series(1, ${RECIPIENTS}) as i) as s`);
  // One event per open and click, spread over the campaign's first three days; a click names one of 10 links.
  await sql.query(`insert into events (id, account_id, type, message_id, domain_id, payload, created_at)
    select gen_random_uuid(), m.account_id, e.type, m.id, m.domain_id,
      case when e.type = 'message.clicked' then jsonb_build_object('url', 'https://shop.example/item/' || (abs(hashtext(m.id::text || n)) % 10)) else '{}'::jsonb end,
      ${start} + (abs(hashtext(m.id::text || n || e.type)) % ${HOURS}) * interval '1 hour'
    from messages m
    cross join lateral (values ('message.opened', m.open_count), ('message.clicked', m.click_count)) as e(type, count)
    cross join lateral generate_series(1, e.count) as n
    where m.account_id = ${account} and m.campaign_id = ${campaign}`);
  // The counters, as the write path leaves them: summed here from what was seeded.
  const where = `account_id = ${account} and campaign_id = ${campaign}`;
  const campaignEvents = `select e.* from events e join messages m on m.id = e.message_id where m.account_id = ${account} and m.campaign_id = ${campaign}`;
  await sql.query(`insert into campaign_counters (campaign_id, writer, account_id, delivered, opened, clicked, total_opens, total_clicks)
    select ${campaign}, 0, ${account}, count(*), count(*) filter (where open_count > 0), count(*) filter (where click_count > 0), sum(open_count), sum(click_count)
    from messages where ${where}`);
  await sql.query(`insert into campaign_hour_counters (campaign_id, hour, writer, account_id, delivered)
    select ${campaign}, date_trunc('hour', delivered_at), 1 + i, ${account}, count(*)
    from (select delivered_at, abs(hashtext(id::text)) % 4 as i from messages where ${where}) as d group by 2, 3`);
  await sql.query(`insert into campaign_hour_counters (campaign_id, hour, writer, account_id, opened, clicked)
    select ${campaign}, date_trunc('hour', created_at), 0, ${account}, count(*) filter (where type = 'message.opened'), count(*) filter (where type = 'message.clicked')
    from (${campaignEvents}) as e group by 2
    on conflict (campaign_id, hour, writer) do update set opened = excluded.opened, clicked = excluded.clicked`);
  await sql.query(`insert into campaign_link_counters (campaign_id, url_hash, writer, account_id, url, clicks, unique_clicks)
    select ${campaign}, md5(payload->>'url'), 0, ${account}, payload->>'url', count(*), count(distinct message_id)
    from (${campaignEvents}) as e where type = 'message.clicked' group by payload->>'url'`);
  await sql.query(`insert into campaign_provider_counters (campaign_id, provider, writer, account_id, delivered, opened)
    select ${campaign}, mailbox_provider, 0, ${account}, count(*), count(*) filter (where open_count > 0) from messages where ${where} group by mailbox_provider`);
  await sql.query('analyze');
  const [counted] = (await sql.query(`select total_opens, total_clicks from campaign_counters where ${where}`)).rows;
  return { opens: Number(counted.total_opens), clicks: Number(counted.total_clicks) };
}

export async function runCampaignReportBench(database: DatabaseName): Promise<CampaignReportResult> {
  const dataDir = tempDataDir('ms-bench-report-');
  const { env, drop } = await benchDatabaseEnv(database, dataDir, 'mailstead_bench_report');
  try {
    const account = await createAccountWithKey(env, 'Campaign report bench');
    const campaignId = randomUUID();
    const started = performance.now();
    const sql = await connect(database, dataDir, env.DATABASE_URL || null);
    const seeded = await seed(sql, account.accountId, campaignId, new Date(Date.now() - HOURS * 3_600_000));
    await sql.close();
    const seedSeconds = (performance.now() - started) / 1000;

    const server = tracked(await startServer({ dataDir, env: { ...env, ROLES: 'web' } }));
    const agent = trustingAgent(dataDir);
    const url = `/v2/accounts/${account.accountId}/campaigns/${campaignId}/report`;
    const first = await api(server, agent, account.apiKey, 'GET', url, undefined, 200);
    const totals = first.totals as Record<string, number>;
    if (totals.recipients !== RECIPIENTS || totals.opened !== seeded.opens || totals.clicked !== seeded.clicks)
      throw new Error(`the report does not count what was seeded: ${JSON.stringify(totals)}`);
    for (let i = 1; i < WARM_UP; i++) await api(server, agent, account.apiKey, 'GET', url, undefined, 200);
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      await api(server, agent, account.apiKey, 'GET', url, undefined, 200);
      latencies.push(performance.now() - t0);
    }
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    await server.stop();
    await agent.close();
    return {
      database,
      recipients: RECIPIENTS,
      ...seeded,
      seedSeconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      bytes: JSON.stringify(first).length,
      load,
    };
  } finally {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printCampaignReportResults(results: CampaignReportResult[]) {
  console.log(
    `\n${REQUESTS} sequential GET report requests after ${WARM_UP} to warm up; load average (1, 5, 15 min) read after the requests`,
  );
  console.log(
    '\n| database   | recipients | opens  | clicks | seeded in (s) | p50 (ms) | p99 (ms) | response (bytes) | load average   |',
  );
  console.log(
    '|------------|------------|--------|--------|---------------|----------|----------|------------------|----------------|',
  );
  for (const r of results) {
    console.log(
      `| ${r.database.padEnd(10)} | ${String(r.recipients).padStart(10)} | ${String(r.opens).padStart(6)} | ${String(r.clicks).padStart(6)} | ${r.seedSeconds.toFixed(1).padStart(13)} | ${r.p50.toFixed(1).padStart(8)} | ${r.p99.toFixed(1).padStart(8)} | ${String(r.bytes).padStart(16)} | ${r.load.padEnd(14)} |`,
    );
  }
}
