import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { domainPathSchema } from '@/lib/core/domains/schemas';
import { getDomainInAccount } from '@/lib/core/domains/internal/queries';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { dmarcReportSources, domainReports } from '@/lib/db/schema';
import { summarizeDmarcReports } from './internal/summarize-dmarc-reports';
import { listDomainReportsQuerySchema } from './schemas';

const SOURCES_PER_REPORT = 100;
type ReportRow = typeof domainReports.$inferSelect;

/** A domain's DMARC aggregate reports, newest first, with the 30-day summary the dashboard shows. */
export const listDmarcReports = defineVerb({
  scope: 'domains:read',
  input: listDomainReportsQuerySchema.extend(domainPathSchema.shape),
  async run({ db, dns, principal, now }, input) {
    const accountId = principal.targetAccountId;
    const domain = await getDomainInAccount(db, accountId, input.domain);
    const page = await paginate(db, {
      table: domainReports,
      idColumn: domainReports.id,
      where: and(
        eq(domainReports.accountId, accountId),
        eq(domainReports.domainId, domain.id),
        eq(domainReports.kind, 'dmarc'),
      ),
      query: input,
      map: (rows: ReportRow[]) => presentDmarcReports(db, rows),
    });
    const summary = await summarizeDmarcReports(db, dns, { accountId, domainId: domain.id }, now());
    return { page, summary };
  },
});

async function presentDmarcReports(db: DbOrTx, rows: ReportRow[]) {
  const ids = rows.filter((row) => row.status === 'stored').map((row) => row.id);
  // The busiest sources of each report, ranked within it.
  const ranked = ids.length
    ? await db
        .select({
          source: dmarcReportSources,
          rank: sql<number>`row_number() over (partition by ${dmarcReportSources.reportId} order by ${dmarcReportSources.messageCount} desc, ${dmarcReportSources.id})`.mapWith(
            Number,
          ),
          total: sql<number>`count(*) over (partition by ${dmarcReportSources.reportId})`.mapWith(Number),
        })
        .from(dmarcReportSources)
        .where(inArray(dmarcReportSources.reportId, ids))
        .orderBy(desc(dmarcReportSources.messageCount))
    : [];
  return rows.map((row) => {
    const mine = ranked.filter((entry) => entry.source.reportId === row.id);
    return {
      object: 'dmarc_report' as const,
      id: row.id,
      status: row.status as 'stored' | 'rejected',
      rejection_reason: row.rejectionReason,
      reporter: { org_name: row.reporterOrg, email: row.reporterEmail },
      report_id: row.reportId,
      date_range: { begin: row.beginsAt?.toISOString() ?? null, end: row.endsAt?.toISOString() ?? null },
      policy_published: (row.policy as Record<string, string | null> | null) ?? null,
      messages: row.messageCount,
      failed_messages: row.failureCount,
      received_at: row.receivedAt.toISOString(),
      source_count: mine[0]?.total ?? 0,
      sources: mine
        .filter((entry) => entry.rank <= SOURCES_PER_REPORT)
        .map(({ source }) => ({
          source_ip: source.sourceIp,
          messages: source.messageCount,
          disposition: source.disposition,
          header_from: source.headerFrom,
          dkim: { result: source.dkimResult, domain: source.dkimDomain, aligned: source.dkimAligned },
          spf: { result: source.spfResult, domain: source.spfDomain, aligned: source.spfAligned },
          dmarc: source.dkimAligned || source.spfAligned ? ('pass' as const) : ('fail' as const),
        })),
    };
  });
}
