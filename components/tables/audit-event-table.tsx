'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { AuditEvent } from '@/lib/core/audit/schemas';
import { DataTable, type Column } from './data-table';

export const ACTOR_LABELS: Record<AuditEvent['actor']['type'], string> = {
  api_key: 'API key',
  user: 'Person',
  smtp_credential: 'SMTP credential',
  operator: 'Operator (CLI)',
  system: 'Mailstead',
};

/** What the page calls each kind of resource, and where its page is (null: no page of its own). */
export const RESOURCE_TYPES: Record<string, { label: string; href: ((id: string) => string) | null }> = {
  account: { label: 'Account', href: () => 'settings' },
  api_key: { label: 'API key', href: () => 'api-keys' },
  v1_key: { label: 'v1 key', href: () => 'api-keys' },
  domain: { label: 'Domain', href: (id) => `domains/${encodeURIComponent(id)}` },
  webhook: { label: 'Webhook', href: (id) => `webhooks/${id}` },
  route: { label: 'Route', href: (id) => `routes/${id}` },
  smtp_credential: { label: 'SMTP credential', href: () => 'smtp-credentials' },
  suppression: { label: 'Suppression', href: () => 'suppressions' },
  contact: { label: 'Contact', href: (id) => `contacts/${id}` },
  contact_attribute: { label: 'Contact attribute', href: () => 'contacts/attributes' },
  contact_import: { label: 'Contact import', href: () => 'contacts/import' },
  list: { label: 'List', href: (id) => `lists/${id}` },
  template: { label: 'Template', href: (id) => `templates/${id}` },
  campaign: { label: 'Campaign', href: (id) => `campaigns/${id}` },
  media: { label: 'Media file', href: () => 'media' },
  member: { label: 'Member', href: () => 'members' },
  invitation: { label: 'Invitation', href: () => 'members' },
  sub_account: { label: 'Sub account', href: (id) => `sub-accounts/${id}` },
  message: { label: 'Message', href: (id) => `messages/${id}` },
  user: { label: 'Person', href: null },
};

const VERBS: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  add: 'added',
  remove: 'removed',
  send: 'sent',
  pause: 'paused',
  resume: 'resumed',
  cancel: 'cancelled',
  unschedule: 'unscheduled',
  duplicate: 'duplicated',
  publish: 'published',
  upload: 'uploaded',
  suspend: 'suspended',
  unsuspend: 'unsuspended',
  unpause: 'unpaused',
  disable: 'turned off',
  wipe: 'wiped',
  revoke: 'revoked',
  resend: 'sent again',
  accept: 'accepted',
  unsubscribe: 'unsubscribed',
  resubscribe: 'resubscribed',
  rotate_dkim: 'DKIM key rotated',
  role_change: 'role changed',
  sessions_end: 'signed out everywhere',
};

/** A person's own events read as what happened to them: "Signed in", "Password changed". */
const PERSON_VERBS: Record<string, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  password_change: 'Password changed',
  password_reset: 'Password reset by a link',
  password_reset_link_create: 'Password reset link made',
  two_factor_enable: 'Two-factor sign-in turned on',
  two_factor_disable: 'Two-factor sign-in turned off',
  recovery_codes_regenerate: 'New recovery codes made',
  session_end: 'Session ended',
};

/** "Domain deleted", "Campaign sent", "List member added": the action as a sentence. */
export function describeAction(action: string): string {
  const [resource, verb = ''] = action.split('.');
  if (resource === 'user' && PERSON_VERBS[verb]) return PERSON_VERBS[verb];
  const noun = RESOURCE_TYPES[resource]?.label ?? resource.replace(/_/g, ' ');
  const done = VERBS[verb] ?? verb.replace(/_/g, ' ');
  const phrase = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${done}`;
  return resource === 'list_member'
    ? `List member ${done}`
    : resource === 'suppression' && verb === 'wipe'
      ? 'Suppression list wiped'
      : phrase;
}

/** The account's audit events: when, who, what, which resource (linked where it has a page) and from where. */
export function AuditEventTable({ accountId, events }: { accountId: string; events: AuditEvent[] }) {
  const columns: Column<AuditEvent>[] = [
    {
      key: 'when',
      header: 'When',
      className: 'text-xs text-slate-600 lg:whitespace-nowrap',
      cell: (event) => <time dateTime={event.occurred_at}>{formatDateTime(event.occurred_at)}</time>,
    },
    {
      key: 'who',
      header: 'Who',
      cardLabel: true,
      cell: (event) => (
        <>
          <p className="text-sm font-medium text-slate-900 wrap-anywhere">
            {event.actor.label ?? ACTOR_LABELS[event.actor.type]}
          </p>
          {event.actor.label ? (
            <p className="text-xs text-slate-600">{ACTOR_LABELS[event.actor.type] ?? event.actor.type}</p>
          ) : null}
        </>
      ),
    },
    {
      key: 'what',
      header: 'What',
      isRowHeader: true,
      cell: (event) => (
        <>
          <p className="font-medium text-slate-900">{describeAction(event.action)}</p>
          {event.changes.length ? (
            <p className="text-xs text-slate-600 wrap-anywhere">Fields: {event.changes.join(', ')}</p>
          ) : null}
          {event.account_id !== accountId ? <Badge tone="blue">Sub account</Badge> : null}
        </>
      ),
    },
    {
      key: 'resource',
      header: 'Resource',
      cardLabel: true,
      className: 'text-sm lg:max-w-xs',
      cell: (event) => <ResourceCell accountId={accountId} event={event} />,
    },
    {
      key: 'ip',
      header: 'IP address',
      cardLabel: true,
      className: 'font-mono text-xs text-slate-700 wrap-anywhere',
      cell: (event) => event.ip ?? <span className="font-sans text-slate-500">None</span>,
    },
  ];
  return (
    <DataTable
      caption="Audit events, newest first"
      columns={columns}
      rows={events}
      rowKey={(event) => event.id}
      rowAttributes={(event) => ({ 'data-testid': 'audit-event', 'data-action': event.action })}
    />
  );
}

function ResourceCell({ accountId, event }: { accountId: string; event: AuditEvent }) {
  const type = RESOURCE_TYPES[event.resource.type];
  const label = type?.label ?? event.resource.type;
  const id = event.resource.id;
  // A sub account's resources have their pages under its own id; the sub account itself, under its partner's.
  const base = `/${event.resource.type === 'sub_account' ? accountId : event.account_id}`;
  const href = type?.href && (id !== null || !type.href.length) ? `${base}/${type.href(id ?? '')}` : null;
  return (
    <>
      <p className="text-xs text-slate-600">{label}</p>
      {href && event.action.split('.')[1] !== 'delete' ? (
        <Link href={href} className="font-medium text-brand-700 wrap-anywhere hover:underline">
          {id ?? label}
        </Link>
      ) : (
        <p className="wrap-anywhere text-slate-800">{id ?? '—'}</p>
      )}
      {event.account_id !== accountId ? <span className="sr-only">in a sub account</span> : null}
    </>
  );
}
