import { and, eq, isNull } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { signupForms } from '@/lib/db/schema';
import { presentSignupForm, type SignupFormRow } from './internal/present';
import { findConfirmationSending } from './internal/queries';
import { listSignupFormsQuerySchema } from './schemas';

/** The account's signup forms, newest first; deleted ones are left out. */
export const listSignupForms = defineVerb({
  scope: 'lists:read',
  input: listSignupFormsQuerySchema,
  async run({ db, principal, config }, query) {
    const accountId = principal.targetAccountId;
    return paginate(db, {
      table: signupForms,
      idColumn: signupForms.id,
      where: and(eq(signupForms.accountId, accountId), isNull(signupForms.deletedAt)),
      query,
      map: async (rows: SignupFormRow[]) => {
        const sending = rows.length ? await findConfirmationSending(db, accountId) : null;
        return rows.map((row) => presentSignupForm(row, config.publicUrl, sending?.email ?? null));
      },
    });
  },
});
