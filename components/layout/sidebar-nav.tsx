'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { SECTIONS, mayOpen } from './sections';

const GROUPS = ['Sending', 'Marketing', 'Account'] as const;

/** The main navigation: the same links in the desktop sidebar and in the phone's menu drawer. */
export function SidebarNav({
  accountId,
  scopes,
  isPartner,
  isLoaded,
}: {
  accountId: string;
  scopes: readonly string[];
  isPartner: boolean;
  isLoaded: boolean;
}) {
  const pathname = usePathname();
  const isOverview = pathname === `/${accountId}`;
  return (
    <nav aria-label="Main" className="space-y-5 px-3 pb-6">
      <Link href={`/${accountId}`} aria-current={isOverview ? 'page' : undefined} className={navClass(isOverview)}>
        Overview
      </Link>
      {GROUPS.map((group) => (
        <div key={group}>
          <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{group}</p>
          <ul className="space-y-0.5">
            {SECTIONS.filter(
              (section) =>
                section.group === group &&
                (!isLoaded || (mayOpen(scopes, section.readScope) && (isPartner || !section.isPartnerOnly))),
            ).map((section) => {
              const href = `/${accountId}/${section.slug}`;
              const isActive = pathname === href || pathname.startsWith(`${href}/`);
              return (
                <li key={section.slug}>
                  <Link href={href} aria-current={isActive ? 'page' : undefined} className={navClass(isActive)}>
                    {section.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function navClass(isActive: boolean) {
  return `flex items-center rounded-md px-2 py-1.5 text-sm ${isActive ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`;
}
