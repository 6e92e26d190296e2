'use client';

import Link from 'next/link';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '@/lib/client/api';
import { useCurrentUser } from '@/lib/client/queries';
import { AccountSwitcher } from './account-switcher';
import { DatabaseOutageBanner } from './database-outage-banner';
import { NavDrawer } from './nav-drawer';
import { SidebarNav } from './sidebar-nav';
import { UserMenu } from './user-menu';

export function AppShell({ accountId, children }: { accountId: string; children: ReactNode }) {
  const me = useCurrentUser();
  const membership = me.data?.accounts.find((account) => account.id === accountId);
  const scopes = membership?.scopes ?? [];
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setIsMenuOpen(false), []);

  // A session that ended while the page was open: sign in again and come back here.
  const isSignedOut = me.error instanceof ApiError && me.error.status === 401;
  useEffect(() => {
    if (isSignedOut)
      window.location.assign(
        `/sign-in?callbackUrl=${encodeURIComponent(window.location.pathname + window.location.search)}`,
      );
  }, [isSignedOut]);

  const nav = (
    <SidebarNav
      accountId={accountId}
      scopes={scopes}
      isPartner={membership?.tier === 'partner'}
      isLoaded={Boolean(me.data)}
    />
  );
  return (
    <div className="flex min-h-full">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside className="hidden w-60 shrink-0 border-r border-slate-200 bg-white md:block">
        <div className="px-5 py-4">
          <Link href={`/${accountId}`} className="text-base font-semibold tracking-tight text-brand-900">
            ✉ Mailstead
          </Link>
        </div>
        {nav}
      </aside>
      <NavDrawer id="nav-drawer" accountId={accountId} isOpen={isMenuOpen} onClose={closeMenu}>
        {me.data ? (
          <p className="px-5 pb-3 text-xs text-slate-600">
            <span className="block truncate">{me.data.email}</span>
            {membership ? <span>{membership.role}</span> : null}
          </p>
        ) : null}
        {nav}
      </NavDrawer>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 sm:px-6">
          <div className="flex min-w-0 items-center gap-2">
            <button
              type="button"
              className="-ml-1 shrink-0 rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
              aria-label="Menu"
              aria-expanded={isMenuOpen}
              aria-controls="nav-drawer"
              onClick={() => setIsMenuOpen(true)}
            >
              <svg aria-hidden viewBox="0 0 20 20" className="size-5" fill="currentColor">
                <path d="M3 5h14v2H3zM3 9h14v2H3zM3 13h14v2H3z" />
              </svg>
            </button>
            <AccountSwitcher accountId={accountId} />
          </div>
          <div className="flex shrink-0 items-center gap-3">
            {membership ? <span className="hidden text-xs text-slate-600 sm:inline">{membership.role}</span> : null}
            <UserMenu accountId={accountId} email={me.data?.email ?? ''} />
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
          <DatabaseOutageBanner />
          {children}
        </main>
      </div>
    </div>
  );
}
