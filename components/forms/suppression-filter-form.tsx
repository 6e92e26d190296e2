'use client';

import { KIND_LABELS } from '@/components/tables/suppression-table';
import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/field';

export type SuppressionFilters = { email: string; domain: string; kind: string };

export const EMPTY_SUPPRESSION_FILTERS: SuppressionFilters = { email: '', domain: '', kind: '' };

const SELECT = 'mt-1 block w-full rounded-md border-0 py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300';

/** Search by address, and filter by sending domain and by reason; applied to the page's URL. */
export function SuppressionFilterForm({ initial, domains, onApply }: { initial: SuppressionFilters; domains: string[] | null; onApply: (filters: SuppressionFilters) => void }) {
  return (
    <form
      role="search"
      aria-label="Search suppressions"
      className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const value = (name: keyof SuppressionFilters) => String(form.get(name) ?? '').trim();
        onApply({ email: value('email').toLowerCase(), domain: value('domain').toLowerCase(), kind: value('kind') });
      }}
    >
      <label className="text-xs font-medium text-slate-600">
        Email address
        <TextInput name="email" type="search" defaultValue={initial.email} placeholder="someone@example.com" className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Domain
        {domains ? (
          <select name="domain" defaultValue={initial.domain} className={SELECT}>
            <option value="">Any</option>
            {[...new Set([...domains, ...(initial.domain ? [initial.domain] : [])])].map((domain) => (
              <option key={domain} value={domain}>
                {domain}
              </option>
            ))}
          </select>
        ) : (
          <TextInput name="domain" defaultValue={initial.domain} placeholder="Any" className="mt-1" />
        )}
      </label>
      <label className="text-xs font-medium text-slate-600">
        Reason
        <select name="kind" defaultValue={initial.kind} className={SELECT}>
          <option value="">Any</option>
          {Object.entries(KIND_LABELS).map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <div className="flex items-end gap-2">
        <Button type="submit">Search</Button>
        <Button variant="secondary" onClick={() => onApply(EMPTY_SUPPRESSION_FILTERS)}>
          Clear
        </Button>
      </div>
    </form>
  );
}
