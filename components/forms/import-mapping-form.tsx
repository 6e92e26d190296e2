'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { DataTable, type Column } from '@/components/tables/data-table';
import { Alert } from '@/components/ui/feedback';
import { Field, Select } from '@/components/ui/field';
import type { CsvPreview } from '@/lib/client/csv-file';
import { formatCount } from '@/lib/client/format';
import type { AttributeDefinition, ContactListObject } from '@/lib/client/types';

const FIELDS = [
  { value: 'email', label: 'Email' },
  { value: 'first_name', label: 'First name' },
  { value: 'last_name', label: 'Last name' },
];

const normalize = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
const ALIASES: Record<string, string> = {
  e_mail: 'email',
  email_address: 'email',
  mail: 'email',
  firstname: 'first_name',
  first: 'first_name',
  given_name: 'first_name',
  lastname: 'last_name',
  last: 'last_name',
  surname: 'last_name',
  family_name: 'last_name',
};

/** A first guess: a column named like a field or an attribute maps to it; anything else is skipped. */
export function guessMapping(header: string[], definitions: AttributeDefinition[]): (string | null)[] {
  const targets = new Set([...FIELDS.map((field) => field.value), ...definitions.map((definition) => definition.key)]);
  const taken = new Set<string>();
  return header.map((name) => {
    const key = ALIASES[normalize(name)] ?? normalize(name);
    if (!targets.has(key) || taken.has(key)) return null;
    taken.add(key);
    return key;
  });
}

/** What is wrong with a mapping: one email column, no target twice. */
export function mappingProblem(mapping: (string | null)[]): string | null {
  const chosen = mapping.filter((target): target is string => target !== null);
  if (!chosen.includes('email')) return 'Choose the column that holds the email address.';
  const twice = chosen.find((target, index) => chosen.indexOf(target) !== index);
  return twice ? `Two columns are mapped to ${twice}: keep one.` : null;
}

export type ImportPlan = { mapping: (string | null)[]; listId: string | null };

/**
 * The first rows as the browser parsed them, a target per column (a contact field, an attribute, or
 * skip), and the list to add everyone to.
 */
