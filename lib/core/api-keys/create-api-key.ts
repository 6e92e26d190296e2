import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys, apiKeyScopes } from '@/lib/db/schema';
import type { Principal } from '@/lib/auth/principal';
import { canonicalizeIpAllowList } from './internal/canonicalize-ip-allow-list';
import { generateApiKeySecret } from './internal/generate-api-key-secret';
import { presentApiKey } from './internal/present';
import { resolveScopes } from './internal/resolve-scopes';
import { createApiKeySchema } from './schemas';

/** Creates a key; the response is the only time its secret is shown. */
export const createApiKey = defineVerb({
  scope: 'api-keys:write',
  input: createApiKeySchema,
  async run({ db, principal }, input) {
    return insertApiKey(db, principal, principal.targetAccountId, input);
  },
});

/** Shared with the operator CLI, which creates an account's first key. */
export async function insertApiKey(
  db: DbOrTx,
  granter: Principal,
  accountId: string,
  input: { label: string; scopes: readonly string[]; ip_allow_list?: readonly string[] | null; is_sandbox?: boolean },
) {
  const ipAllowList = canonicalizeIpAllowList(input.ip_allow_list ?? []);
  const scopes = await resolveScopes(db, accountId, granter, input.scopes);
  const { secret, secretHash, publicKey } = generateApiKeySecret();
  return db.transaction(async (tx) => {
    const [key] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        label: input.label,
        publicKey,
        secretHash,
        ipAllowList,
        isSandbox: input.is_sandbox ?? false,
      })
      .returning();
    const scopeRows = await tx
      .insert(apiKeyScopes)
      .values(scopes.map((scope) => ({ apiKeyId: key.id, scope: scope.scope, domainId: scope.domainId })))
      .returning();
    return { ...presentApiKey(key, scopeRows), secret_key: secret };
  });
}
