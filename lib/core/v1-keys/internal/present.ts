import type { v1Keys } from '@/lib/db/schema';

export function presentV1Key(row: typeof v1Keys.$inferSelect) {
  return {
    object: 'v1_key' as const,
    id: row.id,
    account_id: row.accountId,
    label: row.label,
    hint: row.hint,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
