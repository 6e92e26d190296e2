import { invalidInput } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { acceptFromSender } from './internal';
import { loadReputationShield, screenRecipient } from './reputation-shield';
import { senderDomainOf } from './internal/resolve-sender';
import { addressSchema, messageOptionsShape } from './schemas';

const addressList = z
  .array(addressSchema)
  .min(1, 'must hold at least one address')
  .max(50, 'must hold at most 50 addresses');

export const sendConversationSchema = z
  .object({
    from: addressSchema,
    to: addressList,
    cc: addressList.nullish(),
    bcc: addressList.nullish(),
    ...messageOptionsShape,
  })
  .openapi('CreateConversationMessageRequest');

/**
 * POST /v2/accounts/{a}/messages/conversation: one message, person to person, with To and Cc
 * headers as given and Bcc recipients that no header ever names. No templating.
 */
export const sendConversation = defineVerb({
  scope: 'messages:send:{domain}',
  input: sendConversationSchema,
  domains: (_ctx, input) => senderDomainOf(input.from.email),
  async run(ctx, input) {
    const total = input.to.length + (input.cc?.length ?? 0) + (input.bcc?.length ?? 0);
    if (total > 50) throw invalidInput(`to, cc and bcc together must hold at most 50 addresses (got ${total})`, 'to');
    const shield = await loadReputationShield(ctx.db, ctx.principal.targetAccountId);
    // One message to everyone: a refused recipient refuses the request, as a bad address does.
    const normalize = (list: { email: string; name?: string | null }[] | null | undefined, field: string) =>
      (list ?? []).map((entry, index) => {
        const address = screenRecipient(entry.email, shield);
        if (!address.ok) throw invalidInput(`${field}.${index}.email: ${address.reason}`, field);
        return { email: address.email, domain: address.domain, name: entry.name ?? null };
      });
    const to = normalize(input.to, 'to');
    const cc = normalize(input.cc, 'cc');
    const bcc = normalize(input.bcc, 'bcc');
    const envelope = [...to, ...cc, ...bcc].filter(
      (entry, index, all) => all.findIndex((other) => other.email === entry.email) === index,
    );
    const headerAddress = ({ email, name }: { email: string; name: string | null }) => ({ email, name });
    const { rows, schedule } = await acceptFromSender(ctx, {
      from: input.from,
      // No substitutions here: conversation content is never a template.
      content: { ...input, substitutions: null, recipients: [] },
      options: input,
      schedule: input.schedule,
      recipients: envelope.map((entry) => ({ ...entry, substitutions: null })),
      conversation: { to: to.map(headerAddress), cc: cc.map(headerAddress) },
    });
    return {
      object: 'list' as const,
      data: rows.map((row) => ({
        object: 'message' as const,
        id: row.messageIdHeader,
        recipient: { email: row.recipient, name: row.recipientName ?? '' },
        status: schedule.isScheduled ? ('scheduled' as const) : ('queued' as const),
        error: null,
      })),
    };
  },
});
