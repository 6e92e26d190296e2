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
  async run({ db, principal, now }, input) {
    const accountId = principal.targetAccountId;
    const [existing] = await db
      .select({ count: count() })
      .from(contactAttributeDefinitions)
      .where(eq(contactAttributeDefinitions.accountId, accountId));
    if (Number(existing?.count ?? 0) >= MAX_ATTRIBUTE_DEFINITIONS)
      throw conflict(`an account has at most ${MAX_ATTRIBUTE_DEFINITIONS} attributes`, 'key');
    const at = now();
    const [row] = await db
      .insert(contactAttributeDefinitions)
      .values({ accountId, key: input.key, type: input.type, label: input.label || null, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(`attribute ${input.key} already exists`, 'key');
    return presentAttributeDefinition(row);
  },
});
