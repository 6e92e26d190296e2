import { lt } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { passwordResetTokens } from '@/lib/db/schema';

const KEEP_MS = 24 * 3600 * 1000;

/** Scheduled job: drops reset links a day past their expiry (used ones expire too). Unsafe: every person's. */
export async function unsafePurgeSpentResetLinks(db: Db, now: Date): Promise<number> {
  const rows = await db
    .delete(passwordResetTokens)
    .where(lt(passwordResetTokens.expiresAt, new Date(now.getTime() - KEEP_MS)))
    .returning({ id: passwordResetTokens.id });
  return rows.length;
}
