import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { domainReports } from '@/lib/db/schema';

export const SUMMARY_DAYS = 30;
const RECENT_REJECTED = 10;

type Scope = { accountId: string; domainId: string };

/** One entry per UTC day of the window, oldest first, zero where no report covered the day. */
export function dayTrend(now: Date, days: { date: string; messages: number; passed: number }[]) {
  const byDate = new Map(days.map((entry) => [entry.date, entry]));
  return Array.from({ length: SUMMARY_DAYS }, (_, index) => {
    const date = new Date(now.getTime() - (SUMMARY_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10);
    const entry = byDate.get(date);
    const messages = entry?.messages ?? 0;
    const passed = entry?.passed ?? 0;
    return { date, messages, passed, failed: messages - passed };
  });
}

/** Reports stored (by the period they cover) and refused (by when they came) within the window. */
export async function reportCounts(db: DbOrTx, scope: Scope, kind: 'dmarc' | 'tls', since: Date) {
  const [row] = await db
    .select({
      stored:
        sql`count(*) filter (where ${domainReports.status} = 'stored' and ${domainReports.beginsAt} >= ${since})`.mapWith(
          Number,
        ),
      rejected:
        sql`count(*) filter (where ${domainReports.status} = 'rejected' and ${domainReports.receivedAt} >= ${since})`.mapWith(
          Number,
        ),
    })
    .from(domainReports)
    .where(
      and(
        eq(domainReports.accountId, scope.accountId),
        eq(domainReports.domainId, scope.domainId),
        eq(domainReports.kind, kind),
      ),
    );
  return { stored: row?.stored ?? 0, rejected: row?.rejected ?? 0 };
}

export async function recentRejected(db: DbOrTx, scope: Scope, kind: 'dmarc' | 'tls') {
  const rows = await db
    .select({ id: domainReports.id, receivedAt: domainReports.receivedAt, reason: domainReports.rejectionReason })
    .from(domainReports)
    .where(
      and(
        eq(domainReports.accountId, scope.accountId),
        eq(domainReports.domainId, scope.domainId),
        eq(domainReports.kind, kind),
        eq(domainReports.status, 'rejected'),
      ),
    )
    .orderBy(desc(domainReports.id))
    .limit(RECENT_REJECTED);
  return rows.map((row) => ({ id: row.id, received_at: row.receivedAt.toISOString(), reason: row.reason ?? '' }));
}
