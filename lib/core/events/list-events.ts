import { and, desc, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { events } from '@/lib/db/schema';

/** Operator verb (CLI): an account's recent events, newest first. */
export const listEvents = defineVerb({
  scope: 'system',
  input: z.object({
    account_id: z.string().uuid('invalid account_id'),
    type: z.string().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  }),
  async run({ db }, input) {
    const rows = await db
      .select()
      .from(events)
      .where(and(eq(events.accountId, input.account_id), input.type ? eq(events.type, input.type) : undefined))
      .orderBy(desc(events.id))
      .limit(input.limit);
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      created_at: row.createdAt.toISOString(),
      domain_id: row.domainId,
      message_id: row.messageId,
      payload: row.payload,
    }));
  },
});
