import { presentFormat } from '@/lib/core/templates/internal/present';
import type { CampaignTotals } from '../campaign-counters';
import type { campaigns } from '@/lib/db/schema';
import type { CampaignStatus } from '../schemas';
import { presentAbTest } from './ab-test-design';

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignCounts = { recipients: number; queued: number; waiting: number } & CampaignTotals;

export function presentCampaign(row: CampaignRow, counts: CampaignCounts | null = null) {
  return {
    object: 'campaign' as const,
    id: row.id,
    name: row.name,
    status: row.status as CampaignStatus,
    from: row.fromEmail ? { email: row.fromEmail, name: row.fromName } : null,
    reply_to: row.replyTo ? { email: row.replyTo.email, name: row.replyTo.name ?? null } : null,
    subject: row.subject,
    html_content: row.htmlContent,
    text_content: row.textContent,
    ...presentFormat(row),
    text_generated: row.textGenerated,
    template_id: row.templateId,
    template_version: row.templateVersion,
    list_ids: row.listIds,
    segment_ids: row.segmentIds,
    exclude_list_ids: row.excludeListIds,
    exclude_segment_ids: row.excludeSegmentIds,
    tracking: { open: row.trackOpens, click: row.trackClicks },
    send_at: row.sendAt?.toISOString() ?? null,
    validation_errors: row.validationErrors,
    counts,
    ...presentAbTest(row),
    started_at: row.startedAt?.toISOString() ?? null,
    queued_at: row.queuedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type CampaignObject = ReturnType<typeof presentCampaign>;
