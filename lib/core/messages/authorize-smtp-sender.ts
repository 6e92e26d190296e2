import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { senderDomainOf } from './internal/resolve-sender';

/**
 * The envelope sender alone (SMTP MAIL FROM), so that a credential scoped to other domains is refused
 * before any recipient or data is sent. The From header is checked again with the message.
 */
export const authorizeSmtpSender = defineVerb({
  scope: 'messages:send:{domain}',
  input: z.object({ mail_from: z.string().max(320) }),
  // A null reverse-path (<>) names no domain: only the From header will be checked.
  domains: (_ctx, input) => (input.mail_from === '' ? [] : senderDomainOf(input.mail_from)),
  async run() {
    return { isAllowed: true };
  },
});
