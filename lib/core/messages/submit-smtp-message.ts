import type { VerbContext } from '@/lib/core/context';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { newId } from '@/lib/shared/ids';
import { invalidInput } from '@/lib/shared/errors';
import { acceptMessages, type AcceptedRecipient } from './internal/accept-messages';
import { assertWithinMonthlyCredit } from './internal/assert-within-monthly-credit';
import { splitHeaders } from './internal/message-headers';
import { formatRawMessage, headerValue, parseRawMessage, type RawMessage } from './internal/raw-message';
import { resolveSchedule } from './internal/resolve-schedule';
import { resolveSendOptions } from './internal/resolve-send-options';
import { resolveSender, senderDomainOf } from './internal/resolve-sender';
import { submissionSenders, type SubmissionSenders } from './internal/submission-senders';

export const submitSmtpMessageSchema = z.object({
  mail_from: z.string().max(320),
  recipients: z.array(z.string().max(320)).min(1).max(50),
  raw: z.string(),
});

type SubmitInput = z.output<typeof submitSmtpMessageSchema>;

// Removed from what is delivered: AhaSend-* control headers once honoured, and Bcc (envelope only).
const isStripped = (name: string) => name.toLowerCase().startsWith('ahasend-') || name.toLowerCase() === 'bcc';

function parseSubmission(raw: string): { message: RawMessage; senders: SubmissionSenders } {
  const message = parseRawMessage(raw);
  if (!message) throw invalidInput('the message header is malformed', 'message');
  return { message, senders: submissionSenders(message) };
}

/** Every domain the submission sends as: each From and Sender mailbox's, and the envelope sender's. */
function sendingDomains(input: SubmitInput): string[] {
  const { senders } = parseSubmission(input.raw);
  return [...new Set([...senders.from, ...senders.sender, input.mail_from].flatMap(senderDomainOf))];
}

/**
 * A message submitted over SMTP by an authenticated credential: every From and Sender mailbox and the
 * envelope sender must be within the credential's scope (its principal holds `messages:send:{d}` for
 * each of its domains, or `:all`), each header domain the account's, verified and unpaused. The
 * `AhaSend-*` headers are honoured and stripped, then the bytes go to the same acceptance as the API.
 */
export const submitSmtpMessage = defineVerb({
  scope: 'messages:send:{domain}',
  input: submitSmtpMessageSchema,
  domains: (_ctx, input) => sendingDomains(input),
  async run(ctx: VerbContext, input: SubmitInput) {
    const now = ctx.now();
    const { message, senders } = parseSubmission(input.raw);
    const sender = await resolveSender(ctx.db, ctx.principal.targetAccountId, senders.from[0], 'from');
    // The client decides how many mailboxes there are: each domain is looked up once, in header order.
    const checkedDomains = new Set([sender.domain.domain]);
    for (const [email, field] of [
      ...senders.from.slice(1).map((email) => [email, 'from'] as const),
      ...senders.sender.map((email) => [email, 'sender'] as const),
    ]) {
      const address = normalizeEmailAddress(email);
      if (address.ok && checkedDomains.has(address.domain)) continue;
      const other = await resolveSender(ctx.db, ctx.principal.targetAccountId, email, field);
      checkedDomains.add(other.domain.domain);
    }
    const controlFields = Object.fromEntries(
      message.headers
        .filter((header) => header.name.toLowerCase().startsWith('ahasend-'))
        .map((header) => [header.name, header.value]),
    );
    const { control } = splitHeaders(controlFields, 'headers');
    const kept: RawMessage = { ...message, headers: message.headers.filter((header) => !isStripped(header.name)) };

    const added: [string, string][] = [];
    let messageIdHeader = headerValue(kept, 'message-id');
    if (!messageIdHeader) {
      messageIdHeader = `<${newId()}@${sender.domain.domain}>`;
      added.push(['Message-ID', messageIdHeader]);
    }
    if (!headerValue(kept, 'date')) added.push(['Date', now.toUTCString().replace('GMT', '+0000')]);

    const recipients: AcceptedRecipient[] = input.recipients.map((email) => {
      const address = normalizeEmailAddress(email);
      if (!address.ok) throw invalidInput(`recipient ${email}: ${address.reason}`, 'recipients');
      return { email: address.email, domain: address.domain, name: null, substitutions: null };
    });
    await assertWithinMonthlyCredit(ctx.db, sender.account, recipients.length, now, ctx);
    const options = resolveSendOptions(
      {},
      { principal: ctx.principal, control, account: sender.account, schedule: resolveSchedule(null, now) },
    );
    const rows = await acceptMessages(ctx.db, {
      accountId: ctx.principal.targetAccountId,
      sender: { email: sender.email, domainId: sender.domain.id, domain: sender.domain.domain },
      subject: headerValue(kept, 'subject') ?? '',
      content: { kind: 'raw', raw: formatRawMessage(kept, added) },
      recipients,
      options: { ...options, isOneMessage: true, messageIdHeader },
      now,
    });
    return { messageIds: rows.map((row) => row.id), messageIdHeader };
  },
});
