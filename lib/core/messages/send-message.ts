import { invalidInput } from '@/lib/shared/errors';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { defineVerb } from '@/lib/core/verb';
import { acceptMessages, type AcceptedRecipient } from './accept-messages';
import { decodeAttachments } from './decode-attachments';
import { splitHeaders } from './message-headers';
import { resolveSchedule } from './resolve-schedule';
import { resolveSendOptions } from './resolve-send-options';
import { resolveSender, senderDomainOf } from './resolve-sender';
import { sendMessageSchema, type SendMessageInput } from './schemas';
import { assertTemplateCompiles } from './templates';

/**
 * POST /v2/accounts/{a}/messages: one message per recipient, each with its own substitutions.
 * Recipients that cannot be accepted are reported in the 202 beside those that were.
 */
export const sendMessage = defineVerb({
  scope: 'messages:send:{domain}',
  input: sendMessageSchema,
  domains: (_ctx, input) => senderDomainOf(input.from.email),
  async run({ db, principal, now: clock }, input) {
    const now = clock();
    const prepared = prepareContent(input);
    const sender = await resolveSender(db, principal.targetAccountId, input.from.email);
    const schedule = resolveSchedule(input.schedule, now);

    const results: { email: string; name: string; error: string | null }[] = [];
    const accepted: AcceptedRecipient[] = [];
    for (const recipient of input.recipients) {
      const address = normalizeEmailAddress(recipient.email);
      results.push({ email: address.ok ? address.email : recipient.email, name: recipient.name ?? '', error: address.ok ? null : address.reason });
      if (address.ok) accepted.push({ email: address.email, domain: address.domain, name: recipient.name ?? null, substitutions: recipient.substitutions ?? null });
    }
    if (accepted.length === 0) {
      throw invalidInput(`recipients: no recipient could be accepted (${results.map((result) => `${result.email}: ${result.error}`).join('; ')})`, 'recipients');
    }

    const { control } = prepared;
    const rows = await acceptMessages(db, {
      accountId: principal.targetAccountId,
      sender: { email: sender.email, domainId: sender.domain.id, domain: sender.domain.domain },
      subject: input.subject,
      content: {
        kind: 'structured',
        structured: { ...prepared.structured, from: { email: sender.email, name: input.from.name ?? null } },
        globalSubstitutions: input.substitutions ?? null,
        isTemplated: prepared.isTemplated,
      },
      recipients: accepted,
      options: resolveSendOptions(input, { principal, control, account: sender.account, schedule }),
      now,
    });

    let next = 0;
    const echo = input.schedule?.first_attempt || input.schedule?.expires
      ? { schedule: { first_attempt: schedule.firstAttemptAt.toISOString(), expires: schedule.expiresAt.toISOString() } }
      : {};
    return {
      object: 'list' as const,
      data: results.map((result) => {
        if (result.error) return { object: 'message' as const, id: null, recipient: { email: result.email, name: result.name }, status: 'error' as const, error: result.error };
        const row = rows[next++];
        return { object: 'message' as const, id: row.messageIdHeader, recipient: { email: result.email, name: result.name }, status: schedule.isScheduled ? ('scheduled' as const) : ('queued' as const), error: null, ...echo };
      }),
    };
  },
});

/** Body rules beyond field types, and the content in the form the worker builds MIME from. */
export function prepareContent(input: Pick<SendMessageInput, 'text_content' | 'html_content' | 'amp_content' | 'subject' | 'headers' | 'reply_to' | 'attachments'> & { substitutions?: unknown; recipients?: { substitutions?: unknown }[] }, isBareContentIdInline = false) {
  if (!input.text_content && !input.html_content) {
    throw invalidInput(input.amp_content ? 'amp_content cannot be the only body: add text_content or html_content' : 'Either text_content or html_content is required', 'text_content');
  }
  const { custom, control } = splitHeaders(input.headers);
  if (input.reply_to && custom.some(([name]) => name.toLowerCase() === 'reply-to')) {
    throw invalidInput('reply_to: give either reply_to or a Reply-To header, not both', 'reply_to');
  }
  let replyTo: { email: string; name: string | null } | null = null;
  if (input.reply_to) {
    const address = normalizeEmailAddress(input.reply_to.email);
    if (!address.ok) throw invalidInput(`reply_to.email: ${address.reason}`, 'reply_to');
    replyTo = { email: address.email, name: input.reply_to.name ?? null };
  }
  const isTemplated = input.substitutions != null || (input.recipients ?? []).some((recipient) => recipient.substitutions != null);
  if (isTemplated) {
    assertTemplateCompiles(input.subject, 'plain', 'subject');
    assertTemplateCompiles(input.text_content, 'plain', 'text_content');
    assertTemplateCompiles(input.html_content, 'html', 'html_content');
    assertTemplateCompiles(input.amp_content, 'html', 'amp_content');
  }
  return {
    isTemplated,
    control,
    structured: {
      subject: input.subject,
      text: input.text_content ?? null,
      html: input.html_content ?? null,
      amp: input.amp_content ?? null,
      replyTo,
      headers: custom,
      attachments: decodeAttachments(input.attachments, isBareContentIdInline),
    },
  };
}
