import { screenRecipient, type ReputationShield } from './reputation-shield';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import type { AcceptedRecipient } from './internal/accept-messages';
import { acceptFromSender } from './internal';
import { senderDomainOf } from './internal/resolve-sender';
import { addressSchema, attachmentSchema } from './schemas';

/** The legacy v1 body: fields under `content`, `text_body`/`html_body`, no templating or scheduling. */
export const sendV1MessageSchema = z.object({
  from: addressSchema,
  recipients: z
    .array(addressSchema)
    .min(1, 'must hold at least one recipient')
    .max(100, 'must hold at most 100 recipients'),
  content: z.object({
    subject: z.string({ error: 'is required' }).max(2000),
    text_body: z.string().nullish(),
    html_body: z.string().nullish(),
    attachments: z.array(attachmentSchema).max(100).nullish(),
    reply_to: addressSchema.nullish(),
    headers: z.record(z.string().max(200), z.string().max(4000)).nullish(),
  }),
});

/**
 * POST /v1/email/send, mapped onto the same acceptance as v2. Answers counts: recipients that cannot
 * be accepted are counted and explained, not refused with the whole request.
 */
export const sendV1Message = defineVerb({
  scope: 'messages:send:{domain}',
  input: sendV1MessageSchema,
  domains: (_ctx, input) => senderDomainOf(input.from.email),
  async run(ctx, input) {
    const accepted: AcceptedRecipient[] = [];
    const failed: { email: string; reason: string }[] = [];
    const screen = (shield: ReputationShield) => {
      for (const recipient of input.recipients) {
        const address = screenRecipient(recipient.email, shield);
        if (address.ok)
          accepted.push({
            email: address.email,
            domain: address.domain,
            name: recipient.name ?? null,
            substitutions: null,
          });
        else failed.push({ email: recipient.email, reason: address.reason });
      }
      return accepted;
    };
    const { content } = input;
    await acceptFromSender(ctx, {
      from: input.from,
      content: {
        subject: content.subject,
        text_content: content.text_body,
        html_content: content.html_body,
        attachments: content.attachments,
        reply_to: content.reply_to,
        headers: content.headers,
      },
      isBareContentIdInline: true,
      options: {},
      recipients: screen,
    });
    return {
      success_count: accepted.length,
      fail_count: failed.length,
      failed_recipients: failed.map((failure) => failure.email),
      errors: failed.map((failure) => `${failure.email}: ${failure.reason}`),
    };
  },
});
