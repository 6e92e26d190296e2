import { and, eq, isNull } from 'drizzle-orm';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { signupForms } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { signupFormPathSchema } from './schemas';

/**
 * Deletes a form: its page and POST answer 404 from now on and its unused confirmation links stop
 * working. Contacts and memberships it made stay.
 */
export const deleteSignupForm = defineVerb({
  scope: 'lists:delete',
  input: signupFormPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    if (!isUuid(input.form_id)) throw notFound('signup form not found');
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(signupForms)
        .set({ deletedAt: at, updatedAt: at })
        .where(
          and(
            eq(signupForms.accountId, principal.targetAccountId),
            eq(signupForms.id, input.form_id.toLowerCase()),
            isNull(signupForms.deletedAt),
          ),
        )
        .returning({ id: signupForms.id, name: signupForms.name });
      if (!changed) throw notFound('signup form not found');
      await recordAuditEvent(tx, ctx, {
        action: 'signup_form.delete',
        resource: { type: 'signup_form', id: changed.id },
      });
      return changed;
    });
    return { message: `signup form ${row.id} (${row.name}) deleted` };
  },
});
