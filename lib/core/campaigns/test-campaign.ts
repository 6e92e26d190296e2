import { and, eq, inArray } from 'drizzle-orm';
import { acceptMessages } from '@/lib/core/messages/internal/accept-messages';
import { assertWithinMonthlyCredit } from '@/lib/core/messages/internal/assert-within-monthly-credit';
import { resolveSender } from '@/lib/core/messages/internal/resolve-sender';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { defineVerb } from '@/lib/core/verb';
import { contacts } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { contactSubstitutions } from './internal/audience';
import { resolveCampaignContent, UNSUBSCRIBE_VARIABLE } from './campaign-content';
import { campaignSendOptions, campaignStructuredContent } from './internal/campaign-message';
import { campaignStatusConflict, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema, testCampaignSchema } from './schemas';

export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * Sends the draft as it stands to 1-10 addresses, marked "[Test]" and counted nowhere in the
 * campaign's numbers. An address that is a contact gets that contact's values. Its unsubscribe link
 * leads to a page that says it was a test. Only drafts (409 otherwise, never stored for an
 * Idempotency-Key: the endpoint's idempotency mode).
 */
export const testCampaign = defineVerb({
  scope: 'campaigns:send',
  input: testCampaignSchema.extend(campaignPathSchema.shape),
  async run({ db, principal, now, config }, input) {
    const accountId = principal.targetAccountId;
    const row = await getCampaignInAccount(db, accountId, input.campaign_id);
    if (row.status !== 'draft')
      throw campaignStatusConflict(row, 'a test can be sent', 'while the campaign is a draft');
    const addresses = input.emails.map((raw, index) => {
      const address = normalizeEmailAddress(raw);
      if (!address.ok) throw invalidInput(`emails[${index}]: ${address.reason}`, 'emails');
      return address;
    });
    if (!row.fromEmail) throw invalidInput('from: the campaign has no sender address', 'from');
    const sender = await resolveSender(db, accountId, row.fromEmail, 'from');
    const parts = await resolveCampaignContent(db, row);
    if (!parts.subject.trim() || (!parts.html && !parts.text))
      throw invalidInput('html_content: the campaign has no subject or no body to test', 'html_content');

    const known = await db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.accountId, accountId),
          inArray(
            contacts.email,
            addresses.map((address) => address.email),
          ),
        ),
      );
    const byEmail = new Map(known.map((contact) => [contact.email, contact]));
    const at = now();
    const recipients = [...new Map(addresses.map((address) => [address.email, address])).values()];
    await assertWithinMonthlyCredit(db, sender.account, recipients.length, at);
    const rows = await acceptMessages(db, {
      accountId,
      sender: { email: sender.email, domainId: sender.domain.id, domain: sender.domain.domain },
      subject: TEST_SUBJECT_PREFIX + parts.subject,
      content: {
        kind: 'structured',
        structured: campaignStructuredContent(row, parts, TEST_SUBJECT_PREFIX),
        globalSubstitutions: { [UNSUBSCRIBE_VARIABLE]: `${config.publicUrl.origin}/u/test` },
        isTemplated: true,
      },
      recipients: recipients.map((address) => {
        const contact = byEmail.get(address.email);
        return {
          email: address.email,
          domain: address.domain,
          name: null,
          substitutions: contact
            ? contactSubstitutions(contact)
            : { email: address.email, first_name: '', last_name: '' },
        };
      }),
      options: campaignSendOptions(row, sender.account, at, {
        isSandbox: principal.isSandbox,
        tags: ['campaign-test'],
      }),
      now: at,
    });
    return {
      object: 'list' as const,
      data: rows.map((message) => ({
        object: 'message' as const,
        id: message.messageIdHeader,
        recipient: { email: message.recipient, name: '' },
        status: 'queued' as const,
        error: null,
      })),
    };
  },
});
