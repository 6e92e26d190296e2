'use client';

import Link from 'next/link';
import { useMemo, useState } from 'react';
import { ContactTable } from '@/components/tables/contact-table';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { Field, TextInput } from '@/components/ui/field';
import { useAttributeDefinitions } from '@/lib/client/contact-queries';
import { formatCount } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';
import { useSaveSegment, useSegmentPreview, type SegmentObject } from '@/lib/client/segment-queries';
import {
  countConditions,
  FIELD_LABELS,
  FIELD_TYPES,
  fromFilter,
  MAX_CONDITIONS,
  newCondition,
  newGroup,
  toFilter,
  type DraftGroup,
} from '@/lib/client/segment-draft';
import { useDebouncedValue } from '@/lib/client/use-debounced-value';
import type { AttributeType } from '@/lib/core/contacts/attribute-values';
import type { SegmentFilter } from '@/lib/core/segments/schemas';
import { SegmentGroupEditor, type FieldChoice } from './segment-filter-editor';

/**
 * The segment builder: a name, the conditions and groups, and beside them the live count and the
 * first matching contacts (a debounced preview of what is complete so far); Save creates or updates.
 */
export function SegmentBuilderForm({
  accountId,
  segment,
  onSaved,
}: {
  accountId: string;
  segment: SegmentObject | null;
  onSaved: (saved: SegmentObject) => void;
}) {
  const definitions = useAttributeDefinitions(accountId);
  const lists = useLists(accountId);
  const types = useMemo(() => {
    const byField: Record<string, AttributeType> = { ...FIELD_TYPES };
    for (const definition of definitions.data ?? []) byField[`attributes.${definition.key}`] = definition.type;
    return byField;
  }, [definitions.data]);
  const fields: FieldChoice[] = useMemo(
    () => [
      ...Object.entries(FIELD_TYPES).map(([field, type]) => ({ field, type, label: FIELD_LABELS[field] })),
      ...(definitions.data ?? []).map((definition) => ({
        field: `attributes.${definition.key}`,
        type: definition.type,
        label: definition.label || definition.key,
      })),
    ],
    [definitions.data],
  );
  const [name, setName] = useState(segment?.name ?? '');
  const [root, setRoot] = useState<DraftGroup>(() =>
    segment ? fromFilter(segment.filter as SegmentFilter, types) : newGroup('all', [newCondition()]),
  );
  const { filter, incomplete } = toFilter(root, types);
  const settled = useDebouncedValue(JSON.stringify(filter), 400);
  const preview = useSegmentPreview(accountId, JSON.parse(settled) as SegmentFilter);
  const save = useSaveSegment(accountId);
  const conditions = countConditions(root);
  const isCounting = preview.isFetching || settled !== JSON.stringify(filter);
  const liveLists = (lists.data?.data ?? []).map((list) => ({ id: list.id, name: list.name }));

  return (
    <form
      className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ id: segment?.id ?? null, name, filter }, { onSuccess: onSaved });
      }}
    >
      <div className="space-y-4">
        <Field label="Name" isRequired>
          <TextInput value={name} maxLength={255} onChange={(event) => setName(event.target.value)} />
        </Field>
        <section aria-label="Conditions" className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
          <SegmentGroupEditor
            group={root}
            depth={1}
            context={{ fields, lists: liveLists, canAddCondition: conditions < MAX_CONDITIONS }}
            onChange={setRoot}
          />
          {conditions >= MAX_CONDITIONS ? (
            <p className="mt-2 text-xs text-slate-600">A segment holds at most {MAX_CONDITIONS} conditions.</p>
          ) : null}
        </section>
        {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={save.isPending || !name.trim() || incomplete > 0}>
            {save.isPending ? 'Saving…' : segment ? 'Save segment' : 'Create segment'}
          </Button>
          <Link
            href={segment ? `/${accountId}/segments/${segment.id}` : `/${accountId}/segments`}
            className="text-sm text-slate-700 hover:underline"
          >
            Cancel
          </Link>
          {incomplete > 0 ? (
            <span className="text-xs text-slate-600">
              {incomplete === 1 ? 'One condition has' : `${incomplete} conditions have`} no value yet.
            </span>
          ) : null}
        </div>
      </div>
      <aside className="space-y-3" aria-label="Matching contacts">
        <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200" aria-live="polite">
          <p className="text-sm text-slate-700">Contacts matching now</p>
          <p
            className="text-2xl font-semibold tabular-nums"
            data-testid="segment-count"
            aria-busy={isCounting || undefined}
          >
            {preview.data ? formatCount(preview.data.count) : '—'}
          </p>
          <p className="text-xs text-slate-600">
            Counted again as you edit. A campaign sent to this segment reaches only those who are also confirmed members
            of its lists and not unsubscribed or suppressed.
          </p>
          {preview.error ? (
            <p className="mt-1 text-xs text-red-700" role="alert">
              {preview.error.message}
            </p>
          ) : null}
        </div>
        {preview.data && preview.data.contacts.length > 0 ? (
          <div data-testid="segment-preview-contacts">
            <p className="mb-2 text-sm font-medium text-slate-800">
              First {preview.data.contacts.length} {preview.data.contacts.length === 1 ? 'contact' : 'contacts'}
            </p>
            <ContactTable accountId={accountId} contacts={preview.data.contacts} selected={null} onSelect={() => {}} />
          </div>
        ) : null}
        {preview.data && preview.data.contacts.length === 0 ? (
          <p className="text-sm text-slate-600">No contact matches these conditions yet.</p>
        ) : null}
      </aside>
    </form>
  );
}
