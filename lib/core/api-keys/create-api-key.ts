import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import { DOMAIN_SCOPE_PREFIXES, STATIC_SCOPES, WILDCARD_SCOPE } from '@/lib/auth/scopes';
import type { Services } from '@/lib/core/context';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys, apiKeyScopes } from '@/lib/db/schema';
import { canonicalizeIpAllowList } from './internal/canonicalize-ip-allow-list';
import { generateApiKeySecret } from './internal/generate-api-key-secret';
import { presentApiKey } from './internal/present';
import { resolveScopes } from './internal/resolve-scopes';
import { createApiKeySchema } from './schemas';

/** Creates a key; the response is the only time its secret is shown. */
export const createApiKey = defineVerb({
  scope: 'api-keys:write',
  input: createApiKeySchema,
  async run(ctx, input) {
    return insertApiKey(ctx.db, ctx, ctx.principal.targetAccountId, input, { notify: ctx });
  },
});

/** Every scope the catalogue has: the wildcard, or each static scope and each `:all` form. */
const EVERY_SCOPE = [...STATIC_SCOPES, ...DOMAIN_SCOPE_PREFIXES.map((prefix) => `${prefix}:all`)];
export const holdsEveryScope = (scopes: readonly string[]) =>
  scopes.includes(WILDCARD_SCOPE) || EVERY_SCOPE.every((scope) => scopes.includes(scope));

/**
 * Shared with the sub-account key verbs and the operator CLI, which creates an account's first key
 * within `account.create` (and so records nothing of its own: `isRecorded: false`). With `notify`,
 * the account's administrators are mailed when the key holds every scope (not for the operator's
 * first key).
 */
export async function insertApiKey(
  db: DbOrTx,
  source: AuditSource,
  accountId: string,
  input: { label: string; scopes: readonly string[]; ip_allow_list?: readonly string[] | null; is_sandbox?: boolean },
  options: { isRecorded?: boolean; notify?: Pick<Services, 'config' | 'logger' | 'now'> & { requestId?: string } } = {},
) {
  const granter = source.principal;
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
    if (options.isRecorded !== false)
      await recordAuditEvent(tx, source, {
        action: 'api_key.create',
        resource: { type: 'api_key', id: key.id },
        accountId,
        changes: [],
      });
    if (options.notify && holdsEveryScope(scopeRows.map((row) => row.scope)))
      await notifyPeople(options.notify, tx, {
        kind: 'full_access_api_key_created',
        accountId,
        resource: { id: key.id, name: key.label },
        detail: granter.label ? `created by ${granter.label}` : null,
        requestId: options.notify.requestId,
      });
    return { ...presentApiKey(key, scopeRows), secret_key: secret };
  });
}
