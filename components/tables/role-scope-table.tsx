import type { MemberRole } from '@/lib/auth/principal';
import { MEMBER_ROLES, ROLE_SCOPES } from '@/lib/auth/roles';

const PURPOSE: Record<MemberRole, string> = {
  Administrator: 'Everything, including members, API keys and account settings.',
  Developer:
    'Sending and its setup: domains, keys, credentials, webhooks, routes, suppressions, templates, campaigns, contacts and lists.',
  Analyst: 'Reads messages, statistics and the sending setup; changes nothing.',
  'Billing Manager': 'Billing and usage figures.',
};

/** The one table in code (ROLE_SCOPES) that decides what a signed-in member may do, as it stands. */
export function RoleScopeTable({ currentRole }: { currentRole: MemberRole | null }) {
  return (
    <dl className="divide-y divide-slate-100 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {MEMBER_ROLES.map((role) => (
        <div
          key={role}
          className="space-y-2 px-4 py-4 lg:grid lg:grid-cols-[12rem_1fr] lg:gap-4 lg:space-y-0"
          data-role-scopes={role}
        >
          <dt className="text-sm">
            <span className="font-medium text-slate-900">{role}</span>
            {role === currentRole ? <span className="ml-2 text-xs text-slate-500">(your role)</span> : null}
            <span className="mt-1 block text-xs text-slate-600">{PURPOSE[role]}</span>
          </dt>
          <dd className="flex min-w-0 flex-wrap content-start items-start gap-1">
            {ROLE_SCOPES[role].map((scope) => (
              <code
                key={scope}
                className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800 wrap-anywhere"
              >
                {scope === '*' ? '* (every scope)' : scope}
              </code>
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}
