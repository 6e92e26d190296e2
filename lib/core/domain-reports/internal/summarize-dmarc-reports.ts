import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { DnsLookup } from '@/lib/core/domains/dns-lookup';
import type { DbOrTx } from '@/lib/db/client';
import { dmarcReportSources, domainReports } from '@/lib/db/schema';
import type { DmarcSummary } from '../schemas';
import { dayTrend, recentRejected, reportCounts, SUMMARY_DAYS } from './summary-parts';
import { reverseNames } from './reverse-names';

const MAX_SOURCES = 100;
const sum = (expression: ReturnType<typeof sql>) => sql`coalesce(sum(${expression}), 0)`.mapWith(Number);
const countIf = (condition: ReturnType<typeof sql>) =>
  sum(sql`case when ${condition} then ${dmarcReportSources.messageCount} else 0 end`);

/**
 * The last 30 days of a domain's DMARC aggregate reports: totals, alignment shares, sources by IP
 * (with reverse names), unknown senders, a per-day trend and the reports refused. The domain is one
 * the caller already found in the account; the account is in every where clause as well.
 */
export async function summarizeDmarcReports(
  db: DbOrTx,
  dns: DnsLookup | null,
  scope: { accountId: string; domainId: string },
  now: Date,
): Promise<DmarcSummary> {
  const since = new Date(now.getTime() - SUMMARY_DAYS * 86_400_000);
  const inWindow = and(
    eq(domainReports.accountId, scope.accountId),
    eq(domainReports.domainId, scope.domainId),
    eq(domainReports.kind, 'dmarc'),
    eq(domainReports.status, 'stored'),
    gte(dmarcReportSources.beginsAt, since),
  );
  const passed = sql`(${dmarcReportSources.dkimAligned} or ${dmarcReportSources.spfAligned})`;
  const figures = {
    messages: sum(sql`${dmarcReportSources.messageCount}`),
    spfAligned: countIf(sql`${dmarcReportSources.spfAligned}`),
    dkimAligned: countIf(sql`${dmarcReportSources.dkimAligned}`),
    passed: countIf(passed),
  };
  const [totals] = await db
    .select(figures)
    .from(dmarcReportSources)
    .innerJoin(domainReports, eq(domainReports.id, dmarcReportSources.reportId))
    .where(inWindow);
  const sources = await db
    .select({
      sourceIp: dmarcReportSources.sourceIp,
      ...figures,
      none: countIf(sql`${dmarcReportSources.disposition} = 'none'`),
      quarantine: countIf(sql`${dmarcReportSources.disposition} = 'quarantine'`),
      reject: countIf(sql`${dmarcReportSources.disposition} = 'reject'`),
    })
    .from(dmarcReportSources)
    .innerJoin(domainReports, eq(domainReports.id, dmarcReportSources.reportId))
    .where(inWindow)
    .groupBy(dmarcReportSources.sourceIp)
    .orderBy(desc(sql`sum(${dmarcReportSources.messageCount})`), dmarcReportSources.sourceIp)
    .limit(MAX_SOURCES);
  const day = sql<string>`to_char(${dmarcReportSources.beginsAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const days = await db
    .select({ date: day, messages: figures.messages, passed: figures.passed })
    .from(dmarcReportSources)
    .innerJoin(domainReports, eq(domainReports.id, dmarcReportSources.reportId))
    .where(inWindow)
    .groupBy(day);
  const counts = await reportCounts(db, scope, 'dmarc', since);
  const names = dns
    ? await reverseNames(
        dns,
        sources.map((source) => source.sourceIp),
      )
    : new Map();
  const messages = totals?.messages ?? 0;
  const share = (part: number) => (messages > 0 ? Math.round((part / messages) * 10_000) / 10_000 : null);
  const summarySources = sources.map((source) => ({
    source_ip: source.sourceIp,
    reverse_name: names.get(source.sourceIp) ?? null,
    messages: source.messages,
    spf_aligned: source.spfAligned,
    dkim_aligned: source.dkimAligned,
    dmarc_passed: source.passed,
    dispositions: { none: source.none, quarantine: source.quarantine, reject: source.reject },
    // Most of its mail fails DMARC: a sender not set up for the domain, or a spoofer.
    is_unknown_sender: source.passed * 2 < source.messages,
  }));
  return {
    period_days: SUMMARY_DAYS,
    reports: counts.stored,
    rejected_reports: counts.rejected,
    messages,
    dmarc_pass_share: share(totals?.passed ?? 0),
    spf_aligned_share: share(totals?.spfAligned ?? 0),
    dkim_aligned_share: share(totals?.dkimAligned ?? 0),
    unknown_senders: summarySources.filter((source) => source.is_unknown_sender).length,
    sources: summarySources,
    trend: dayTrend(
      now,
      days.map((entry) => ({ date: entry.date, messages: entry.messages, passed: entry.passed })),
    ),
    rejected: await recentRejected(db, scope, 'dmarc'),
  };
}
