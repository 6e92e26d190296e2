import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { listV1KeysOfAccount } from './v1-keys';

export const listV1Keys = defineVerb({
  scope: 'api-keys:read',
  input: z.object({}),
  async run({ db, principal }) {
    return { object: 'list' as const, data: await listV1KeysOfAccount(db, principal.targetAccountId) };
  },
});
