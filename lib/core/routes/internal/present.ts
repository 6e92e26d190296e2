import type { routes } from '@/lib/db/schema';

export type RouteRow = typeof routes.$inferSelect;

/** The Route object; the secret never appears here. */
export function presentRoute(row: RouteRow) {
  return {
    object: 'route' as const,
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    name: row.name,
    url: row.url,
    recipient: row.recipient,
    attachments: row.attachments,
    headers: row.headers,
    group_by_message_id: row.groupByMessageId,
    strip_replies: row.stripReplies,
    enabled: row.enabled,
    success_count: row.successCount,
    error_count: row.errorCount,
    errors_since_last_success: row.errorsSinceLastSuccess,
    last_request_at: row.lastRequestAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt?.toISOString() ?? null,
  };
}
