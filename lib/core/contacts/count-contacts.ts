import { count, eq, sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { contacts } from '@/lib/db/schema';

/** The total the Contacts page heads with ("1,234 contacts"), and how many unsubscribed everywhere; one count. */
export const countContacts = defineVerb({
  scope: 'contacts:read',
  input: z.object({}),
  async run({ db, principal }) {
    const [totals] = await db
      .select({ total: count(), unsubscribed: sql<number>`count(*) filter (where ${contacts.unsubscribed})` })
      .from(contacts)
      .where(eq(contacts.accountId, principal.targetAccountId));
    return {
      object: 'contact_totals' as const,
      contacts: Number(totals.total),
      unsubscribed: Number(totals.unsubscribed),
    };
  },
});

export type ContactTotals = Awaited<ReturnType<typeof countContacts>>;
