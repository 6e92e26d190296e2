/**
 * The campaign case of `npm run bench`: a 100,000-contact list (imported through the API), one
 * campaign to it; timed from POST …/send until every recipient's message is queued (the campaign
 * reads `sent`), then until a loopback sink has accepted them all (templated per contact, DKIM on).
 * One server with the web and worker roles, as a user runs it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { fetch } from 'undici';
import { createAccountWithKey } from '../e2e/support/cli';
import type { TestDnsServer } from '../e2e/support/dns-server';
import { startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, benchServerEnv, cpuMs, percentile, tracked, type DatabaseName } from './bench-support';
import { startSink } from './delivery';

const CONTACTS = Number(process.env.BENCH_CAMPAIGN_CONTACTS ?? 100_000);
const BODY = `<p>Hello {{ first_name }},</p><p>${'News of the month. '.repeat(100)}</p>`;

export type CampaignResult = {
  database: DatabaseName;
  contacts: number;
  queueSeconds: number;
  /** GET …/campaigns (what the dashboard polls), one at a time, from send until all queued. */
  apiP50Ms: number;
  apiP99Ms: number;
  apiRequests: number;
  deliverySeconds: number;
  serverCpuSeconds: number;
};

function csvOf(rows: number): string {
  const lines = ['email,first_name,last_name'];
  for (let index = 0; index < rows; index++) lines.push(`reader${index}@sink.example,First${index},Last${index}`);
  return lines.join('\n') + '\n';
}

