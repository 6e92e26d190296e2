'use client';

import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { ContactObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export const fullName = (contact: Pick<ContactObject, 'first_name' | 'last_name'>) => [contact.first_name, contact.last_name].filter(Boolean).join(' ');

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
  const isAllSelected = selected !== null && contacts.length > 0 && contacts.every((contact) => selected.has(contact.id));
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            {selected ? (
              <th scope="col" role="columnheader" className={`${STACKED.headCell} w-8`}>
                <input type="checkbox" aria-label="Select every contact on this page" checked={isAllSelected} onChange={(event) => onSelect(contacts.map((contact) => contact.id), event.target.checked)} />
              </th>
            ) : null}
            <th scope="col" role="columnheader" className={STACKED.headCell}>Contact</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Subscription</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Attributes</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Added</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {contacts.map((contact) => {
            const attributes = Object.entries(contact.attributes ?? {});
            return (
              <tr key={contact.id} data-contact-row={contact.email} className={`${STACKED.row} max-lg:relative max-lg:pl-11`} role="row">
                {selected ? (
                  <td className={`${STACKED.cell} max-lg:absolute max-lg:left-4 max-lg:top-4 lg:w-8`} role="cell">
                    <input type="checkbox" aria-label={`Select ${contact.email}`} checked={selected.has(contact.id)} onChange={(event) => onSelect([contact.id], event.target.checked)} />
                  </td>
                ) : null}
                <td className={STACKED.cell} role="cell">
                  <Link href={`/${accountId}/contacts/${contact.id}`} className="font-medium text-brand-700 wrap-anywhere hover:underline">
                    {contact.email}
                  </Link>
                  {fullName(contact) ? <p className="text-xs text-slate-600 wrap-anywhere">{fullName(contact)}</p> : null}
                </td>
                <td className={STACKED.cell} role="cell">
                  <SubscriptionBadge contact={contact} />
                </td>
                <td className={`${STACKED.cell} text-xs text-slate-700 lg:max-w-xs ${attributes.length ? '' : 'max-lg:hidden'}`} role="cell">
                  <CellLabel>Attributes</CellLabel>
                  <span className="line-clamp-2 wrap-anywhere">{attributes.map(([key, value]) => `${key}: ${attributeText(value)}`).join(' · ')}</span>
                </td>
                <td className={`${STACKED.cell} text-xs text-slate-600 lg:whitespace-nowrap`} role="cell">
                  <CellLabel>Added</CellLabel>
                  {formatDateTime(contact.created_at)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
