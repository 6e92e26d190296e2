import { defineVerb } from '@/lib/core/verb';
import { contactPathSchema } from './schemas';
import { setContactSubscription } from './internal/set-contact-subscription';

/** Stops marketing mail to the contact without deleting it: reversible, with history (R3). */
export const unsubscribeContact = defineVerb({
  scope: 'contacts:write',
  input: contactPathSchema,
  run: ({ db, principal, now }, input) => setContactSubscription(db, principal, input.id_or_email, true, now()),
});