export function ImportMappingForm({
  fileName,
  rowCount,
  preview,
  definitions,
  lists,
  initialListId,
  isStarting,
  error,
  onStart,
  onCancel,
}: {
  fileName: string;
  rowCount: number | null;
  preview: CsvPreview;
  definitions: AttributeDefinition[];
  lists: ContactListObject[] | null;
  initialListId: string;
  isStarting: boolean;
  error: string | null;
  onStart: (plan: ImportPlan) => void;
  onCancel: () => void;
}) {
  const [mapping, setMapping] = useState(() => guessMapping(preview.header, definitions));
  const [listId, setListId] = useState(initialListId);
  const [isTried, setIsTried] = useState(false);
  const problem = mappingProblem(mapping);
  const skipped = preview.header.filter((_, index) => mapping[index] === null);

  return (
    <form
      className="space-y-5"
      aria-label="Column mapping"
      onSubmit={(event) => {
        event.preventDefault();
        setIsTried(true);
        if (!problem) onStart({ mapping, listId: listId || null });
      }}
    >
      <p className="text-sm text-slate-700">
        <strong className="wrap-anywhere">{fileName}</strong>:{' '}
        {rowCount === null ? (
          'counting rows…'
        ) : (
          <span data-testid="import-row-count">{formatCount(rowCount)} rows</span>
        )}
        , {formatCount(preview.header.length)} columns. The first rows are shown as they will be read.
      </p>
      {error ? (
        <Alert tone="error" title="The import could not start">
          {error}
        </Alert>
      ) : null}
      {isTried && problem ? <Alert tone="error">{problem}</Alert> : null}
      <ul
        className="divide-y divide-slate-100 rounded-lg bg-white shadow-sm ring-1 ring-slate-200 lg:hidden"
        aria-label="Columns"
      >
        {preview.header.map((name, index) => (
          <li key={index} className="space-y-1 px-4 py-3">
            <p className="font-mono text-xs font-medium text-slate-700 wrap-anywhere">
              {name || `(column ${index + 1})`}
            </p>
            <TargetSelect
              index={index}
              name={name}
              mapping={mapping}
              definitions={definitions}
              onChange={setMapping}
              idPrefix="phone-"
            />
            <p
              className={`text-xs wrap-anywhere ${mapping[index] === null ? 'text-slate-400 line-through' : 'text-slate-600'}`}
            >
              {preview.rows
                .slice(0, 3)
                .map((row) => row[index] ?? '')
                .join(' · ')}
            </p>
          </li>
        ))}
      </ul>
      <DataTable
        caption="Preview of the first rows"
        layout="grid"
        className="hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200 lg:block"
        tableClassName="divide-y divide-slate-200 text-sm"
        columns={preview.header.map((name, index): Column<string[]> => ({
          key: String(index),
          header: name || `(column ${index + 1})`,
          headerClassName: 'min-w-36 align-top font-medium',
          className: `max-w-56 truncate ${mapping[index] === null ? 'text-slate-400 line-through' : 'text-slate-800'}`,
          cellAttributes: (row) => ({ title: row[index] }),
          cell: (row) => row[index] ?? '',
        }))}
        headerCells={Object.fromEntries(
          preview.header.map((name, index) => [
            String(index),
            <>
              <span className="block truncate font-mono" title={name}>
                {name || `(column ${index + 1})`}
              </span>
              <TargetSelect
                index={index}
                name={name}
                mapping={mapping}
                definitions={definitions}
                onChange={setMapping}
              />
            </>,
          ]),
        )}
        rows={preview.rows}
        rowKey={(row) => String(preview.rows.indexOf(row))}
      />
      {skipped.length ? (
        <p className="text-xs text-slate-600">
          Skipped: {skipped.map((name) => name || '(unnamed)').join(', ')}. To keep a column as an attribute, define the
          attribute first (Contacts → Attributes).
        </p>
      ) : null}
      <Field
        label="Add everyone to a list"
        hint="New members are confirmed; contacts already on the list keep their status."
        className="max-w-md"
      >
        <Select value={listId} onChange={(event) => setListId(event.target.value)} disabled={lists === null}>
          <option value="">No list</option>
          {(lists ?? []).map((list) => (
            <option key={list.id} value={list.id}>
              {list.name}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Choose another file
        </Button>
        <Button type="submit" isBusy={isStarting}>
          {isStarting ? 'Uploading…' : 'Start import'}
        </Button>
      </div>
    </form>
  );
}

/** Where one column goes: a contact field, an attribute, or nowhere. */
function TargetSelect({
  index,
  name,
  mapping,
  definitions,
  onChange,
  idPrefix = '',
}: {
  index: number;
  name: string;
  mapping: (string | null)[];
  definitions: AttributeDefinition[];
  onChange: (mapping: (string | null)[]) => void;
  idPrefix?: string;
}) {
  return (
    <Select
      id={`${idPrefix}import-column-${index}`}
      aria-label={`Import column ${name || index + 1} as`}
      value={mapping[index] ?? ''}
      onChange={(event) => onChange(mapping.map((target, at) => (at === index ? event.target.value || null : target)))}
      className="mt-1"
    >
      <option value="">Skip</option>
      <optgroup label="Contact">
        {FIELDS.map((field) => (
          <option key={field.value} value={field.value}>
            {field.label}
          </option>
        ))}
      </optgroup>
      {definitions.length ? (
        <optgroup label="Attributes">
          {definitions.map((definition) => (
            <option key={definition.key} value={definition.key}>
              {definition.label ? `${definition.label} (${definition.key})` : definition.key}
            </option>
          ))}
        </optgroup>
      ) : null}
    </Select>
  );
}
