import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { presentAttributeDefinition } from '@/lib/core/contacts/internal/present';
import { attributeKeyPathSchema, updateAttributeDefinitionSchema } from '@/lib/core/contacts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { contactAttributeDefinitions } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';
import { countContactsWithAttribute, getAttributeDefinitionInAccount } from './internal/queries';

/**
 * Changes a definition's label, or its type while no contact holds a value for it: stored values
 * are never rewritten behind the user's back, so a type change with values held is 409 saying how
 * many contacts hold one (delete the attribute, which clears them, or clear them first).
 */
export const updateAttributeDefinition = defineVerb({
  scope: 'contacts:write',
  input: updateAttributeDefinitionSchema.extend(attributeKeyPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    return db.transaction(async (tx) => {
      const current = await getAttributeDefinitionInAccount(tx, accountId, input.key);
      if (input.type !== undefined && input.type !== current.type) {
        const holding = await countContactsWithAttribute(tx, accountId, current.key);
        if (holding > 0) {
          throw conflict(
            `${holding} ${holding === 1 ? 'contact holds a value' : 'contacts hold values'} of type ${current.type} for ${current.key}: the type cannot change while values exist`,
            'type',
          );
        }
      }
      const [row] = await tx
        .update(contactAttributeDefinitions)
        .set({
          ...(input.type !== undefined ? { type: input.type } : {}),
          ...(input.label !== undefined ? { label: input.label || null } : {}),
          updatedAt: now(),
        })
        .where(
          and(eq(contactAttributeDefinitions.accountId, accountId), eq(contactAttributeDefinitions.key, current.key)),
        )
        .returning();
      if (!row) throw notFound(`attribute ${input.key} not found`);
      await recordAuditEvent(tx, ctx, {
        action: 'contact_attribute.update',
        resource: { type: 'contact_attribute', id: row.key },
        changes: givenFields(input, ['key']),
      });
      return presentAttributeDefinition(row);
    });
  },
});
