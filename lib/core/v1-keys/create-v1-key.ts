import { defineVerb } from '@/lib/core/verb';
import { createV1KeySchema } from './schemas';
import { insertV1Key } from './v1-keys';

/** A key for the legacy `POST /v1/email/send`; it sends from any domain, so it needs the power to make keys. */
export const createV1Key = defineVerb({
  scope: 'api-keys:write',
  input: createV1KeySchema,
  async run({ db, principal }, input) {
    return insertV1Key(db, principal.targetAccountId, input.label);
  },
});
