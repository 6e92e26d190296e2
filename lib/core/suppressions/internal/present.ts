import type { suppressions } from '@/lib/db/schema';
import type { SuppressionKind } from '../schemas';

export function presentSuppression(row: typeof suppressions.$inferSelect) {
  return {
    object: 'suppression' as const,
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    domain: row.domain === '' ? null : row.domain,
    reason: row.reason,
    expires_at: row.expiresAt.toISOString(),
    kind: row.kind as SuppressionKind,
  };
}

export type SuppressionObject = ReturnType<typeof presentSuppression>;
