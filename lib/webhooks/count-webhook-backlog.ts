import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';

export type WebhookBacklog = { pending: number; retrying: number };

/**
 * Webhook and route deliveries not yet done, by state: one grouped statement over the partial index
 * webhook_deliveries_due_idx (its predicate is this filter). Unsafe: every account's, for the metrics.
 */
export async function unsafeCountWebhookBacklog(db: Db): Promise<WebhookBacklog> {
  const result = await db.execute(
    sql`select status, count(*)::int as count from webhook_deliveries where status in ('pending', 'retrying') group by status`,
  );
  const backlog: WebhookBacklog = { pending: 0, retrying: 0 };
  for (const row of (result as unknown as { rows: { status: string; count: number }[] }).rows) {
    if (row.status === 'pending' || row.status === 'retrying') backlog[row.status] = Number(row.count);
  }
  return backlog;
}
