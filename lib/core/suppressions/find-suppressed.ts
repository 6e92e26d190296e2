import { and, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { suppressions } from '@/lib/db/schema';

/** Which of these recipients are suppressed for this sender domain (or for every domain) now. */
export async function findSuppressed(
  db: DbOrTx,
  accountId: string,
  senderDomain: string,
  recipients: string[],
  now: Date,
): Promise<Map<string, string>> {
  if (recipients.length === 0) return new Map();
  const rows = await db
    .select({ email: suppressions.email, kind: suppressions.kind, reason: suppressions.reason })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.accountId, accountId),
        inArray(suppressions.email, [...new Set(recipients)]),
        inArray(suppressions.domain, ['', senderDomain]),
        gt(suppressions.expiresAt, now),
      ),
    );
  return new Map(rows.map((row) => [row.email, row.reason ?? row.kind]));
}
