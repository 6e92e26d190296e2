import { defineVerb } from '@/lib/core/verb';
import { unsafeGetUsableReset } from './internal/reset-tokens';
import { inspectPasswordResetSchema } from './schemas';

/** POST /internal/password-resets/inspect: whose link this is while it works, so a spent one says so at once. */
export const inspectPasswordReset = defineVerb({
  scope: 'any',
  input: inspectPasswordResetSchema,
  async run({ db, now }, input) {
    const { reset, email } = await unsafeGetUsableReset(db, input.token, now(), { forUpdate: false });
    return { email, expires_at: reset.expiresAt.toISOString() };
  },
});
