import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { deleteV1KeyOfAccount } from './v1-keys';

export const deleteV1Key = defineVerb({
  scope: 'api-keys:delete',
  input: z.object({ key_id: z.string().uuid('invalid key_id') }),
  async run({ db, principal }, input) {
    return deleteV1KeyOfAccount(db, principal.targetAccountId, input.key_id);
  },
});
