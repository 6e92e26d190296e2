import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { recordSubscriptionChange } from '@/lib/core/contacts/internal/record-subscription-change';
import { publicListName } from '@/lib/core/lists/internal/public-list-name';
import { campaignRecipients, campaigns, contactLists, contacts, listMemberships } from '@/lib/db/schema';
import { countCampaignEvent } from './campaign-counters';
import { UNSUBSCRIBE_KEY_PURPOSE, verifyUnsubscribeToken } from './unsubscribe-links';

type Target = {
  campaignId: string;
  contactId: string;
  accountId: string;
  email: string;
  listIds: string[];
  listNames: string[];
  isUnsubscribedEverywhere: boolean;
  /** An A/B campaign's chosen variant: what the rest of its audience received. */
  winnerVariantId: string | null;
};

/**
 * Whom an unsubscribe token is about (for the page): the contact's address and the campaign's lists.
 * Null for a token we did not sign or whose campaign or contact no longer exists. Unsafe: the
 * token, not a credential, is the permission.
 */
export async function unsafeDescribeUnsubscribe(
  services: Pick<Services, 'db' | 'secrets'>,
  token: string,
): Promise<Target | null> {
  const verified = verifyUnsubscribeToken(services.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE), token);
  if (!verified) return null;
  const [found] = await services.db
    .select({ campaign: campaigns, contact: contacts })
    .from(campaigns)
    .innerJoin(contacts, and(eq(contacts.id, verified.contactId), eq(contacts.accountId, campaigns.accountId)))
    .where(eq(campaigns.id, verified.campaignId))
    .limit(1);
  if (!found) return null;
  const lists = found.campaign.listIds.length
    ? await services.db
        .select({ name: publicListName })
        .from(contactLists)
        .where(and(inArray(contactLists.id, found.campaign.listIds), isNull(contactLists.deletedAt)))
    : [];
  return {
    campaignId: found.campaign.id,
    contactId: found.contact.id,
    accountId: found.campaign.accountId,
    email: found.contact.email,
    listIds: found.campaign.listIds,
    listNames: lists.map((list) => list.name),
    isUnsubscribedEverywhere: found.contact.unsubscribed,
    winnerVariantId: found.campaign.winnerVariantId,
  };
}

/**
 * The one-click unsubscribe (RFC 8058) and the page's buttons: the contact's memberships in the
 * campaign's lists become `unsubscribed` (complained ones stay frozen, R9), with history lines;
 * `everything` also sets the contact's own flag. Repeating it changes nothing. Suppressions are
 * not touched (R2). Returns null for a token that is not ours. `source` names the way in for the
 * history lines: the link (default) or the List-Unsubscribe mailto.
 */
export async function unsafeUnsubscribeRecipient(
  services: Pick<Services, 'db' | 'secrets' | 'now'>,
  token: string,
  options: { isEverything: boolean; source?: 'unsubscribe_link' | 'unsubscribe_mailto' },
): Promise<Target | null> {
  const source = options.source ?? 'unsubscribe_link';
  const target = await unsafeDescribeUnsubscribe(services, token);
  if (!target) return null;
  const at = services.now();
  await services.db.transaction(async (tx) => {
    const changed = target.listIds.length
      ? await tx
          .update(listMemberships)
          .set({ subscriptionStatus: 'unsubscribed', updatedAt: at })
          .where(
            and(
              eq(listMemberships.contactId, target.contactId),
              inArray(listMemberships.listId, target.listIds),
              inArray(listMemberships.subscriptionStatus, ['confirmed', 'unconfirmed']),
            ),
          )
          .returning({ listId: listMemberships.listId })
      : [];
    for (const { listId } of changed) {
      await recordSubscriptionChange(tx, {
        accountId: target.accountId,
        contactId: target.contactId,
        email: target.email,
        type: 'unsubscribed',
        source,
        listId,
        at,
      });
    }
    if (options.isEverything && !target.isUnsubscribedEverywhere) {
      await tx
        .update(contacts)
        .set({ unsubscribed: true, unsubscribedAt: at, updatedAt: at })
        .where(eq(contacts.id, target.contactId));
      await recordSubscriptionChange(tx, {
        accountId: target.accountId,
        contactId: target.contactId,
        email: target.email,
        type: 'unsubscribed',
        source,
        at,
      });
    }
    const [first] = await tx
      .update(campaignRecipients)
      .set({ unsubscribedAt: at })
      .where(
        and(
          eq(campaignRecipients.campaignId, target.campaignId),
          eq(campaignRecipients.contactId, target.contactId),
          isNull(campaignRecipients.unsubscribedAt),
        ),
      )
      .returning({ variantId: campaignRecipients.variantId });
    // Counted under the variant the contact received, as opens and clicks are: a test recipient's
    // own, else (the rest of an A/B audience) the winner's.
    if (first)
      await countCampaignEvent(
        tx,
        {
          campaignId: target.campaignId,
          accountId: target.accountId,
          campaignVariantId: first.variantId ?? target.winnerVariantId,
        },
        { unsubscribed: 1 },
      );
  });
  return { ...target, isUnsubscribedEverywhere: target.isUnsubscribedEverywhere || options.isEverything };
}
