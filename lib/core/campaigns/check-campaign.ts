import { and, eq, inArray } from 'drizzle-orm';
import { getAccountById } from '@/lib/core/accounts/queries';
import { renderContents } from '@/lib/core/messages/render-content';
import { defineVerb } from '@/lib/core/verb';
import { contactLists } from '@/lib/db/schema';
import { UNSUBSCRIBE_VARIABLE, withUnsubscribeLink } from './campaign-content';
import { getCampaignInAccount } from './internal/queries';
import { sampleContact } from './internal/sample-contact';
import { campaignPathSchema } from './schemas';
import { validateCampaign } from './internal/validate-campaign';

/**
 * The checks sending would run, now, without changing the campaign: the wizard's Review step shows
 * each failure before the user presses Send, and what would go to whom (the audience counted now,
 * sender, reply-to, lists, tracking, and the content rendered for one real member). Validation in the
 * worker stays the deciding run.
 */
export const checkCampaign = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run(services, input) {
    const { db, principal } = services;
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    const validation = await validateCampaign(services, db, row);
    const account = await getAccountById(db, row.accountId);
    const lists = row.listIds.length
      ? await db
          .select({ id: contactLists.id, name: contactLists.name })
          .from(contactLists)
          .where(and(eq(contactLists.accountId, row.accountId), inArray(contactLists.id, row.listIds)))
      : [];
    let preview: { sample_email: string; subject: string; html: string | null; text: string | null } | null = null;
    if (validation.content) {
      const sample = await sampleContact(db, row.accountId, row.listIds);
      const parts = withUnsubscribeLink(validation.content);
      const [rendered] = await renderContents(services.renderer, [
        { parts: { ...parts, amp: null }, context: { ...sample.values, [UNSUBSCRIBE_VARIABLE]: '#unsubscribe' } },
      ]);
      if (rendered.ok)
        preview = {
          sample_email: sample.email,
          subject: rendered.parts.subject,
          html: rendered.parts.html,
          text: rendered.parts.text,
        };
    }
    return {
      object: 'campaign_check' as const,
      campaign_id: row.id,
      status: row.status,
      is_valid: validation.errors.length === 0,
      errors: validation.errors,
      audience: validation.audience ?? 0,
      sender_domain: validation.domain?.domain ?? null,
      from: row.fromEmail ? { email: row.fromEmail, name: row.fromName } : null,
      reply_to: row.replyTo ? { email: row.replyTo.email, name: row.replyTo.name ?? null } : null,
      // What sending would use: the campaign's choice, or the account's default.
      tracking: { open: row.trackOpens ?? account.trackOpens, click: row.trackClicks ?? account.trackClicks },
      subject: validation.content?.subject ?? row.subject,
      lists: row.listIds.map((id) => ({ id, name: lists.find((list) => list.id === id)?.name ?? null })),
      preview,
    };
  },
});
