import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { attributeKeyPathSchema } from '@/lib/core/contacts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { contactAttributeDefinitions, contacts } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';

/**
 * Deletes a definition and the values contacts hold for it, in one transaction, as deleting a merge
 * field does elsewhere: a value without a definition could be read but never written or cleared.
 */
export const deleteAttributeDefinition = defineVerb({
  scope: 'contacts:delete',
  input: attributeKeyPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    return db.transaction(async (tx) => {
      const [row] = await tx
        .delete(contactAttributeDefinitions)
        .where(
          and(eq(contactAttributeDefinitions.accountId, accountId), eq(contactAttributeDefinitions.key, input.key)),
        )
        .returning({ key: contactAttributeDefinitions.key });
      if (!row) throw notFound(`attribute ${input.key} not found`);
      const clear = tx
        .update(contacts)
        .set({ attributes: sql`${contacts.attributes} - ${row.key}::text`, updatedAt: now() })
        .where(and(eq(contacts.accountId, accountId), isNotNull(sql`${contacts.attributes} -> ${row.key}`)))
        .returning({ id: contacts.id });
      // Counted in the database: an account may have many contacts holding the value.
      const result = await tx.execute(
        sql`with cleared as (${clear.getSQL()}) select count(*)::int as count from cleared`,
      );
      const count = Number((result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
      await recordAuditEvent(tx, ctx, {
        action: 'contact_attribute.delete',
        resource: { type: 'contact_attribute', id: row.key },
      });
      return {
        message: `attribute ${row.key} deleted; its value was removed from ${count} ${count === 1 ? 'contact' : 'contacts'}`,
      };
    });
  },
});
