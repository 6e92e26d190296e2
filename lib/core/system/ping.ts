import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';

/** Any valid key may ping, whatever its scopes: it exists to test authentication. */
export const ping = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run() {
    return { message: 'pong' };
  },
});
