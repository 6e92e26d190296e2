'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { useCurrentUser } from '@/lib/client/queries';
import { AccountSwitcher } from './account-switcher';
import { SECTIONS, mayOpen } from './sections';
import { UserMenu } from './user-menu';

export function AppShell({ accountId, children }: { accountId: string; children: ReactNode }) {
  const pathname = usePathname();
  const me = useCurrentUser();
  const membership = me.data?.accounts.find((account) => account.id === accountId);
  const scopes = membership?.scopes ?? [];
  const groups = ['Sending', 'Marketing', 'Account'] as const;

  return (
    <div className="flex min-h-full">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <aside className="hidden w-60 shrink-0 border-r border-slate-200 bg-white md:block">
        <div className="px-5 py-4">
          <Link href={`/${accountId}`} className="text-base font-semibold tracking-tight text-brand-900">
            ✉ Mailstead
          </Link>
        </div>
        <nav aria-label="Main" className="space-y-5 px-3 pb-6">
          <Link href={`/${accountId}`} aria-current={pathname === `/${accountId}` ? 'page' : undefined} className={navClass(pathname === `/${accountId}`)}>
            Overview
          </Link>
          {groups.map((group) => (
            <div key={group}>
              <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-400">{group}</p>
              <ul className="space-y-0.5">
                {SECTIONS.filter((section) => section.group === group && (!me.data || mayOpen(scopes, section.readScope))).map((section) => {
                  const href = `/${accountId}/${section.slug}`;
                  const isActive = pathname === href || pathname.startsWith(`${href}/`);
                  return (
                    <li key={section.slug}>
                      <Link href={href} aria-current={isActive ? 'page' : undefined} className={navClass(isActive)}>
                        {section.label}
                        {!section.isBuilt ? <span className="ml-auto text-[10px] uppercase text-slate-400">soon</span> : null}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between gap-4 border-b border-slate-200 bg-white px-6 py-3">
          <AccountSwitcher accountId={accountId} />
          <div className="flex items-center gap-3">
            {membership ? <span className="text-xs text-slate-500">{membership.role}</span> : null}
            <UserMenu email={me.data?.email ?? ''} />
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-6 py-8">
          {children}
        </main>
      </div>
    </div>
  );
}

function navClass(isActive: boolean) {
  return `flex items-center rounded-md px-2 py-1.5 text-sm ${isActive ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`;
}
