'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { DeleteContactDialog } from '@/components/dialogs/contact-dialogs';
import { ContactForm } from '@/components/forms/contact-form';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { SubscriptionBadge, fullName } from '@/components/tables/contact-table';
import { MembershipTable } from '@/components/tables/membership-table';
import { MessageTable } from '@/components/tables/message-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import {
  useAttributeDefinitions,
  useContact,
  useContactMemberships,
  useSetUnsubscribed,
  useSubscriptionEvents,
  useUpdateContact,
} from '@/lib/client/contact-queries';
import { formatDateTime } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';
import { useMessages } from '@/lib/client/queries';

function Section({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** A contact: its fields and attributes (editable), its lists with their status, and the mail sent to it. */
export function ContactDetailView({ accountId, contactId }: { accountId: string; contactId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const contact = useContact(accountId, contactId);
  const definitions = useAttributeDefinitions(accountId);
  const update = useUpdateContact(accountId);
  const subscription = useSetUnsubscribed(accountId);
  const [isDeleting, setIsDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  if (contact.isPending) return <LoadingState label="Loading contact…" />;
  if (contact.error) {
    const status = contact.error instanceof ApiError ? contact.error.status : 0;
    return (
      <Alert
        tone={status === 403 || status === 404 ? 'warning' : 'error'}
        title={status === 404 ? 'No such contact' : 'This contact could not be shown'}
      >
        {contact.error.message}{' '}
        <Link href={`/${accountId}/contacts`} className="font-medium underline">
          All contacts
        </Link>
      </Alert>
    );
  }
  const data = contact.data;
  const toggle = () => {
    setNotice(null);
    subscription.mutate(
      { id: data.id, unsubscribed: !data.unsubscribed },
      {
        onSuccess: () =>
          setNotice(
            data.unsubscribed
              ? 'Resubscribed: marketing mail reaches this contact again.'
              : 'Unsubscribed: no marketing mail goes to this contact. The history is kept.',
          ),
      },
    );
  };

  return (
    <>
      <PageHeader
        title={data.email}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <SubscriptionBadge contact={data} />
            {fullName(data) ? <span>{fullName(data)}</span> : null}
            <span>
              Added {formatDateTime(data.created_at)}
              {data.unsubscribed_at ? `, unsubscribed ${formatDateTime(data.unsubscribed_at)}` : ''}
            </span>
            <Link href={`/${accountId}/contacts`} className="text-brand-700 hover:underline">
              All contacts
            </Link>
          </span>
        }
        actions={
          <>
            {can('contacts:write') ? (
              <Button variant="secondary" isBusy={subscription.isPending} onClick={toggle}>
                {data.unsubscribed ? 'Resubscribe' : 'Unsubscribe'}
              </Button>
            ) : null}
            {can('contacts:delete') ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setIsDeleting(true)}>
                Delete…
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-8">
        {notice ? (
          <div data-testid="contact-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {subscription.error ? <Alert tone="error">{subscription.error.message}</Alert> : null}
        <Section title="Details">
          <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
            {definitions.isPending ? <LoadingState label="Loading attributes…" /> : null}
            {definitions.error ? (
              <Alert tone="error" title="Attribute definitions could not be loaded">
                {definitions.error.message}
              </Alert>
            ) : null}
            {definitions.data ? (
              can('contacts:write') ? (
                <ContactForm
                  key={data.updated_at}
                  contact={data}
                  definitions={definitions.data}
                  submitLabel="Save changes"
                  onSubmit={async (body) => {
                    setNotice(null);
                    await update.mutateAsync({ id: data.id, ...body });
                    setNotice('Contact saved.');
                  }}
                />
              ) : (
                <ContactFacts attributes={data.attributes} />
              )
            ) : null}
          </div>
        </Section>
        {can('lists:read') ? <ContactListsSection accountId={accountId} contactId={data.id} /> : null}
        {can('messages:read') ? <ContactMessagesSection accountId={accountId} email={data.email} /> : null}
        <SubscriptionHistorySection
          accountId={accountId}
          contactId={data.id}
          subscriptionState={`${data.unsubscribed} ${data.unsubscribed_at ?? ''}`}
        />
      </div>
      <DeleteContactDialog
        accountId={accountId}
        contact={isDeleting ? data : null}
        onClose={() => setIsDeleting(false)}
        onDeleted={() => router.push(`/${accountId}/contacts`)}
      />
    </>
  );
}

function ContactFacts({ attributes }: { attributes: Record<string, unknown> }) {
  const entries = Object.entries(attributes);
  if (!entries.length) return <p className="text-sm text-slate-600">No attributes.</p>;
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-2">
      {entries.map(([key, value]) => (
        <div key={key} className="min-w-0">
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{key}</dt>
          <dd className="wrap-anywhere">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ContactListsSection({ accountId, contactId }: { accountId: string; contactId: string }) {
  const memberships = useContactMemberships(accountId, contactId);
  const lists = useLists(accountId);
  const byId = new Map((lists.data?.data ?? []).map((list) => [list.id, list]));
  const rows = memberships.data?.data ?? [];
  return (
    <Section title="Lists">
      {memberships.isPending ? <LoadingState label="Loading lists…" /> : null}
      {memberships.error ? (
        <Alert tone="error" title="Lists could not be loaded">
          {memberships.error.message}
        </Alert>
      ) : null}
      {memberships.data && rows.length === 0 ? (
        <EmptyState title="On no list">
          Add this contact to a list from the Contacts page or from the list itself.
        </EmptyState>
      ) : null}
      {rows.length > 0 && !lists.isPending ? (
        <MembershipTable accountId={accountId} memberships={rows} lists={byId} />
      ) : null}
    </Section>
  );
}

function ContactMessagesSection({ accountId, email }: { accountId: string; email: string }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const query = new URLSearchParams({ recipient: email, limit: '20', ...(cursor ? { after: cursor } : {}) });
  const messages = useMessages(accountId, query.toString());
  const rows = messages.data?.data ?? [];
  return (
    <Section
      title="Messages"
      aside={
        <Link
          href={`/${accountId}/messages?recipient=${encodeURIComponent(email)}`}
          className="text-xs text-brand-700 hover:underline"
        >
          Open in the message log
        </Link>
      }
    >
      {messages.isPending ? <LoadingState label="Loading messages…" /> : null}
      {messages.error ? (
        <Alert tone="error" title="Messages could not be loaded">
          {messages.error.message}
        </Alert>
      ) : null}
      {messages.data && rows.length === 0 ? (
        <EmptyState title={cursor ? 'No older messages' : 'No messages to this address'}>
          Mail sent to this address while it is retained shows here.
        </EmptyState>
      ) : null}
      {rows.length > 0 ? <MessageTable accountId={accountId} messages={rows} /> : null}
      {cursors.length > 0 || messages.data?.pagination.has_more ? (
        <div className="flex justify-end gap-2">
          <Button variant="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </Button>
          <Button
            variant="secondary"
            disabled={!messages.data?.pagination.has_more}
            onClick={() =>
              messages.data?.pagination.next_cursor && setCursors([...cursors, messages.data.pagination.next_cursor])
            }
          >
            Older
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

const SOURCES: Record<string, string> = {
  api: 'through the API',
  dashboard: 'in the dashboard',
  import: 'by an import',
  unsubscribe_link: 'with the unsubscribe link',
  system: 'by Mailstead',
};

function SubscriptionHistorySection({
  accountId,
  contactId,
  subscriptionState,
}: {
  accountId: string;
  contactId: string;
  subscriptionState: string;
}) {
  const events = useSubscriptionEvents(accountId, contactId, subscriptionState);
  return (
    <Section title="Subscription history">
      {events.isPending ? <LoadingState label="Loading history…" /> : null}
      {events.error ? (
        <Alert tone="error" title="The history could not be loaded">
          {events.error.message}
        </Alert>
      ) : null}
      {events.data && events.data.length === 0 ? (
        <p className="text-sm text-slate-600">Subscribed since it was added; never unsubscribed.</p>
      ) : null}
      {events.data && events.data.length > 0 ? (
        <ol
          className="divide-y divide-slate-100 rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200"
          aria-label="Subscription history"
        >
          {events.data.map((event, index) => (
            <li
              key={index}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3"
              data-subscription-event={event.type}
            >
              <span>
                <span className="font-medium">{event.type === 'unsubscribed' ? 'Unsubscribed' : 'Resubscribed'}</span>{' '}
                {SOURCES[event.source] ?? `(${event.source})`}
              </span>
              <span className="text-xs text-slate-600">{formatDateTime(event.created_at)}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </Section>
  );
}
