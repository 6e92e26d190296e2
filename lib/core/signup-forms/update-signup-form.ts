import { and, eq, isNull } from 'drizzle-orm';
import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { signupForms } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { presentSignupForm } from './internal/present';
import { checkFormFields, checkFormLists, checkRedirectUrl, findConfirmationSending } from './internal/queries';
import { signupFormPathSchema, updateSignupFormSchema } from './schemas';

/** Partial update: omitted fields stay; null or "" restores the default confirmation subject and text, or drops the redirect. */
export const updateSignupForm = defineVerb({
  scope: 'lists:write',
  input: updateSignupFormSchema.extend(signupFormPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now, config } = ctx;
    const accountId = principal.targetAccountId;
    if (!isUuid(input.form_id)) throw notFound('signup form not found');
    const listIds = input.list_ids ? await checkFormLists(db, accountId, input.list_ids) : undefined;
    const fields = input.fields ? await checkFormFields(db, accountId, input.fields) : undefined;
    const redirectUrl = input.redirect_url !== undefined ? checkRedirectUrl(input.redirect_url) : undefined;
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(signupForms)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(listIds ? { listIds } : {}),
          ...(input.double_opt_in !== undefined ? { isDoubleOptIn: input.double_opt_in } : {}),
          ...(fields ? { fields } : {}),
          ...(input.confirmation_subject !== undefined
            ? { confirmationSubject: input.confirmation_subject || null }
            : {}),
          ...(input.confirmation_text !== undefined ? { confirmationText: input.confirmation_text || null } : {}),
          ...(redirectUrl !== undefined ? { redirectUrl } : {}),
          updatedAt: now(),
        })
        .where(
          and(
            eq(signupForms.accountId, accountId),
            eq(signupForms.id, input.form_id.toLowerCase()),
            isNull(signupForms.deletedAt),
          ),
        )
        .returning();
      if (!changed) throw notFound('signup form not found');
      await recordAuditEvent(tx, ctx, {
        action: 'signup_form.update',
        resource: { type: 'signup_form', id: changed.id },
        changes: givenFields(input, ['form_id']),
      });
      return changed;
    });
    const sending = await findConfirmationSending(db, accountId);
    return presentSignupForm(row, config.publicUrl, sending?.email ?? null);
  },
});
