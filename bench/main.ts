/**
 * `npm run bench [-- delivery|statistics ...]`: each case on PGlite and (when reachable) PostgreSQL.
 * Without arguments every case runs; BENCH_ONLY=pglite or BENCH_ONLY=postgres measures one database.
 *
 * delivery (bench/delivery.ts): acceptance and delivery throughput.
 * statistics (bench/statistics.ts): the three reports over 30 days on 10 million events' rollups.
 * import (bench/import.ts): 100,000 contacts with 3 attributes through POST /contacts/import, until completed.
 * export (bench/export.ts): 1,000,000 contacts (PGlite: 100,000) through POST /contacts/export, until done and downloaded.
 * campaign (bench/campaign.ts): a campaign to a 100,000-contact list, until all queued and all delivered.
 * campaign-report (bench/campaign-report.ts): GET report of a 100,000-recipient campaign with 30,000 opens and 5,000 clicks.
 * submission (bench/submission.ts): 2,000 10 KB messages over 4 SMTP sessions, accepted, then delivered.
 * versus-postfix (bench/versus-postfix.ts): 20,000 10 KB messages end to end, Postfix and Mailstead side by side.
 * webhook-backoff (bench/webhook-backoff.ts): idle server CPU with 5,000 webhook deliveries waiting for an endpoint that fails.
 * render (bench/render.ts): a 100-block document and a Markdown body rendered to email HTML, in process.
 * segments (bench/segments.ts): segment counts over 1,000,000 contacts on PostgreSQL only.
 */
import { TestDnsServer } from '../e2e/support/dns-server';
import { POSTGRES_URL, type DatabaseName } from './bench-support';
import { printDeliveryResults, runDeliveryBench, type DeliveryResult } from './delivery';
import { isPostgresReachable } from './postgres-reachable';
import { printCampaignResults, runCampaignBench, type CampaignResult } from './campaign';
import { printCampaignReportResults, runCampaignReportBench, type CampaignReportResult } from './campaign-report';
import { printExportResults, runExportBench, type ExportResult } from './export';
import { printImportResults, runImportBench, type ImportResult } from './import';
import { printStatisticsResults, runStatisticsBench, type StatisticsResult } from './statistics';
import { printSubmissionResults, runSubmissionBench, type SubmissionResult } from './submission';
import { printRenderResults, runRenderBench } from './render';
import { printSegmentsResults, runSegmentsBench } from './segments';
import { printVersusPostfixResults, runVersusPostfixBench } from './versus-postfix';
import { printWebhookBackoffResults, runWebhookBackoffBench, type WebhookBackoffResult } from './webhook-backoff';

const CASES = [
  'delivery',
  'statistics',
  'import',
  'export',
  'campaign',
  'campaign-report',
  'submission',
  'versus-postfix',
  'webhook-backoff',
  'render',
  'segments',
] as const;
type Case = (typeof CASES)[number];

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !CASES.includes(name as Case));
if (unknown.length > 0) {
  console.error(`unknown benchmark case: ${unknown.join(', ')} (cases: ${CASES.join(', ')})`);
  process.exit(2);
}
const selected: Case[] = requested.length > 0 ? (requested as Case[]) : [...CASES];

const databases: DatabaseName[] = [];
if (process.env.BENCH_ONLY !== 'postgres') databases.push('PGlite');
if (process.env.BENCH_ONLY !== 'pglite') {
  if (await isPostgresReachable(POSTGRES_URL)) databases.push('PostgreSQL');
  else console.warn(`PostgreSQL at ${POSTGRES_URL} is not reachable: measured PGlite only`);
}

if (selected.includes('render')) printRenderResults(await runRenderBench());

if (selected.includes('delivery')) {
  const dns = new TestDnsServer();
  await dns.start();
  const results: DeliveryResult[] = [];
  for (const database of databases) results.push(await runDeliveryBench(database, dns));
  await dns.stop();
  printDeliveryResults(results);
}

if (selected.includes('statistics')) {
  const results: StatisticsResult[] = [];
  for (const database of databases) results.push(await runStatisticsBench(database));
  printStatisticsResults(results);
}

if (selected.includes('import')) {
  const results: ImportResult[] = [];
  for (const database of databases) results.push(await runImportBench(database));
  printImportResults(results);
}

if (selected.includes('export')) {
  const results: ExportResult[] = [];
  for (const database of databases) results.push(await runExportBench(database));
  printExportResults(results);
}

if (selected.includes('campaign')) {
  const dns = new TestDnsServer();
  await dns.start();
  const results: CampaignResult[] = [];
  for (const database of databases) results.push(await runCampaignBench(database, dns));
  await dns.stop();
  printCampaignResults(results);
}

if (selected.includes('campaign-report')) {
  const results: CampaignReportResult[] = [];
  for (const database of databases) results.push(await runCampaignReportBench(database));
  printCampaignReportResults(results);
}

if (selected.includes('submission')) {
  const dns = new TestDnsServer();
  await dns.start();
  const results: SubmissionResult[] = [];
  for (const database of databases) results.push(await runSubmissionBench(database, dns));
  await dns.stop();
  printSubmissionResults(results);
}

if (selected.includes('versus-postfix')) {
  const dns = new TestDnsServer();
  await dns.start();
  const result = await runVersusPostfixBench(databases, dns);
  await dns.stop();
  printVersusPostfixResults(result);
}

if (selected.includes('webhook-backoff')) {
  const dns = new TestDnsServer();
  await dns.start();
  const results: WebhookBackoffResult[] = [];
  for (const database of databases)
    for (const kind of ['closed port', 'TLS reset'] as const)
      results.push(await runWebhookBackoffBench(database, dns, kind));
  await dns.stop();
  printWebhookBackoffResults(results);
}
if (selected.includes('segments')) {
  if (databases.includes('PostgreSQL')) printSegmentsResults(await runSegmentsBench());
  else console.warn('segments: measured on PostgreSQL only, which is not reachable');
}
process.exit(0);
