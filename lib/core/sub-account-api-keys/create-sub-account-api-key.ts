import { insertApiKey } from '@/lib/core/api-keys/create-api-key';
import { createApiKeySchema } from '@/lib/core/api-keys/schemas';
import { subAccountIdSchema } from '@/lib/core/sub-accounts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { assertNoSubAccountScopes, getManagedChild } from './internal/queries';

/**
 * A key of the child, made by a parent key: scopes are checked against the child's domains, and the
 * parent key can only grant scopes it holds itself. The secret is shown once (and in the 5-minute
 * encrypted replay of the same Idempotency-Key).
 */
export const createSubAccountApiKey = defineVerb({
  scope: 'sub-account-api-keys:write',
  input: createApiKeySchema.extend({ sub_account_id: subAccountIdSchema }),
  async run(ctx, input) {
    const child = await getManagedChild(ctx.db, ctx.principal.targetAccountId, input.sub_account_id);
    assertNoSubAccountScopes(input.scopes);
    return insertApiKey(ctx.db, ctx, child.id, input, { notify: ctx });
  },
});
