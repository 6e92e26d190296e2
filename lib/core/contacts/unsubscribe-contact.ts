import { defineVerb } from '@/lib/core/verb';
import { contactPathSchema } from './schemas';
import { setContactSubscription } from './internal/set-contact-subscription';

/** Stops marketing mail to the contact without deleting it: reversible, with history (R3). */
export const unsubscribeContact = defineVerb({
  scope: 'contacts:write',
  input: contactPathSchema,
  run: (ctx, input) => setContactSubscription(ctx.db, ctx, input.id_or_email, true, ctx.now()),
});
