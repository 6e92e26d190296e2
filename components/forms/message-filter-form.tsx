'use client';

import { FILTER_STATUSES } from '@/lib/core/messages/statuses';
import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/field';

export type MessageFilters = { status: string; sender: string; recipient: string; subject: string; tags: string; from_time: string; to_time: string };

export const EMPTY_FILTERS: MessageFilters = { status: '', sender: '', recipient: '', subject: '', tags: '', from_time: '', to_time: '' };

/** The message log's filters; they go to GET /v2/.../messages as its query. */
export function MessageFilterForm({ initial, onApply }: { initial: MessageFilters; onApply: (filters: MessageFilters) => void }) {
  return (
    <form
      className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-4"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const value = (name: keyof MessageFilters) => String(form.get(name) ?? '').trim();
        const time = (name: 'from_time' | 'to_time') => (value(name) ? new Date(value(name)).toISOString() : '');
        onApply({ status: value('status'), sender: value('sender'), recipient: value('recipient'), subject: value('subject'), tags: value('tags'), from_time: time('from_time'), to_time: time('to_time') });
      }}
    >
      <label className="text-xs font-medium text-slate-600">
        Status
        <select name="status" defaultValue={initial.status} className="mt-1 block w-full rounded-md border-0 py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300">
          <option value="">Any</option>
          {FILTER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label className="text-xs font-medium text-slate-600">
        Sender
        <TextInput name="sender" type="email" defaultValue={initial.sender} className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Recipient
        <TextInput name="recipient" type="email" defaultValue={initial.recipient} className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Subject contains
        <TextInput name="subject" defaultValue={initial.subject} className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Tags (comma-separated)
        <TextInput name="tags" defaultValue={initial.tags} className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        From
        <TextInput name="from_time" type="datetime-local" defaultValue={initial.from_time ? initial.from_time.slice(0, 16) : ''} className="mt-1" />
      </label>
      <label className="text-xs font-medium text-slate-600">
        To
        <TextInput name="to_time" type="datetime-local" defaultValue={initial.to_time ? initial.to_time.slice(0, 16) : ''} className="mt-1" />
      </label>
      <div className="flex items-end gap-2">
        <Button type="submit">Filter</Button>
        <Button variant="secondary" onClick={() => onApply(EMPTY_FILTERS)}>
          Clear
        </Button>
      </div>
    </form>
  );
}
