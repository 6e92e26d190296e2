'use client';

import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { FilterDisclosure } from '@/components/ui/filter-disclosure';
import type { AttributeDefinition, ContactListObject } from '@/lib/client/types';

export type ContactFilters = {
  search: string;
  subscription: string;
  list_id: string;
  attribute: string;
  value: string;
};

export const EMPTY_CONTACT_FILTERS: ContactFilters = {
  search: '',
  subscription: '',
  list_id: '',
  attribute: '',
  value: '',
};

/** Search by email or name; filter by subscription, list membership and one attribute's value. Applied to the URL. */
export function ContactFilterForm({
  initial,
  lists,
  attributes,
  onApply,
}: {
  initial: ContactFilters;
  lists: ContactListObject[] | null;
  attributes: AttributeDefinition[];
  onApply: (filters: ContactFilters) => void;
}) {
  const activeCount = [initial.search, initial.subscription, initial.list_id, initial.attribute].filter(Boolean).length;
  return (
    <FilterDisclosure activeCount={activeCount}>
      <form
        role="search"
        aria-label="Search contacts"
        className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 xl:grid-cols-6"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const value = (name: keyof ContactFilters) => String(form.get(name) ?? '').trim();
          onApply({
            search: value('search'),
            subscription: value('subscription'),
            list_id: value('list_id'),
            attribute: value('attribute'),
            value: value('attribute') ? value('value') : '',
          });
        }}
      >
        <Field label="Email or name" isCompact className="xl:col-span-2">
          <TextInput
            name="search"
            type="search"
            defaultValue={initial.search}
            placeholder="ada@example.com or Lovelace"
          />
        </Field>
        <Field label="Subscription" isCompact>
          <Select name="subscription" defaultValue={initial.subscription}>
            <option value="">Any</option>
            <option value="subscribed">Subscribed</option>
            <option value="unsubscribed">Unsubscribed</option>
          </Select>
        </Field>
        <Field label="List" isCompact>
          <Select name="list_id" defaultValue={initial.list_id}>
            <option value="">Any</option>
            {(lists ?? []).map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
        </Field>
        <div className="grid grid-cols-2 gap-2 xl:col-span-2">
          <Field label="Attribute" isCompact>
            <Select name="attribute" defaultValue={initial.attribute}>
              <option value="">None</option>
              {attributes.map((definition) => (
                <option key={definition.key} value={definition.key}>
                  {definition.label || definition.key}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Value" isCompact>
            <TextInput name="value" defaultValue={initial.value} placeholder="value" />
          </Field>
        </div>
        <div className="flex items-end gap-2 sm:col-span-2 xl:col-span-6">
          <Button type="submit">Search</Button>
          <Button variant="secondary" onClick={() => onApply(EMPTY_CONTACT_FILTERS)}>
            Clear
          </Button>
        </div>
      </form>
    </FilterDisclosure>
  );
}
