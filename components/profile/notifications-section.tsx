'use client';

import { useState } from 'react';
import { Alert } from '@/components/ui/feedback';
import { useNotificationPreferences, useSetNotificationPreference } from '@/lib/client/notification-queries';

/**
 * "Email notifications" on the profile: one switch per kind, each saved as it is flipped. They are
 * the person's own, whichever account is open; mail needs the operator's SYSTEM_SENDER.
 */
export function NotificationsSection() {
  const preferences = useNotificationPreferences();
  const save = useSetNotificationPreference();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section
      aria-labelledby="notifications-heading"
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <div>
        <h2 id="notifications-heading" className="text-base font-semibold">
          Email notifications
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Mailstead emails the owner and Administrators of an account when something needs their attention, at most once
          an hour for the same thing. Turn off what you do not want; it applies to every account you belong to.
        </p>
      </div>
      {preferences.error ? <Alert tone="error">{preferences.error.message}</Alert> : null}
      {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {preferences.isPending ? <p className="text-sm text-slate-600">Loading…</p> : null}
      <ul className="divide-y divide-slate-100">
        {(preferences.data?.data ?? []).map((preference) => {
          const id = `notification-${preference.kind}`;
          const isSaving = save.isPending && save.variables?.kind === preference.kind;
          return (
            <li key={preference.kind} className="flex items-start justify-between gap-4 py-3">
              <div className="min-w-0">
                <label htmlFor={id} className="text-sm font-medium text-slate-900">
                  {preference.label}
                </label>
                <p id={`${id}-description`} className="mt-0.5 text-sm text-slate-600">
                  {preference.description}
                </p>
              </div>
              <button
                id={id}
                type="button"
                role="switch"
                aria-checked={preference.is_enabled}
                aria-describedby={`${id}-description`}
                disabled={isSaving}
                onClick={() => {
                  setNotice(null);
                  save.mutate(
                    { kind: preference.kind, is_enabled: !preference.is_enabled },
                    {
                      onSuccess: () =>
                        setNotice(`${preference.label}: ${preference.is_enabled ? 'no longer emailed' : 'emailed'}.`),
                    },
                  );
                }}
                className={`relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-wait disabled:opacity-60 ${
                  preference.is_enabled ? 'bg-brand-600' : 'bg-slate-300'
                }`}
              >
                <span className="sr-only">{preference.is_enabled ? 'On' : 'Off'}</span>
                <span
                  aria-hidden
                  className={`pointer-events-none inline-block size-5 translate-y-0.5 rounded-full bg-white shadow transition-transform ${
                    preference.is_enabled ? 'translate-x-5.5' : 'translate-x-0.5'
                  }`}
                />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
