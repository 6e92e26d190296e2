import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { v1Keys } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';

export const deleteV1Key = defineVerb({
  scope: 'api-keys:delete',
  input: z.object({ key_id: z.string().uuid('invalid key_id') }),
  async run(ctx, input) {
    const { db, principal } = ctx;
    await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(v1Keys)
        .where(and(eq(v1Keys.accountId, principal.targetAccountId), eq(v1Keys.id, input.key_id)))
        .returning({ id: v1Keys.id });
      if (!deleted.length) throw notFound('v1 key not found');
      await recordAuditEvent(tx, ctx, { action: 'v1_key.delete', resource: { type: 'v1_key', id: deleted[0].id } });
    });
    return { message: `v1 key ${input.key_id} deleted` };
  },
});
