import Link from 'next/link';
import { formatCount } from '@/lib/client/format';
import type { SignupFormObject } from '@/lib/client/signup-form-queries';
import { DataTable, type Column } from './data-table';

/** The account's signup forms: name, opt-in mode, lists and signups so far. */
export function SignupFormTable({
  accountId,
  forms,
  listNames,
}: {
  accountId: string;
  forms: SignupFormObject[];
  listNames: Map<string, string>;
}) {
  const columns: Column<SignupFormObject>[] = [
    {
      key: 'form',
      header: 'Form',
      className: 'max-lg:col-span-full',
      cell: (form) => (
        <Link
          href={`/${accountId}/signup-forms/${form.id}`}
          className="font-medium text-brand-700 wrap-anywhere hover:underline"
        >
          {form.name}
        </Link>
      ),
    },
    {
      key: 'lists',
      header: 'Lists',
      cardLabel: true,
      className: 'wrap-anywhere',
      cell: (form) => form.list_ids.map((id) => listNames.get(id) ?? 'deleted list').join(', '),
    },
    {
      key: 'opt-in',
      header: 'Opt-in',
      cardLabel: true,
      cell: (form) => (form.double_opt_in ? 'Double' : 'Single'),
    },
    {
      key: 'signups',
      header: 'Signups',
      cardLabel: true,
      align: 'right',
      className: 'tabular-nums',
      cellAttributes: () => ({ 'data-count': 'signups' }),
      cell: (form) => formatCount(form.signup_count),
    },
  ];
  return (
    <DataTable
      caption="Signup forms"
      columns={columns}
      rows={forms}
      rowKey={(form) => form.id}
      rowAttributes={(form) => ({ 'data-form-row': form.name })}
      rowClassName="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4 sm:max-lg:grid-cols-3"
    />
  );
}
