'use client';

import { useCurrentUser } from '@/lib/client/queries';
import { mayOpen } from './sections';

/** What the signed-in role may do in this account; cosmetic (hides buttons), the API decides. */
export function useAccountScopes(accountId: string) {
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const isLoaded = Boolean(me.data);
  return { isLoaded, can: (scope: string) => isLoaded && mayOpen(scopes, scope) };
}
