'use client';

import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/field';
import type { AttributeDefinition, ContactListObject } from '@/lib/client/types';

export type ContactFilters = { search: string; subscription: string; list_id: string; attribute: string; value: string };

export const EMPTY_CONTACT_FILTERS: ContactFilters = { search: '', subscription: '', list_id: '', attribute: '', value: '' };

export const SELECT = 'mt-1 block w-full rounded-md border-0 py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300';

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
  return (
    <form
      role="search"
      aria-label="Search contacts"
      className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 xl:grid-cols-6"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const value = (name: keyof ContactFilters) => String(form.get(name) ?? '').trim();
        onApply({ search: value('search'), subscription: value('subscription'), list_id: value('list_id'), attribute: value('attribute'), value: value('attribute') ? value('value') : '' });
      }}
    >
      <label className="text-xs font-medium text-slate-600 xl:col-span-2">
        Email or name
        <TextInput name="search" type="search" defaultValue={initial.search} placeholder="ada@example.com or Lovelace" className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Subscription
        <select name="subscription" defaultValue={initial.subscription} className={SELECT}>
          <option value="">Any</option>
          <option value="subscribed">Subscribed</option>
          <option value="unsubscribed">Unsubscribed</option>
        </select>
      </label>
      <label className="text-xs font-medium text-slate-600">
        List
        <select name="list_id" defaultValue={initial.list_id} className={SELECT}>
          <option value="">Any</option>
          {(lists ?? []).map((list) => (
            <option key={list.id} value={list.id}>
              {list.name}
            </option>
          ))}
        </select>
      </label>
      <div className="grid grid-cols-2 gap-2 xl:col-span-2">
        <label className="text-xs font-medium text-slate-600">
          Attribute
          <select name="attribute" defaultValue={initial.attribute} className={SELECT}>
            <option value="">None</option>
            {attributes.map((definition) => (
              <option key={definition.key} value={definition.key}>
                {definition.label || definition.key}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-medium text-slate-600">
          Value
          <TextInput name="value" defaultValue={initial.value} placeholder="value" className="mt-1" />
        </label>
      </div>
      <div className="flex items-end gap-2 sm:col-span-2 xl:col-span-6">
        <Button type="submit">Search</Button>
        <Button variant="secondary" onClick={() => onApply(EMPTY_CONTACT_FILTERS)}>
          Clear
        </Button>
      </div>
    </form>
  );
}
