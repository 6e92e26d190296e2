import { and, eq, gte } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { domainReports } from '@/lib/db/schema';
import type { TlsSummary } from '../schemas';
import type { TlsPolicyResult } from './parse-tls-report';
import { dayTrend, recentRejected, reportCounts, SUMMARY_DAYS } from './summary-parts';

// A month of TLS reports is a few per reporter and day: read them whole rather than in SQL.
const MAX_REPORTS = 5000;

/** The last 30 days of a domain's TLS reports (RFC 8460): sessions by policy and failure type, per day. */
export async function summarizeTlsReports(
  db: DbOrTx,
  scope: { accountId: string; domainId: string },
  now: Date,
): Promise<TlsSummary> {
  const since = new Date(now.getTime() - SUMMARY_DAYS * 86_400_000);
  const rows = await db
    .select({ beginsAt: domainReports.beginsAt, policy: domainReports.policy })
    .from(domainReports)
    .where(
      and(
        eq(domainReports.accountId, scope.accountId),
        eq(domainReports.domainId, scope.domainId),
        eq(domainReports.kind, 'tls'),
        eq(domainReports.status, 'stored'),
        gte(domainReports.beginsAt, since),
      ),
    )
    .limit(MAX_REPORTS);
  const policies = new Map<string, TlsSummary['policies'][number]>();
  const failureTypes = new Map<string, number>();
  const days = new Map<string, { date: string; messages: number; passed: number }>();
  for (const row of rows) {
    const date = row.beginsAt!.toISOString().slice(0, 10);
    const day = days.get(date) ?? { date, messages: 0, passed: 0 };
    for (const policy of (row.policy ?? []) as TlsPolicyResult[]) {
      const key = `${policy.policy_type}\n${policy.policy_domain}`;
      const entry = policies.get(key) ?? {
        policy_type: policy.policy_type,
        policy_domain: policy.policy_domain,
        successful_sessions: 0,
        failed_sessions: 0,
      };
      entry.successful_sessions += policy.successful_sessions;
      entry.failed_sessions += policy.failed_sessions;
      policies.set(key, entry);
      for (const failure of policy.failures)
        failureTypes.set(failure.result_type, (failureTypes.get(failure.result_type) ?? 0) + failure.count);
      day.messages += policy.successful_sessions + policy.failed_sessions;
      day.passed += policy.successful_sessions;
    }
    days.set(date, day);
  }
  const all = [...policies.values()];
  const successes = all.reduce((total, policy) => total + policy.successful_sessions, 0);
  const failures = all.reduce((total, policy) => total + policy.failed_sessions, 0);
  const counts = await reportCounts(db, scope, 'tls', since);
  return {
    period_days: SUMMARY_DAYS,
    reports: counts.stored,
    rejected_reports: counts.rejected,
    successful_sessions: successes,
    failed_sessions: failures,
    success_share: successes + failures > 0 ? Math.round((successes / (successes + failures)) * 10_000) / 10_000 : null,
    policies: all,
    failure_types: [...failureTypes].map(([result_type, sessions]) => ({ result_type, sessions })),
    trend: dayTrend(now, [...days.values()]),
    rejected: await recentRejected(db, scope, 'tls'),
  };
}
