'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useCurrentUser } from '@/lib/client/queries';

/** For people who belong to several accounts: the same page, in another account. */
export function AccountSwitcher({ accountId }: { accountId: string }) {
  const me = useCurrentUser();
  const router = useRouter();
  const pathname = usePathname();
  const accounts = me.data?.accounts ?? [];
  const current = accounts.find((account) => account.id === accountId);
  if (accounts.length <= 1) return <p className="truncate text-sm font-medium text-slate-800">{current?.name ?? ''}</p>;
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm">
      <span className="sr-only">Account</span>
      <select
        value={accountId}
        onChange={(event) => router.push(pathname.replace(`/${accountId}`, `/${event.target.value}`))}
        className="min-w-0 max-w-full truncate rounded-md border-0 py-1.5 pl-3 pr-8 text-sm font-medium ring-1 ring-inset ring-slate-300"
        aria-label="Switch account"
      >
        {accounts.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name} ({account.role})
          </option>
        ))}
      </select>
    </label>
  );
}
