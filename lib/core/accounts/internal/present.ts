import type { accounts } from '@/lib/db/schema';

type AccountRow = typeof accounts.$inferSelect;

export function presentAccount(row: AccountRow) {
  return {
    object: 'account' as const,
    id: row.id,
    parent_account_id: row.parentAccountId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    name: row.name,
    website: row.website,
    about: row.about,
    track_opens: row.trackOpens,
    track_clicks: row.trackClicks,
    reject_bad_recipients: row.rejectBadRecipients,
    reject_mistyped_recipients: row.rejectMistypedRecipients,
    message_metadata_retention: row.messageMetadataRetention,
    message_data_retention: row.messageDataRetention,
    owner_id: row.ownerId,
  };
}

export type AccountObject = ReturnType<typeof presentAccount>;
