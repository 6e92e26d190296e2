import Link from 'next/link';
import { formatDateTime } from '@/lib/client/format';

export type CampaignPerson = {
  email: string;
  contact_id: string | null;
  at: string;
  bounce_classification?: string | null;
};

/** Bounced or unsubscribed recipients, latest first, each linked to its contact. */
export function CampaignPeopleTable({
  accountId,
  name,
  people,
  emptyText,
}: {
  accountId: string;
  name: string;
  people: CampaignPerson[];
  emptyText: string;
}) {
  if (people.length === 0) return <p className="text-sm text-slate-600">{emptyText}</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-people={name}>
      {people.map((person) => (
        <li
          key={`${person.email}-${person.at}`}
          className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2"
          data-person={person.email}
        >
          {person.contact_id ? (
            <Link
              href={`/${accountId}/contacts/${person.contact_id}`}
              className="min-w-0 font-medium text-brand-700 wrap-anywhere hover:underline"
            >
              {person.email}
            </Link>
          ) : (
            <span className="min-w-0 wrap-anywhere">{person.email}</span>
          )}
          <span className="text-xs text-slate-600">
            {person.bounce_classification ? `${person.bounce_classification} · ` : ''}
            {formatDateTime(person.at)}
          </span>
        </li>
      ))}
    </ul>
  );
}
