import { and, asc, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { events } from '@/lib/db/schema';
import { getMessageInAccount } from './internal/queries';
import { messageIdParamSchema } from './schemas';

/** A message's events, oldest first: the timeline of its page in the dashboard. */
export const listMessageEvents = defineVerb({
  scope: 'messages:read:{domain}',
  input: messageIdParamSchema,
  domains: async ({ db, principal }, input) =>
    [
      (await getMessageInAccount(db, principal.targetAccountId, input.message_id).catch(() => null))?.senderDomain ??
        '',
    ].filter(Boolean),
  async run({ db, principal }, input) {
    const message = await getMessageInAccount(db, principal.targetAccountId, input.message_id);
    const rows = await db
      .select()
      .from(events)
      .where(and(eq(events.accountId, principal.targetAccountId), eq(events.messageId, message.id)))
      .orderBy(asc(events.id));
    return {
      object: 'list' as const,
      data: rows.map((row) => ({
        id: row.id,
        type: row.type,
        created_at: row.createdAt.toISOString(),
        payload: row.payload,
      })),
    };
  },
});
