import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { signupForms } from '@/lib/db/schema';
import { presentSignupForm } from './internal/present';
import { checkFormFields, checkFormLists, checkRedirectUrl, findConfirmationSending } from './internal/queries';
import { createSignupFormSchema } from './schemas';

/** A new signup form for live lists of the account; double opt-in unless told otherwise. */
export const createSignupForm = defineVerb({
  scope: 'lists:write',
  input: createSignupFormSchema,
  async run(ctx, input) {
    const { db, principal, now, config } = ctx;
    const accountId = principal.targetAccountId;
    const listIds = await checkFormLists(db, accountId, input.list_ids);
    const fields = await checkFormFields(db, accountId, input.fields ?? []);
    const redirectUrl = checkRedirectUrl(input.redirect_url);
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(signupForms)
        .values({
          accountId,
          name: input.name,
          listIds,
          isDoubleOptIn: input.double_opt_in ?? true,
          fields,
          confirmationSubject: input.confirmation_subject || null,
          confirmationText: input.confirmation_text || null,
          redirectUrl,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'signup_form.create',
        resource: { type: 'signup_form', id: created!.id },
      });
      return created!;
    });
    const sending = await findConfirmationSending(db, accountId);
    return presentSignupForm(row, config.publicUrl, sending?.email ?? null);
  },
});
