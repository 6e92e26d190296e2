import { and, eq } from 'drizzle-orm';
import { domainPathSchema } from '@/lib/core/domains/schemas';
import { getDomainInAccount } from '@/lib/core/domains/internal/queries';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { domainReports } from '@/lib/db/schema';
import type { TlsPolicyResult } from './internal/parse-tls-report';
import { summarizeTlsReports } from './internal/summarize-tls-reports';
import { listDomainReportsQuerySchema } from './schemas';

type ReportRow = typeof domainReports.$inferSelect;

/** A domain's TLS reports (RFC 8460), newest first, with the 30-day summary. */
export const listTlsReports = defineVerb({
  scope: 'domains:read',
  input: listDomainReportsQuerySchema.extend(domainPathSchema.shape),
  async run({ db, principal, now }, input) {
    const accountId = principal.targetAccountId;
    const domain = await getDomainInAccount(db, accountId, input.domain);
    const page = await paginate(db, {
      table: domainReports,
      idColumn: domainReports.id,
      where: and(
        eq(domainReports.accountId, accountId),
        eq(domainReports.domainId, domain.id),
        eq(domainReports.kind, 'tls'),
      ),
      query: input,
      map: (rows: ReportRow[]) =>
        rows.map((row) => {
          const policies = (row.status === 'stored' ? row.policy : null) as TlsPolicyResult[] | null;
          return {
            object: 'tls_report' as const,
            id: row.id,
            status: row.status as 'stored' | 'rejected',
            rejection_reason: row.rejectionReason,
            reporter: { org_name: row.reporterOrg, email: row.reporterEmail },
            report_id: row.reportId,
            date_range: { begin: row.beginsAt?.toISOString() ?? null, end: row.endsAt?.toISOString() ?? null },
            successful_sessions: row.messageCount - row.failureCount,
            failed_sessions: row.failureCount,
            received_at: row.receivedAt.toISOString(),
            policies: policies ?? [],
          };
        }),
    });
    const summary = await summarizeTlsReports(db, { accountId, domainId: domain.id }, now());
    return { page, summary };
  },
});
