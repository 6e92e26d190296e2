'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { ContactObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

export const fullName = (contact: Pick<ContactObject, 'first_name' | 'last_name'>) =>
  [contact.first_name, contact.last_name].filter(Boolean).join(' ');

/** A stored attribute value as text: strings as they are, anything else as JSON. */
export const attributeText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function SubscriptionBadge({ contact }: { contact: Pick<ContactObject, 'unsubscribed'> }) {
  return contact.unsubscribed ? <Badge tone="amber">Unsubscribed</Badge> : <Badge tone="green">Subscribed</Badge>;
}

/** Contacts with a checkbox each (for the bulk actions) when `selected` is given. */
export function ContactTable({
  accountId,
  contacts,
  selected,
  onSelect,
}: {
  accountId: string;
  contacts: ContactObject[];
  selected: Set<string> | null;
  onSelect: (ids: string[], isSelected: boolean) => void;
}) {
  const isAllSelected =
    selected !== null && contacts.length > 0 && contacts.every((contact) => selected.has(contact.id));
  const selectColumn: Column<ContactObject> = {
    key: 'select',
    header: 'Select',
    headerClassName: 'w-8',
    className: 'max-lg:absolute max-lg:left-4 max-lg:top-4 lg:w-8',
    cell: (contact) => (
      <input
        type="checkbox"
        aria-label={`Select ${contact.email}`}
        checked={selected?.has(contact.id) ?? false}
        onChange={(event) => onSelect([contact.id], event.target.checked)}
      />
    ),
  };
  const columns: Column<ContactObject>[] = [
    ...(selected ? [selectColumn] : []),
    {
      key: 'contact',
      header: 'Contact',
      cell: (contact) => (
        <>
          <Link
            href={`/${accountId}/contacts/${contact.id}`}
            className="font-medium text-brand-700 wrap-anywhere hover:underline"
          >
            {contact.email}
          </Link>
          {fullName(contact) ? <p className="text-xs text-slate-600 wrap-anywhere">{fullName(contact)}</p> : null}
        </>
      ),
    },
    { key: 'subscription', header: 'Subscription', cell: (contact) => <SubscriptionBadge contact={contact} /> },
    {
      key: 'attributes',
      header: 'Attributes',
      cardLabel: true,
      className: (contact) =>
        `text-xs text-slate-700 lg:max-w-xs ${Object.keys(contact.attributes ?? {}).length ? '' : 'max-lg:hidden'}`,
      cell: (contact) => (
        <span className="line-clamp-2 wrap-anywhere">
          {Object.entries(contact.attributes ?? {})
            .map(([key, value]) => `${key}: ${attributeText(value)}`)
            .join(' · ')}
        </span>
      ),
    },
    {
      key: 'added',
      header: 'Added',
      cardLabel: true,
      className: 'text-xs text-slate-600 lg:whitespace-nowrap',
      cell: (contact) => formatDateTime(contact.created_at),
    },
  ];
  return (
    <DataTable
      caption="Contacts"
      columns={columns}
      headerCells={
        selected
          ? {
              select: (
                <input
                  type="checkbox"
                  aria-label="Select every contact on this page"
                  checked={isAllSelected}
                  onChange={(event) =>
                    onSelect(
                      contacts.map((contact) => contact.id),
                      event.target.checked,
                    )
                  }
                />
              ),
            }
          : undefined
      }
      rows={contacts}
      rowKey={(contact) => contact.id}
      rowAttributes={(contact) => ({ 'data-contact-row': contact.email })}
      rowClassName="max-lg:relative max-lg:pl-11"
    />
  );
}
