import { desc, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { v1Keys } from '@/lib/db/schema';
import { presentV1Key } from './internal/present';

export const listV1Keys = defineVerb({
  scope: 'api-keys:read',
  input: z.object({}),
  async run({ db, principal }) {
    const rows = await db
      .select()
      .from(v1Keys)
      .where(eq(v1Keys.accountId, principal.targetAccountId))
      .orderBy(desc(v1Keys.id));
    return { object: 'list' as const, data: rows.map(presentV1Key) };
  },
});
