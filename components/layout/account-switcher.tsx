'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useCurrentUser } from '@/lib/client/queries';
import type { CurrentUser } from '@/lib/client/types';

type SwitchableAccount = CurrentUser['accounts'][number];
type Group =
  { parent: SwitchableAccount; children: SwitchableAccount[] } | { parent: null; children: [SwitchableAccount] };

/** A partner with its sub accounts under it, in the order of the list; any other account alone. */
function groupAccounts(accounts: SwitchableAccount[]): Group[] {
  const groups: Group[] = [];
  const byParent = new Map<string, SwitchableAccount[]>();
  for (const account of accounts) {
    const parentId = account.parent_account?.id;
    if (parentId && accounts.some((candidate) => candidate.id === parentId)) {
      byParent.set(parentId, [...(byParent.get(parentId) ?? []), account]);
    }
  }
  for (const account of accounts) {
    const children = byParent.get(account.id);
    if (children) groups.push({ parent: account, children });
    else if (!(account.parent_account && byParent.has(account.parent_account.id)))
      groups.push({ parent: null, children: [account] });
  }
  return groups;
}

const stateOf = (account: SwitchableAccount) =>
  account.status === 'active' ? '' : `, ${account.status.replace('-', ' ')}`;

/** For people who reach several accounts: the same page, in another account; a partner's sub accounts under it. */
export function AccountSwitcher({ accountId }: { accountId: string }) {
  const me = useCurrentUser();
  const router = useRouter();
  const pathname = usePathname();
  const accounts = me.data?.accounts ?? [];
  const current = accounts.find((account) => account.id === accountId);
  const subAccountNote = current?.parent_account ? (
    <span className="hidden shrink-0 text-xs text-slate-600 sm:inline" data-testid="sub-account-of">
      Sub account of {current.parent_account.name}
    </span>
  ) : null;
  if (accounts.length <= 1) {
    return (
      <span className="flex min-w-0 items-center gap-2">
        <span className="truncate text-sm font-medium text-slate-800">{current?.name ?? ''}</span>
        {subAccountNote}
      </span>
    );
  }
  return (
    <span className="flex min-w-0 items-center gap-2">
      <label className="flex min-w-0 items-center gap-2 text-sm">
        <span className="sr-only">Account</span>
        <select
          value={accountId}
          onChange={(event) => router.push(pathname.replace(`/${accountId}`, `/${event.target.value}`))}
          className="min-w-0 max-w-full truncate rounded-md border-0 py-1.5 pl-3 pr-8 text-sm font-medium ring-1 ring-inset ring-slate-300"
          aria-label="Switch account"
        >
          {groupAccounts(accounts).map((group) =>
            group.parent ? (
              <optgroup key={group.parent.id} label={`${group.parent.name} and its sub accounts`}>
                <option
                  value={group.parent.id}
                >{`${group.parent.name} (${group.parent.role}${stateOf(group.parent)})`}</option>
                {group.children.map((child) => (
                  <option key={child.id} value={child.id}>
                    {`↳ ${child.name} (sub account, ${child.role}${stateOf(child)})`}
                  </option>
                ))}
              </optgroup>
            ) : (
              <option key={group.children[0].id} value={group.children[0].id}>
                {group.children[0].parent_account
                  ? `${group.children[0].name} (sub account of ${group.children[0].parent_account.name}, ${group.children[0].role}${stateOf(group.children[0])})`
                  : `${group.children[0].name} (${group.children[0].role}${stateOf(group.children[0])})`}
              </option>
            ),
          )}
        </select>
      </label>
      {subAccountNote}
    </span>
  );
}
