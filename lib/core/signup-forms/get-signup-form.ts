import { defineVerb } from '@/lib/core/verb';
import { presentSignupForm } from './internal/present';
import { findConfirmationSending, getSignupFormInAccount } from './internal/queries';
import { signupFormPathSchema } from './schemas';

/** One signup form; a deleted one is 404. */
export const getSignupForm = defineVerb({
  scope: 'lists:read',
  input: signupFormPathSchema,
  async run({ db, principal, config }, input) {
    const row = await getSignupFormInAccount(db, principal.targetAccountId, input.form_id);
    const sending = await findConfirmationSending(db, principal.targetAccountId);
    return presentSignupForm(row, config.publicUrl, sending?.email ?? null);
  },
});
