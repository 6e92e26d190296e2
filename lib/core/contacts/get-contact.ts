import { defineVerb } from '@/lib/core/verb';
import { presentContact } from './internal/present';
import { getContactInAccount } from './internal/queries';
import { contactPathSchema } from './schemas';

/** One contact by id or by address (R5), attributes as stored (R4). */
export const getContact = defineVerb({
  scope: 'contacts:read',
  input: contactPathSchema,
  async run({ db, principal }, input) {
    return presentContact(await getContactInAccount(db, principal.targetAccountId, input.id_or_email));
  },
});
