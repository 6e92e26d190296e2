import { invalidInput } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { getPartnerAccount, getSubAccountOfParent } from '@/lib/core/sub-accounts/internal/queries';

/**
 * The child whose keys a parent key manages: the parent must be a partner and the child one of its
 * own, not deleted. Everything after this works on the child's id.
 */
export async function getManagedChild(db: DbOrTx, parentId: string, subAccountId: string) {
  const parent = await getPartnerAccount(db, parentId);
  return getSubAccountOfParent(db, parent.id, subAccountId);
}

/** Sub accounts are one level deep, so a child key holding sub-account scopes could never use them. */
export function assertNoSubAccountScopes(scopes: readonly string[] | null | undefined): void {
  const nested = (scopes ?? []).filter(
    (scope) => scope.startsWith('sub-accounts:') || scope.startsWith('sub-account-api-keys:'),
  );
  if (nested.length > 0)
    throw invalidInput(
      `a sub account's key cannot hold sub-account scopes (${nested.join(', ')}): sub accounts have no sub accounts`,
      'scopes',
    );
}
