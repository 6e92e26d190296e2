'use client';

import type { ComponentType } from 'react';
import { PageHeader } from '@/components/ui/feedback';
import { useCurrentUser } from '@/lib/client/queries';
import { PasswordSection } from './profile/password-section';
import { SessionsSection } from './profile/sessions-section';
import { NotificationsSection } from '@/components/profile/notifications-section';
import { TwoFactorSection } from '@/components/profile/two-factor-section';

/**
 * The Profile page is this list: one line per section, in order. A section with a title gets its
 * heading here; the others title themselves.
 */
const PROFILE_SECTIONS: { id: string; title: string | null; Section: ComponentType }[] = [
  { id: 'password', title: 'Password', Section: PasswordSection },
  // Titles itself: it is also the setup page an account's two-factor requirement leads to.
  { id: 'two-factor', title: null, Section: TwoFactorSection },
  { id: 'sessions', title: 'Sessions', Section: SessionsSection },
  { id: 'notifications', title: null, Section: NotificationsSection },
];

/** The signed-in person's own settings, the same whichever account they opened it from. */
export function ProfileView() {
  const me = useCurrentUser();
  return (
    <>
      <PageHeader
        title="Profile"
        description={me.data ? `Your Mailstead user, ${me.data.email}, in every account you belong to.` : undefined}
      />
      <div className="space-y-6">
        {PROFILE_SECTIONS.map(({ id, title, Section }) =>
          title === null ? (
            <Section key={id} />
          ) : (
            // The same box as the sections that title themselves (two-factor-section.tsx, notifications-section.tsx).
            <section
              key={id}
              aria-labelledby={`profile-${id}`}
              className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
            >
              <h2 id={`profile-${id}`} className="text-base font-semibold">
                {title}
              </h2>
              <Section />
            </section>
          ),
        )}
      </div>
    </>
  );
}
