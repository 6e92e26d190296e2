import { invalidInput } from '@/lib/shared/errors';
import { resolveTemplateContent } from '@/lib/core/templates/internal/resolve-template-content';
import { defineVerb } from '@/lib/core/verb';
import type { VerbContext } from '@/lib/core/context';
import type { AcceptedRecipient } from './internal/accept-messages';
import { acceptFromSender } from './internal';
import { screenRecipient, type ReputationShield } from './reputation-shield';
import { senderDomainOf } from './internal/resolve-sender';
import { sendMessageSchema, type SendMessageInput } from './schemas';

/**
 * POST /v2/accounts/{a}/messages: one message per recipient, each with its own substitutions.
 * Recipients that cannot be accepted (a bad address, or a domain the account's Reputation Shield
 * refuses) are reported in the 202 beside those that were.
 */
export const sendMessage = defineVerb({
  scope: 'messages:send:{domain}',
  input: sendMessageSchema,
  domains: (_ctx, input) => senderDomainOf(input.from.email),
  async run(ctx, input) {
    const results: { email: string; name: string; error: string | null }[] = [];
    const screen = (shield: ReputationShield) => {
      const accepted: AcceptedRecipient[] = [];
      for (const recipient of input.recipients) {
        const address = screenRecipient(recipient.email, shield);
        results.push({
          email: address.ok ? address.email : recipient.email,
          name: recipient.name ?? '',
          error: address.ok ? null : address.reason,
        });
        if (address.ok)
          accepted.push({
            email: address.email,
            domain: address.domain,
            name: recipient.name ?? null,
            substitutions: recipient.substitutions ?? null,
          });
      }
      return accepted;
    };
    const { rows, schedule } = await acceptFromSender(ctx, {
      from: input.from,
      content: await withTemplateContent(ctx, input),
      options: input,
      schedule: input.schedule,
      recipients: screen,
      noRecipients: () =>
        invalidInput(
          `recipients: no recipient could be accepted (${results.map((result) => `${result.email}: ${result.error}`).join('; ')})`,
          'recipients',
        ),
    });

    let next = 0;
    const echo =
      input.schedule?.first_attempt || input.schedule?.expires
        ? {
            schedule: {
              first_attempt: schedule.firstAttemptAt.toISOString(),
              expires: schedule.expiresAt.toISOString(),
            },
          }
        : {};
    return {
      object: 'list' as const,
      data: results.map((result) => {
        if (result.error)
          return {
            object: 'message' as const,
            id: null,
            recipient: { email: result.email, name: result.name },
            status: 'error' as const,
            error: result.error,
          };
        const row = rows[next++];
        return {
          object: 'message' as const,
          id: row.messageIdHeader,
          recipient: { email: result.email, name: result.name },
          status: schedule.isScheduled ? ('scheduled' as const) : ('queued' as const),
          error: null,
          ...echo,
        };
      }),
    };
  },
});

/**
 * The content to send: the body's own, or with `template_id` the published version's (the schema
 * refuses both at once). A template is always rendered, with no substitutions as with empty ones,
 * so that its placeholders never reach a recipient as written.
 */
async function withTemplateContent(ctx: VerbContext, input: SendMessageInput) {
  if (input.template_id == null) return { ...input, subject: input.subject ?? '' };
  const template = await resolveTemplateContent(
    ctx.db,
    ctx.principal.targetAccountId,
    input.template_id,
    input.template_version,
  );
  return { ...input, ...template, substitutions: input.substitutions ?? {} };
}
