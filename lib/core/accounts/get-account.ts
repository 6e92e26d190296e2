import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { presentAccount } from './internal/present';
import { getAccountById } from './queries';

export const getAccount = defineVerb({
  scope: 'accounts:read',
  input: z.object({}),
  async run({ db, principal }) {
    return presentAccount(await getAccountById(db, principal.targetAccountId));
  },
});
