import type { Acceptance } from '@/lib/core/messages/internal/accept-messages';
import { resolveSchedule } from '@/lib/core/messages/internal/resolve-schedule';
import type { accounts, StructuredContent } from '@/lib/db/schema';
import { withUnsubscribeLink, type CampaignParts } from '../campaign-content';
import type { CampaignRow } from './present';

/** The stored content of a campaign's messages: the parts with their unsubscribe link, as templates. */
export function campaignStructuredContent(
  row: CampaignRow,
  parts: CampaignParts,
  subjectPrefix = '',
): StructuredContent {
  const linked = withUnsubscribeLink(parts);
  return {
    from: { email: row.fromEmail!, name: row.fromName },
    subject: subjectPrefix + linked.subject,
    text: linked.text,
    html: linked.html,
    amp: null,
    replyTo: row.replyTo ? { email: row.replyTo.email, name: row.replyTo.name ?? null } : null,
    headers: [],
    attachments: [],
  };
}

/** How a campaign's messages are sent: its tracking choices over the account's defaults, the account's retention. */
export function campaignSendOptions(
  row: CampaignRow,
  account: typeof accounts.$inferSelect,
  now: Date,
  extra: { isSandbox: boolean; tags: string[] },
): Acceptance['options'] {
  return {
    isSandbox: extra.isSandbox,
    sandboxResult: null,
    tags: extra.tags,
    trackOpens: row.trackOpens ?? account.trackOpens,
    trackClicks: row.trackClicks ?? account.trackClicks,
    ...resolveSchedule(null, now),
    metadataRetentionDays: account.messageMetadataRetention,
    dataRetentionDays: account.messageDataRetention,
  };
}
