import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { accounts } from '@/lib/db/schema';
import { presentAccount } from './internal/present';
import { getAccountById } from './queries';
import { updateAccountSchema } from './schemas';

/** Partial update: only the fields given change. Returns the updated account. */
export const updateAccount = defineVerb({
  scope: 'accounts:write',
  input: updateAccountSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const current = await getAccountById(db, principal.targetAccountId);
    const changes = {
      name: input.name,
      website: input.website,
      about: input.about,
      trackOpens: input.track_opens,
      trackClicks: input.track_clicks,
      rejectBadRecipients: input.reject_bad_recipients,
      rejectMistypedRecipients: input.reject_mistyped_recipients,
      messageMetadataRetention: input.message_metadata_retention,
      messageDataRetention: input.message_data_retention,
    };
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(given).length === 0) return presentAccount(current);
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(accounts)
        .set({ ...given, updatedAt: now() })
        .where(eq(accounts.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'account.update',
        resource: { type: 'account', id: current.id },
        changes: givenFields(input, []),
      });
      return updated;
    });
    return presentAccount(row);
  },
});