export async function runCampaignBench(database: DatabaseName, dns: TestDnsServer): Promise<CampaignResult> {
  const sink = await startSink();
  const dataDir = tempDataDir('ms-bench-campaign-');
  const { env, drop } = await benchServerEnv(database, dns, {
    dataDir,
    sinkPort: sink.port,
    databaseName: 'mailstead_bench_campaign',
  });
  try {
    const account = await createAccountWithKey(env, 'Campaign bench');
    const server = tracked(await startServer({ dataDir, env: { ...env, ROLES: 'web,worker' } }));
    const agent = trustingAgent(dataDir);
    const base = `/v2/accounts/${account.accountId}`;
    const call = (method: string, path: string, body?: unknown, expected = 0) =>
      api(server, agent, account.apiKey, method, base + path, body, expected);

    const domain = `campaign-bench-${Date.now().toString(36)}.example.com`;
    const created = await call('POST', '/domains', { domain, sending_type: 'marketing' }, 201);
    for (const record of (created.dns_records ?? []) as { type: string; host: string; content: string }[]) {
      if (record.type === 'TXT') dns.set(record.host, 'TXT', [record.content]);
      if (record.type === 'CNAME') dns.set(record.host, 'CNAME', record.content);
    }
    await call('POST', `/domains/${domain}/check-dns`);

    const list = await call('POST', '/lists', { name: 'Everyone' }, 201);
    const upload = await fetch(`${server.baseUrl}${base}/contacts/import?list_id=${list.id}`, {
      method: 'POST',
      body: csvOf(CONTACTS),
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'text/csv' },
      dispatcher: agent,
    });
    const job = (await upload.json()) as { id: string };
    for (;;) {
      const state = (await call('GET', `/contacts/import/${job.id}`)) as { status: string };
      if (state.status === 'completed') break;
      if (state.status === 'failed') throw new Error(`import failed: ${JSON.stringify(state)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const campaign = await call(
      'POST',
      '/campaigns',
      {
        name: 'Bench',
        from: { email: `news@${domain}`, name: 'News' },
        subject: 'Hello {{ first_name }}',
        html_content: BODY,
        list_ids: [list.id],
        tracking: { open: false, click: false },
      },
      201,
    );
    const cpuBefore = cpuMs(server.process.pid!);
    const started = performance.now();
    const sentAt = Date.now();
    await call('POST', `/campaigns/${campaign.id}/send`, {}, 200);
    // What a person's dashboard asks meanwhile: the API must stay quick while the fan-out writes.
    const latencies: number[] = [];
    let isFanningOut = true;
    const probing = (async () => {
      while (isFanningOut) {
        const at = performance.now();
        await call('GET', '/campaigns?limit=10', undefined, 200);
        latencies.push(performance.now() - at);
        if (process.env.BENCH_SLOW_MS && performance.now() - at > Number(process.env.BENCH_SLOW_MS))
          console.log(`slow GET ${Math.round(performance.now() - at)} ms, ended at ${new Date().toISOString()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    // Timed by the campaign's own queued_at (same clock; stamped once its last recipients are
    // written), polled every half second (the campaign stays sending until delivery drains it).
    let current: { status: string; queued_at: string | null; validation_errors: unknown[] } = {
      status: '',
      queued_at: null,
      validation_errors: [],
    };
    while (!current.queued_at) {
      current = (await call('GET', `/campaigns/${campaign.id}`)) as typeof current;
      if (current.status === 'draft')
        throw new Error(`validation failed: ${JSON.stringify(current.validation_errors)}`);
      if (!current.queued_at) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const queueSeconds = (Date.parse(current.queued_at) - sentAt) / 1000;
    isFanningOut = false;
    await probing;
    // BENCH_CAMPAIGN_QUEUE_ONLY=1: stop at "all queued" (for quick runs while tuning the fan-out).
    while (!process.env.BENCH_CAMPAIGN_QUEUE_ONLY && sink.received() < CONTACTS) {
      if (server.process.exitCode !== null) throw new Error('server exited');
      if (performance.now() - started > 900_000) throw new Error(`delivery stalled at ${sink.received()}/${CONTACTS}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const deliverySeconds = (performance.now() - started) / 1000;
    const serverCpuSeconds = (cpuMs(server.process.pid!) - cpuBefore) / 1000;
    await server.stop();
    await agent.close();
    return {
      database,
      contacts: CONTACTS,
      queueSeconds,
      apiP50Ms: percentile(latencies, 50),
      apiP99Ms: percentile(latencies, 99),
      apiRequests: latencies.length,
      deliverySeconds,
      serverCpuSeconds,
    };
  } finally {
    await sink.stop();
    if (!process.env.BENCH_KEEP_DATA) await drop?.();
    if (process.env.BENCH_KEEP_LOG)
      console.log(
        readFileSync(`${dataDir}/server.log`, 'utf8')
          .split('\n')
          .filter((line: string) => line.includes('campaign'))
          .join('\n'),
      );
    if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printCampaignResults(results: CampaignResult[]) {
  const isQueueOnly = Boolean(process.env.BENCH_CAMPAIGN_QUEUE_ONLY);
  console.log(
    '\n| database   | contacts | send -> all queued (s) | API p50 / p99 meanwhile (ms, n) | send -> all delivered (s) | delivered/s | server CPU (s) |',
  );
  console.log(
    '|------------|----------|------------------------|---------------------------------|---------------------------|-------------|----------------|',
  );
  for (const r of results) {
    const api = `${r.apiP50Ms.toFixed(0)} / ${r.apiP99Ms.toFixed(0)} (${r.apiRequests})`;
    // With BENCH_CAMPAIGN_QUEUE_ONLY the run stops at "all queued": no delivery figures.
    const delivered = isQueueOnly ? '-' : r.deliverySeconds.toFixed(1);
    const rate = isQueueOnly ? '-' : String(Math.round(r.contacts / r.deliverySeconds));
    console.log(
      `| ${r.database.padEnd(10)} | ${String(r.contacts).padStart(8)} | ${r.queueSeconds.toFixed(2).padStart(22)} | ${api.padStart(31)} | ${delivered.padStart(25)} | ${rate.padStart(11)} | ${r.serverCpuSeconds.toFixed(1).padStart(14)} |`,
    );
  }
}
