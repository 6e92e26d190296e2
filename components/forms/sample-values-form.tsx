'use client';

import { useState } from 'react';
import { fullName } from '@/components/tables/contact-table';
import { Button } from '@/components/ui/button';
import { Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { useContacts } from '@/lib/client/contact-queries';
import type { ContactObject } from '@/lib/client/types';

export const DEFAULT_SAMPLE_VALUES = JSON.stringify(
  { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  null,
  2,
);

/** What a contact gives a template: its attributes and its fields by name; missing values are left out, so they print nothing. */
export function contactSubstitutions(contact: ContactObject): Record<string, unknown> {
  const fields = { email: contact.email, first_name: contact.first_name, last_name: contact.last_name };
  return Object.fromEntries(
    Object.entries({ ...contact.attributes, ...fields }).filter(([, value]) => value !== null && value !== undefined),
  );
}

/** The sample values as substitutions, or why they are not usable. */
export function parseSampleValues(json: string): { values: Record<string, unknown> } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.trim() || '{}');
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: 'Sample values must be one JSON object of names and values, like {"first_name": "Ada"}.' };
  return { values: parsed as Record<string, unknown> };
}

/**
 * The values the preview renders with: a JSON object to edit, which picking a contact fills with
 * that contact's fields and attributes (people who cannot read contacts edit the JSON only).
 */
export function SampleValuesForm({
  accountId,
  json,
  error,
  canSearchContacts,
  onChange,
}: {
  accountId: string;
  json: string;
  error: string | null;
  canSearchContacts: boolean;
  onChange: (json: string) => void;
}) {
  const [search, setSearch] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const contacts = useContacts(accountId, new URLSearchParams({ limit: '5', search: submitted }).toString(), {
    enabled: canSearchContacts && submitted !== '',
  });
  const results = submitted ? (contacts.data?.data ?? []) : [];
  return (
    <div className="space-y-3">
      {canSearchContacts ? (
        <div className="space-y-2">
          <form
            role="search"
            aria-label="Find a contact for sample values"
            className="flex gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              setSubmitted(search.trim());
            }}
          >
            <TextInput
              type="search"
              aria-label="Contact email or name"
              placeholder="Use a contact: email or name"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
          {contacts.error ? <Alert tone="error">{contacts.error.message}</Alert> : null}
          {contacts.data && submitted && results.length === 0 ? (
            <p className="text-sm text-slate-600">No contact matches.</p>
          ) : null}
          {results.length > 0 ? (
            <ul className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
              {results.map((contact) => (
                <li key={contact.id} className="flex items-center gap-3 px-3 py-2" data-sample-contact={contact.email}>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium wrap-anywhere">{contact.email}</p>
                    {fullName(contact) ? <p className="text-xs text-slate-600">{fullName(contact)}</p> : null}
                  </div>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Use ${contact.email}`}
                    onClick={() => {
                      onChange(JSON.stringify(contactSubstitutions(contact), null, 2));
                      setPicked(contact.email);
                      setSubmitted('');
                    }}
                  >
                    Use
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <Field
        label="Sample values (JSON)"
        htmlFor="template-sample-values"
        hint={
          picked
            ? `The values of ${picked}; edit them freely, nothing is saved.`
            : 'Names the template uses and the values to try them with. Nothing here is saved.'
        }
        error={error}
      >
        <TextArea
          id="template-sample-values"
          rows={6}
          spellCheck={false}
          isInvalid={Boolean(error)}
          value={json}
          onChange={(event) => onChange(event.target.value)}
        />
      </Field>
    </div>
  );
}
