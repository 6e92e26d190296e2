'use client';

import { ACTOR_LABELS, RESOURCE_TYPES } from '@/components/tables/audit-event-table';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { FilterDisclosure } from '@/components/ui/filter-disclosure';

/** The page's filters as the URL holds them; `from` and `to` are UTC days (YYYY-MM-DD), both included. */
export type ActivityFilters = {
  actor_type: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  from: string;
  to: string;
};

export const EMPTY_ACTIVITY_FILTERS: ActivityFilters = {
  actor_type: '',
  actor_id: '',
  action: '',
  resource_type: '',
  resource_id: '',
  from: '',
  to: '',
};

/** Who, what (an action such as `domain.delete`, or a family such as `domain.*`), which resource and when. */
export function ActivityFilterForm({
  initial,
  onApply,
}: {
  initial: ActivityFilters;
  onApply: (filters: ActivityFilters) => void;
}) {
  return (
    <FilterDisclosure activeCount={Object.values(initial).filter(Boolean).length}>
      <form
        role="search"
        aria-label="Filter activity"
        className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const value = (name: keyof ActivityFilters) => String(form.get(name) ?? '').trim();
          onApply({
            actor_type: value('actor_type'),
            actor_id: value('actor_id'),
            action: value('action').toLowerCase(),
            resource_type: value('resource_type'),
            resource_id: value('resource_id'),
            from: value('from'),
            to: value('to'),
          });
        }}
      >
        <Field label="Who" isCompact>
          <Select name="actor_type" defaultValue={initial.actor_type}>
            <option value="">Anyone</option>
            {Object.entries(ACTOR_LABELS).map(([type, label]) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Actor id" isCompact>
          <TextInput name="actor_id" defaultValue={initial.actor_id} placeholder="Any key, person or credential" />
        </Field>
        <Field label="Action" isCompact>
          <TextInput
            name="action"
            list="activity-action-families"
            defaultValue={initial.action}
            placeholder="domain.delete or domain.*"
          />
          <datalist id="activity-action-families">
            {Object.keys(RESOURCE_TYPES).map((type) => (
              <option key={type} value={`${type}.*`} />
            ))}
          </datalist>
        </Field>
        <Field label="Resource type" isCompact>
          <Select name="resource_type" defaultValue={initial.resource_type}>
            <option value="">Any</option>
            {Object.entries(RESOURCE_TYPES).map(([type, { label }]) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Resource id" isCompact>
          <TextInput name="resource_id" defaultValue={initial.resource_id} placeholder="Any" />
        </Field>
        <Field label="From (UTC day)" isCompact>
          <TextInput name="from" type="date" defaultValue={initial.from} />
        </Field>
        <Field label="To (UTC day, included)" isCompact>
          <TextInput name="to" type="date" defaultValue={initial.to} />
        </Field>
        <div className="flex items-end gap-2">
          <Button type="submit">Apply</Button>
          <Button variant="secondary" onClick={() => onApply(EMPTY_ACTIVITY_FILTERS)}>
            Clear
          </Button>
        </div>
      </form>
    </FilterDisclosure>
  );
}
