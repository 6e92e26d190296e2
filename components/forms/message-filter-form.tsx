'use client';

import { FILTER_STATUSES } from '@/lib/core/messages/statuses';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { FilterDisclosure } from '@/components/ui/filter-disclosure';

export type MessageFilters = {
  status: string;
  sender: string;
  recipient: string;
  subject: string;
  tags: string;
  from_time: string;
  to_time: string;
};

export const EMPTY_FILTERS: MessageFilters = {
  status: '',
  sender: '',
  recipient: '',
  subject: '',
  tags: '',
  from_time: '',
  to_time: '',
};

/** The message log's filters; they go to GET /v2/.../messages as its query. */
export function MessageFilterForm({
  initial,
  onApply,
}: {
  initial: MessageFilters;
  onApply: (filters: MessageFilters) => void;
}) {
  return (
    <FilterDisclosure activeCount={Object.values(initial).filter(Boolean).length}>
      <form
        role="search"
        aria-label="Filter messages"
        className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const value = (name: keyof MessageFilters) => String(form.get(name) ?? '').trim();
          const time = (name: 'from_time' | 'to_time') => (value(name) ? new Date(value(name)).toISOString() : '');
          onApply({
            status: value('status'),
            sender: value('sender'),
            recipient: value('recipient'),
            subject: value('subject'),
            tags: value('tags'),
            from_time: time('from_time'),
            to_time: time('to_time'),
          });
        }}
      >
        <Field label="Status" isCompact>
          <Select name="status" defaultValue={initial.status}>
            <option value="">Any</option>
            {FILTER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Sender" isCompact>
          <TextInput name="sender" type="email" defaultValue={initial.sender} />
        </Field>
        <Field label="Recipient" isCompact>
          <TextInput name="recipient" type="email" defaultValue={initial.recipient} />
        </Field>
        <Field label="Subject contains" isCompact>
          <TextInput name="subject" defaultValue={initial.subject} />
        </Field>
        <Field label="Tags (comma-separated)" isCompact>
          <TextInput name="tags" defaultValue={initial.tags} />
        </Field>
        <Field label="From" isCompact>
          <TextInput
            name="from_time"
            type="datetime-local"
            defaultValue={initial.from_time ? initial.from_time.slice(0, 16) : ''}
          />
        </Field>
        <Field label="To" isCompact>
          <TextInput
            name="to_time"
            type="datetime-local"
            defaultValue={initial.to_time ? initial.to_time.slice(0, 16) : ''}
          />
        </Field>
        <div className="flex items-end gap-2">
          <Button type="submit">Filter</Button>
          <Button variant="secondary" onClick={() => onApply(EMPTY_FILTERS)}>
            Clear
          </Button>
        </div>
      </form>
    </FilterDisclosure>
  );
}
