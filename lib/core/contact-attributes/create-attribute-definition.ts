import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { count, eq } from 'drizzle-orm';
import { presentAttributeDefinition } from '@/lib/core/contacts/internal/present';
import { createAttributeDefinitionSchema, MAX_ATTRIBUTE_DEFINITIONS } from '@/lib/core/contacts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { contactAttributeDefinitions } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';

/**
 * Defines an attribute key contacts may hold (R4; dashboard only). A key the account has is a 409.
 * Values already stored under the key by an earlier definition stay as they are.
 */
export const createAttributeDefinition = defineVerb({
  scope: 'contacts:write',
  input: createAttributeDefinitionSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const [existing] = await db
      .select({ count: count() })
      .from(contactAttributeDefinitions)
      .where(eq(contactAttributeDefinitions.accountId, accountId));
    if (Number(existing?.count ?? 0) >= MAX_ATTRIBUTE_DEFINITIONS)
      throw conflict(`an account has at most ${MAX_ATTRIBUTE_DEFINITIONS} attributes`, 'key');
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(contactAttributeDefinitions)
        .values({
          accountId,
          key: input.key,
          type: input.type,
          label: input.label || null,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing()
        .returning();
      if (!changed) throw conflict(`attribute ${input.key} already exists`, 'key');
      await recordAuditEvent(tx, ctx, {
        action: 'contact_attribute.create',
        resource: { type: 'contact_attribute', id: changed.key },
      });
      return changed;
    });
    return presentAttributeDefinition(row);
  },
});
