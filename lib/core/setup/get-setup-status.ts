import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { hasAnyAccount } from './setup-token';

export const getSetupStatus = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db }) {
    return { needs_setup: !(await hasAnyAccount(db)) };
  },
});
