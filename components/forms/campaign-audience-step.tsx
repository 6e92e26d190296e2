'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Alert, LoadingState } from '@/components/ui/feedback';
import type { DraftValues } from '@/lib/client/campaign-draft';
import { useAudiencePreview } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';
import { useSegments } from '@/lib/client/segment-queries';

type IdField = 'list_ids' | 'segment_ids' | 'exclude_list_ids' | 'exclude_segment_ids';

/** A titled set of checkboxes over `choices`, writing the chosen ids into one form field. */
function ChoiceList({
  legend,
  hint,
  field,
  chosen,
  choices,
  form,
}: {
  legend: string;
  hint?: string;
  field: IdField;
  chosen: string[];
  choices: { id: string; name: string; detail: string }[];
  form: UseFormReturn<DraftValues>;
}) {
  const toggle = (id: string, isChecked: boolean) =>
    form.setValue(field, isChecked ? [...chosen, id] : chosen.filter((chosenId) => chosenId !== id), {
      shouldDirty: true,
    });
  return (
    <fieldset data-audience-choices={field}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      {hint ? <p className="mb-2 text-xs text-slate-600">{hint}</p> : null}
      <ul className="divide-y divide-slate-100 rounded-lg bg-white ring-1 ring-slate-200">
        {choices.map((choice) => (
          <li key={choice.id} className="flex items-center gap-3 px-4 py-3" data-audience-choice={choice.name}>
            <input
              id={`${field}-${choice.id}`}
              type="checkbox"
              className="size-4"
              checked={chosen.includes(choice.id)}
              onChange={(event) => toggle(choice.id, event.target.checked)}
            />
            <label htmlFor={`${field}-${choice.id}`} className="min-w-0 flex-1 text-sm wrap-anywhere">
              {choice.name}
            </label>
            <span className="shrink-0 text-xs tabular-nums text-slate-600">{choice.detail}</span>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** A value that follows `value` once it has stopped changing for `delay` ms. */
function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** Step 2: the target lists, with the live count of who would receive it after unsubscribes and suppressions. */
export function CampaignAudienceStep({ accountId, form }: { accountId: string; form: UseFormReturn<DraftValues> }) {
  const [listIds, fromEmail, segmentIds, excludeListIds, excludeSegmentIds] = useWatch({
    control: form.control,
    name: ['list_ids', 'from_email', 'segment_ids', 'exclude_list_ids', 'exclude_segment_ids'],
  });
  const lists = useLists(accountId);
  const segments = useSegments(accountId);
  const inputs = JSON.stringify([listIds, fromEmail.trim(), segmentIds, excludeListIds, excludeSegmentIds]);
  const settled = useDebouncedValue(inputs, 400);
  const [settledLists, settledFrom, settledSegments, settledExcludedLists, settledExcludedSegments] = JSON.parse(
    settled,
  ) as [string[], string, string[], string[], string[]];
  const preview = useAudiencePreview(accountId, settledLists, settledFrom.includes('@') ? settledFrom : null, {
    segment_ids: settledSegments,
    exclude_list_ids: settledExcludedLists,
    exclude_segment_ids: settledExcludedSegments,
  });
  const segmentChoices = (segments.data?.data ?? []).map((segment) => ({
    id: segment.id,
    name: segment.name,
    detail: segment.count === null ? 'not counted yet' : `≈ ${formatCount(segment.count)} contacts`,
  }));
  const listChoices = (lists.data?.data ?? []).map((list) => ({
    id: list.id,
    name: list.name,
    detail: `${formatCount(list.member_counts.confirmed ?? 0)} confirmed`,
  }));
  const error = form.formState.errors.list_ids?.message;
  const toggle = (id: string, isChecked: boolean) =>
    form.setValue('list_ids', isChecked ? [...listIds, id] : listIds.filter((listId) => listId !== id), {
      shouldDirty: true,
    });
  const isCounting = preview.isFetching || settled !== inputs;

  return (
    <div className="space-y-4">
      <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200" aria-live="polite">
        <p className="text-sm text-slate-700">Would receive it now</p>
        <p
          className="text-2xl font-semibold tabular-nums"
          data-testid="audience-count"
          aria-busy={isCounting || undefined}
        >
          {preview.data ? formatCount(preview.data.recipients) : '—'}
        </p>
        <p className="text-xs text-slate-600">
          Confirmed members of the chosen lists
          {segmentIds.length ? ' who are in at least one chosen segment' : ''}
          {excludeListIds.length || excludeSegmentIds.length ? ', minus those left out' : ''}, each address once,
          without contacts who unsubscribed and addresses suppressed
          {fromEmail.includes('@') ? ` for ${fromEmail.split('@').pop()}` : ''}. The audience is frozen when sending
          starts.
        </p>
        {preview.error ? <p className="mt-1 text-xs text-red-700">{preview.error.message}</p> : null}
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {lists.isPending ? <LoadingState label="Loading lists…" /> : null}
      {lists.error ? (
        <Alert tone="error" title="Lists could not be loaded">
          {lists.error.message}
        </Alert>
      ) : null}
      {lists.data && lists.data.data.length === 0 ? (
        <Alert tone="info" title="No lists yet">
          Campaigns go to lists.{' '}
          <Link href={`/${accountId}/lists`} className="font-medium underline">
            Create a list
          </Link>{' '}
          and add contacts to it first.
        </Alert>
      ) : null}
      {lists.data && lists.data.data.length > 0 ? (
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">Send to</legend>
          <ul className="divide-y divide-slate-100 rounded-lg bg-white ring-1 ring-slate-200">
            {lists.data.data.map((list) => {
              const confirmed =
                preview.data?.per_list.find((entry) => entry.list_id === list.id)?.confirmed ??
                list.member_counts.confirmed ??
                0;
              return (
                <li key={list.id} className="flex items-center gap-3 px-4 py-3" data-audience-list={list.name}>
                  <input
                    id={`audience-${list.id}`}
                    type="checkbox"
                    className="size-4"
                    checked={listIds.includes(list.id)}
                    onChange={(event) => toggle(list.id, event.target.checked)}
                  />
                  <label htmlFor={`audience-${list.id}`} className="min-w-0 flex-1 text-sm wrap-anywhere">
                    {list.name}
                  </label>
                  <span className="shrink-0 text-xs tabular-nums text-slate-600">
                    {formatCount(confirmed)} confirmed
                  </span>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}
      {segments.error ? (
        <Alert tone="error" title="Segments could not be loaded">
          {segments.error.message}
        </Alert>
      ) : null}
      {listIds.length > 0 && segmentChoices.length > 0 ? (
        <ChoiceList
          legend="Only contacts in these segments (optional)"
          hint="Narrows the lists above: a member is kept when it matches at least one chosen segment."
          field="segment_ids"
          chosen={segmentIds}
          choices={segmentChoices}
          form={form}
        />
      ) : null}
      {listIds.length > 0 && listChoices.length > 1 ? (
        <ChoiceList
          legend="Leave out members of these lists (optional)"
          hint="Anyone on a chosen list is left out, whatever their status there."
          field="exclude_list_ids"
          chosen={excludeListIds}
          choices={listChoices.filter((choice) => !listIds.includes(choice.id))}
          form={form}
        />
      ) : null}
      {listIds.length > 0 && segmentChoices.length > 0 ? (
        <ChoiceList
          legend="Leave out contacts in these segments (optional)"
          field="exclude_segment_ids"
          chosen={excludeSegmentIds}
          choices={segmentChoices}
          form={form}
        />
      ) : null}
      {listIds.length > 0 && segmentChoices.length === 0 && segments.data ? (
        <p className="text-xs text-slate-600">
          To narrow the audience by attributes or engagement,{' '}
          <Link href={`/${accountId}/segments/new`} className="font-medium underline">
            create a segment
          </Link>
          .
        </p>
      ) : null}
    </div>
  );
}
