import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { providerPacing } from '@/lib/db/schema';
import type { PacingState } from './provider-pacing';

/**
 * Writes this process's changed pacing states (at most once a second, from batch-delivery.ts): one
 * statement per change, never per message. Unsafe: the rows belong to no account.
 */
export async function unsafeWriteProviderPacing(db: Db, workerId: string, states: PacingState[], now: Date) {
  if (states.length === 0) return;
  await db
    .insert(providerPacing)
    .values(states.map((state) => ({ workerId, ...state, updatedAt: now })))
    .onConflictDoUpdate({
      target: [providerPacing.workerId, providerPacing.key],
      set: {
        concurrency: sql`excluded.concurrency`,
        normalConcurrency: sql`excluded.normal_concurrency`,
        slowedSince: sql`excluded.slowed_since`,
        throttledReplies: sql`excluded.throttled_replies`,
        lastThrottledAt: sql`excluded.last_throttled_at`,
        spacingMs: sql`excluded.spacing_ms`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** A process that stops takes its pacing with it. */
export async function unsafeDeleteProviderPacing(db: Db, workerId: string) {
  await db.delete(providerPacing).where(eq(providerPacing.workerId, workerId));
}
