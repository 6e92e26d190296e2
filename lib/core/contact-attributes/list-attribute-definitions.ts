import { asc, eq } from 'drizzle-orm';
import { presentAttributeDefinition } from '@/lib/core/contacts/internal/present';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { contactAttributeDefinitions } from '@/lib/db/schema';

/** Every attribute definition of the account (at most 100, so one page), by key. */
export const listAttributeDefinitions = defineVerb({
  scope: 'contacts:read',
  input: z.object({}),
  async run({ db, principal }) {
    const rows = await db
      .select()
      .from(contactAttributeDefinitions)
      .where(eq(contactAttributeDefinitions.accountId, principal.targetAccountId))
      .orderBy(asc(contactAttributeDefinitions.key));
    return { object: 'list' as const, data: rows.map(presentAttributeDefinition) };
  },
});
