import type { webhookDeliveries, webhooks } from '@/lib/db/schema';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The Webhook object; `domains` is `[]` for global webhooks. The secret never appears here. */
export function presentWebhook(row: WebhookRow, domains: readonly string[]) {
  return {
    object: 'webhook' as const,
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    name: row.name,
    url: row.url,
    enabled: row.enabled,
    on_reception: row.onReception,
    on_delivered: row.onDelivered,
    on_transient_error: row.onTransientError,
    on_failed: row.onFailed,
    on_bounced: row.onBounced,
    on_suppressed: row.onSuppressed,
    on_opened: row.onOpened,
    on_clicked: row.onClicked,
    on_suppression_created: row.onSuppressionCreated,
    on_dns_error: row.onDnsError,
    on_complained: row.onComplained,
    scope: row.scope as 'global' | 'scoped',
    domains: row.scope === 'global' ? [] : [...domains].sort(),
    success_count: row.successCount,
    error_count: row.errorCount,
    errors_since_last_success: row.errorsSinceLastSuccess,
    last_request_at: row.lastRequestAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt?.toISOString() ?? null,
  };
}

export type WebhookObject = ReturnType<typeof presentWebhook>;

/** One entry of a webhook's delivery log (the dashboard's list). */
export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    is_test: row.isTest,
    created_at: row.createdAt.toISOString(),
    status: row.status as 'pending' | 'retrying' | 'delivered' | 'failed',
    attempts: row.attempts,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    last_attempt: row.attemptLog.at(-1) ?? null,
  };
}
