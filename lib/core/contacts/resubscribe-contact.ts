import { defineVerb } from '@/lib/core/verb';
import { contactPathSchema } from './schemas';
import { setContactSubscription } from './internal/set-contact-subscription';

/** Reverses an unsubscribe; the history keeps both (R3). List memberships are not changed (R7). */
export const resubscribeContact = defineVerb({
  scope: 'contacts:write',
  input: contactPathSchema,
  run: (ctx, input) => setContactSubscription(ctx.db, ctx, input.id_or_email, false, ctx.now()),
});
