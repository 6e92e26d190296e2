import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { invalidInput } from '@/lib/shared/errors';
import { defineVerb } from '@/lib/core/verb';
import { messages } from '@/lib/db/schema';
import { getMessageInAccount } from './internal/queries';
import { messageIdParamSchema } from './schemas';

/** Only a scheduled message that no attempt has touched can be cancelled. */
export const cancelMessage = defineVerb({
  scope: 'messages:cancel:{domain}',
  input: messageIdParamSchema,
  domains: async ({ db, principal }, input) =>
    [
      (await getMessageInAccount(db, principal.targetAccountId, input.message_id).catch(() => null))?.senderDomain ??
        '',
    ].filter(Boolean),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const row = await getMessageInAccount(db, principal.targetAccountId, input.message_id);
    const at = now();
    await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(messages)
        .set({ status: 'cancelled', nextAttemptAt: null, updatedAt: at })
        .where(
          and(
            eq(messages.accountId, principal.targetAccountId),
            eq(messages.id, row.id),
            eq(messages.status, 'scheduled'),
            or(isNull(messages.leaseUntil), lt(messages.leaseUntil, at)),
          ),
        )
        .returning({ id: messages.id });
      // 400, not 409: the contract lists no conflict for cancel, and the request itself cannot succeed.
      if (!changed) throw invalidInput(`only scheduled messages can be cancelled; this one is ${row.status}`);
      await recordAuditEvent(tx, ctx, {
        action: 'message.cancel',
        resource: { type: 'message', id: row.messageIdHeader },
      });
      return changed;
    });
    return { message: `message ${row.messageIdHeader} cancelled` };
  },
});
