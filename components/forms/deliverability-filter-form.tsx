'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { FilterDisclosure } from '@/components/ui/filter-disclosure';
import {
  DEFAULT_VIEW,
  PROVIDER_OPTIONS,
  normalizeTags,
  type RangeKey,
  type StatisticsView,
} from '@/lib/client/statistics-view';

const PRESETS: { range: RangeKey; label: string; spoken: string }[] = [
  { range: '24h', label: '24 h', spoken: 'Last 24 hours' },
  { range: '7d', label: '7 d', spoken: 'Last 7 days' },
  { range: '30d', label: '30 d', spoken: 'Last 30 days' },
  { range: 'custom', label: 'Custom', spoken: 'Custom dates' },
];

/** The viewer's calendar date `daysAgo` days back, as a date input wants it. */
function localDate(daysAgo = 0): string {
  const at = new Date();
  at.setDate(at.getDate() - daysAgo);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

/**
 * Period, sender domain and tags of the Deliverability page. The preset periods and the domain apply
 * at once; dates and tags, which are typed, apply with the button (or Enter).
 */
export function DeliverabilityFilterForm({
  view,
  domains,
  onChange,
}: {
  view: StatisticsView;
  domains: string[] | null;
  onChange: (view: StatisticsView) => void;
}) {
  const [isCustom, setIsCustom] = useState(view.range === 'custom');
  const [dateError, setDateError] = useState<string | null>(null);
  const hasFilters = Boolean(view.domain || view.tags || view.provider);

  return (
    <form
      aria-label="Statistics filters"
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const value = (name: string) => String(form.get(name) ?? '').trim();
        const next = { ...view, domain: value('domain').toLowerCase(), tags: normalizeTags(value('tags')) };
        if (isCustom) {
          const [from, to] = [value('from'), value('to')];
          if (!from || !to || from > to)
            return setDateError('Pick a first and a last day, the first not after the last.');
          Object.assign(next, { range: 'custom', from, to });
        }
        setDateError(null);
        onChange(next);
      }}
    >
      <fieldset>
        <legend className="text-xs font-medium text-slate-600">Period</legend>
        <div className="mt-1 inline-flex flex-wrap rounded-md shadow-sm ring-1 ring-slate-300" role="group">
          {PRESETS.map((preset, index) => {
            const isActive = preset.range === 'custom' ? isCustom : !isCustom && view.range === preset.range;
            return (
              <button
                key={preset.range}
                type="button"
                aria-pressed={isActive}
                aria-label={preset.spoken}
                className={`px-3 py-1.5 text-sm font-medium ${index > 0 ? 'border-l border-slate-300' : ''} ${index === 0 ? 'rounded-l-md' : ''} ${index === PRESETS.length - 1 ? 'rounded-r-md' : ''} ${isActive ? 'bg-brand-600 text-white' : 'bg-white text-slate-700 hover:bg-slate-50'}`}
                onClick={() => {
                  if (preset.range === 'custom') return setIsCustom(true);
                  setIsCustom(false);
                  setDateError(null);
                  onChange({ ...view, range: preset.range, from: '', to: '' });
                }}
              >
                {preset.label}
              </button>
            );
          })}
        </div>
      </fieldset>
      <FilterDisclosure
        activeCount={[view.domain, view.tags, view.provider].filter(Boolean).length}
        isForcedOpen={isCustom}
      >
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {isCustom ? (
            <>
              <Field label="First day" isCompact>
                <TextInput
                  name="from"
                  type="date"
                  defaultValue={view.from || localDate(6)}
                  max={localDate()}
                  isInvalid={Boolean(dateError)}
                />
              </Field>
              <Field label="Last day" isCompact>
                <TextInput
                  name="to"
                  type="date"
                  defaultValue={view.to || localDate()}
                  max={localDate()}
                  isInvalid={Boolean(dateError)}
                />
              </Field>
            </>
          ) : null}
          <Field label="Sender domain" isCompact>
            {domains ? (
              <Select
                name="domain"
                value={view.domain}
                onChange={(event) => onChange({ ...view, domain: event.target.value })}
              >
                <option value="">All domains</option>
                {[...new Set([...domains, ...(view.domain ? [view.domain] : [])])].map((domain) => (
                  <option key={domain} value={domain}>
                    {domain}
                  </option>
                ))}
              </Select>
            ) : (
              <TextInput name="domain" defaultValue={view.domain} placeholder="All domains" />
            )}
          </Field>
          <Field label="Mailbox provider" isCompact>
            <Select
              name="provider"
              value={view.provider}
              onChange={(event) => onChange({ ...view, provider: event.target.value })}
            >
              <option value="">All providers</option>
              {PROVIDER_OPTIONS.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Tags (comma-separated)" isCompact>
            <TextInput name="tags" defaultValue={view.tags} placeholder="Any tag" />
          </Field>
          <div className="flex items-end gap-2">
            <Button type="submit">Apply</Button>
            {hasFilters ? (
              <Button
                variant="secondary"
                onClick={() =>
                  onChange({ ...view, domain: DEFAULT_VIEW.domain, tags: DEFAULT_VIEW.tags, provider: '' })
                }
              >
                Clear filters
              </Button>
            ) : null}
          </div>
        </div>
      </FilterDisclosure>
      {dateError ? (
        <p className="text-xs font-medium text-red-600" role="alert">
          {dateError}
        </p>
      ) : null}
    </form>
  );
}
