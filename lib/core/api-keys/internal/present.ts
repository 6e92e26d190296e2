import type { apiKeys, apiKeyScopes } from '@/lib/db/schema';

type ApiKeyRow = typeof apiKeys.$inferSelect;
type ScopeRow = typeof apiKeyScopes.$inferSelect;

export function presentApiKey(row: ApiKeyRow, scopes: ScopeRow[]) {
  // `sandbox` is a Mailstead extension: AhaSend shows the mode only in its dashboard.
  return {
    object: 'api_key' as const,
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    account_id: row.accountId,
    label: row.label,
    public_key: row.publicKey,
    scopes: scopes
      .filter((scope) => scope.apiKeyId === row.id)
      .sort((a, b) => a.scope.localeCompare(b.scope))
      .map((scope) => ({
        id: scope.id,
        created_at: scope.createdAt.toISOString(),
        updated_at: scope.updatedAt.toISOString(),
        api_key_id: scope.apiKeyId,
        scope: scope.scope,
        domain_id: scope.domainId,
      })),
    ip_allow_list: row.ipAllowList,
    sandbox: row.isSandbox,
  };
}

export type ApiKeyObject = ReturnType<typeof presentApiKey>;
