import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { countCampaignEvent } from '@/lib/core/campaigns/campaign-counters';
import { recordSubscriptionChange } from '@/lib/core/contacts/internal/record-subscription-change';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import { Rollup } from '@/lib/core/statistics/rollup';
import { suppressRecipient } from '@/lib/core/suppressions/suppress-recipient';
import type { DbOrTx } from '@/lib/db/client';
import { campaigns, contacts, listMemberships, messages } from '@/lib/db/schema';

type MessageRow = typeof messages.$inferSelect;

/** A person said no: far longer than a bounce's 30 days; a wipe keeps it, and only deleting it lifts it. */
export const COMPLAINT_SUPPRESSION_DAYS = 3650;
const DAY_MS = 24 * 3600 * 1000;

/**
 * A complaint report (ARF) about a message, in one transaction: `complained_at` on the message (its
 * status stays), `message.complained` (a Mailstead extension), the complained counter, a complaint
 * suppression of the recipient for the sender domain, and for a campaign message the contact's
 * memberships in the campaign's lists set to `complained`, which freezes them (R9), with history
 * lines. Only the first report counts: the conditional update makes a repeat change nothing (null).
 * Unsafe: the caller found the message by its return-path token, which stands for the account.
 */
export async function unsafeRecordMessageComplaint(
  services: Pick<Services, 'db'>,
  message: MessageRow,
  complaint: { feedbackType: string; reporter: string; at: Date },
): Promise<{ listIds: string[] } | null> {
  const { at, feedbackType, reporter } = complaint;
  return services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ complainedAt: at, updatedAt: at })
      .where(
        and(
          eq(messages.id, message.id),
          eq(messages.accountId, message.accountId),
          isNull(messages.complainedAt),
          eq(messages.isSandbox, false),
        ),
      )
      .returning();
    if (!row) return null;
    const response = `complaint report (${feedbackType}) from ${reporter}`.slice(0, 500);
    await recordEvent(tx, {
      accountId: row.accountId,
      type: 'message.complained',
      domainId: row.domainId,
      messageId: row.id,
      at,
      payload: messageEventPayload('message.complained', row, { response, feedback_type: feedbackType }),
    });
    await suppressRecipient(
      tx,
      {
        accountId: row.accountId,
        email: row.recipient,
        domain: row.senderDomain,
        kind: 'complaint',
        reason: `complaint (${feedbackType}) reported by ${reporter}`.slice(0, 255),
        expiresAt: new Date(at.getTime() + COMPLAINT_SUPPRESSION_DAYS * DAY_MS),
        at,
      },
      { ifSuppressed: 'renew', replaceKinds: ['bounce', 'manual'] },
    );
    const listIds = await complainInCampaignLists(tx, row, at);
    const rollup = new Rollup();
    rollup.count(
      {
        accountId: row.accountId,
        at,
        senderDomain: row.senderDomain,
        recipientDomain: row.recipientDomain,
        tags: row.tags,
      },
      'complained',
    );
    await rollup.flush(tx);
    await countCampaignEvent(tx, row, { complained: 1 });
    return { listIds };
  });
}

/** The memberships of the message's contact in its campaign's lists (deleted lists too, R10) become `complained`. */
async function complainInCampaignLists(tx: DbOrTx, row: MessageRow, at: Date): Promise<string[]> {
  if (!row.campaignId || !row.contactId) return [];
  const [campaign] = await tx
    .select({ listIds: campaigns.listIds })
    .from(campaigns)
    .where(and(eq(campaigns.id, row.campaignId), eq(campaigns.accountId, row.accountId)))
    .limit(1);
  if (!campaign?.listIds.length) return [];
  const changed = await tx
    .update(listMemberships)
    .set({ subscriptionStatus: 'complained', updatedAt: at })
    .where(
      and(
        eq(listMemberships.accountId, row.accountId),
        eq(listMemberships.contactId, row.contactId),
        inArray(listMemberships.listId, campaign.listIds),
        ne(listMemberships.subscriptionStatus, 'complained'),
      ),
    )
    .returning({ listId: listMemberships.listId });
  if (changed.length === 0) return [];
  const [contact] = await tx
    .select({ email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.id, row.contactId), eq(contacts.accountId, row.accountId)))
    .limit(1);
  for (const { listId } of changed) {
    await recordSubscriptionChange(tx, {
      accountId: row.accountId,
      contactId: row.contactId,
      email: contact?.email ?? row.recipient,
      type: 'unsubscribed',
      source: 'complaint',
      listId,
      at,
    });
  }
  return changed.map(({ listId }) => listId);
}
