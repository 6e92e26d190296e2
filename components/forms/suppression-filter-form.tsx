'use client';

import { KIND_LABELS } from '@/components/tables/suppression-table';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { FilterDisclosure } from '@/components/ui/filter-disclosure';

export type SuppressionFilters = { email: string; domain: string; kind: string };

export const EMPTY_SUPPRESSION_FILTERS: SuppressionFilters = { email: '', domain: '', kind: '' };

/** Search by address, and filter by sending domain and by reason; applied to the page's URL. */
export function SuppressionFilterForm({
  initial,
  domains,
  onApply,
}: {
  initial: SuppressionFilters;
  domains: string[] | null;
  onApply: (filters: SuppressionFilters) => void;
}) {
  return (
    <FilterDisclosure activeCount={[initial.email, initial.domain, initial.kind].filter(Boolean).length}>
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
        <Field label="Email address" isCompact>
          <TextInput name="email" type="search" defaultValue={initial.email} placeholder="someone@example.com" />
        </Field>
        <Field label="Domain" isCompact>
          {domains ? (
            <Select name="domain" defaultValue={initial.domain}>
              <option value="">Any</option>
              {[...new Set([...domains, ...(initial.domain ? [initial.domain] : [])])].map((domain) => (
                <option key={domain} value={domain}>
                  {domain}
                </option>
              ))}
            </Select>
          ) : (
            <TextInput name="domain" defaultValue={initial.domain} placeholder="Any" />
          )}
        </Field>
        <Field label="Reason" isCompact>
          <Select name="kind" defaultValue={initial.kind}>
            <option value="">Any</option>
            {Object.entries(KIND_LABELS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex items-end gap-2">
          <Button type="submit">Search</Button>
          <Button variant="secondary" onClick={() => onApply(EMPTY_SUPPRESSION_FILTERS)}>
            Clear
          </Button>
        </div>
      </form>
    </FilterDisclosure>
  );
}
