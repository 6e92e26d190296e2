import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { contactLists, listMemberships } from '@/lib/db/schema';
import { countAudience } from './internal/audience';
import { narrowingInAccount } from './internal/campaign-design';
import { audiencePreviewSchema } from './schemas';

/**
 * The wizard's live count: how many would receive a campaign to these lists from that sender, by the
 * same definition the snapshot uses (countAudience), and each list's confirmed members. It reads list
 * contents, so it needs `lists:read` as well; only the account's live lists count.
 */
export const previewCampaignAudience = defineVerb({
  scope: 'campaigns:read',
  input: audiencePreviewSchema,
  alsoNeeds: () => ['lists:read'],
  async run({ db, principal, now }, input) {
    const accountId = principal.targetAccountId;
    const requested = [...new Set(input.list_ids.map((id) => id.toLowerCase()))];
    if (requested.length === 0) return { object: 'audience_preview' as const, recipients: 0, per_list: [] };
    const counts = await db
      .select({ listId: contactLists.id, confirmed: sql<number>`count(${listMemberships.contactId})::int` })
      .from(contactLists)
      .leftJoin(
        listMemberships,
        and(
          eq(listMemberships.listId, contactLists.id),
          eq(listMemberships.accountId, accountId),
          eq(listMemberships.subscriptionStatus, 'confirmed'),
        ),
      )
      .where(
        and(eq(contactLists.accountId, accountId), inArray(contactLists.id, requested), isNull(contactLists.deletedAt)),
      )
      .groupBy(contactLists.id);
    const byId = new Map(counts.map((row) => [row.listId, Number(row.confirmed)]));
    const liveLists = requested.filter((id) => byId.has(id));
    // Without a sender only account-wide suppressions apply: a domain's own list is unknown yet.
    const senderDomain = input.from_email?.includes('@')
      ? input.from_email.slice(input.from_email.lastIndexOf('@') + 1).toLowerCase()
      : '';
    const recipients = liveLists.length
      ? await countAudience(db, {
          accountId,
          listIds: liveLists,
          ...(await narrowingInAccount(db, accountId, input)),
          senderDomain,
          at: now(),
        })
      : 0;
    return {
      object: 'audience_preview' as const,
      recipients,
      per_list: liveLists.map((id) => ({ list_id: id, confirmed: byId.get(id) ?? 0 })),
    };
  },
});
