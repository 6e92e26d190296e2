import { sql } from 'drizzle-orm';
import { recordEvent } from '@/lib/core/events/record-event';
import type { DbOrTx } from '@/lib/db/client';
import { suppressions } from '@/lib/db/schema';

export const AUTOMATIC_SUPPRESSION_DAYS = 30;

/**
 * Adds (or renews) a suppression and records `suppression.created` when it is new. Hard bounces
 * call this for the sending domain; complaints and manual entries come later through the API.
 */
export async function suppressRecipient(
  db: DbOrTx,
  input: { accountId: string; email: string; domain: string; kind: 'bounce' | 'complaint' | 'manual' | 'protected'; reason: string; expiresAt: Date; at: Date },
): Promise<void> {
  const [row] = await db
    .insert(suppressions)
    .values({ accountId: input.accountId, email: input.email, domain: input.domain, kind: input.kind, reason: input.reason, expiresAt: input.expiresAt, createdAt: input.at, updatedAt: input.at })
    .onConflictDoUpdate({
      target: [suppressions.accountId, suppressions.email, suppressions.domain],
      set: { expiresAt: sql`greatest(${suppressions.expiresAt}, excluded.expires_at)`, reason: input.reason, updatedAt: input.at },
    })
    .returning({ createdAt: suppressions.createdAt });
  if (row && row.createdAt.getTime() === input.at.getTime()) {
    await recordEvent(db, {
      accountId: input.accountId,
      type: 'suppression.created',
      at: input.at,
      payload: {
        account_id: input.accountId,
        recipient: input.email,
        created_at: input.at.toISOString(),
        expires_at: input.expiresAt.toISOString(),
        reason: input.reason,
        sending_domain: input.domain,
      },
    });
  }
}
