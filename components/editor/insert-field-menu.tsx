'use client';

import { Select } from '@/components/ui/field';
import { useAttributeDefinitions } from '@/lib/client/contact-queries';

const CONTACT_FIELDS = [
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'email', label: 'Email' },
];

/**
 * The contact's fields and the account's attributes, each inserted as `{{ key }}` where the editor
 * last had its cursor (a code editor or a text block). A select keeps it one control on a phone.
 */
export function InsertFieldMenu({
  accountId,
  canReadAttributes,
  isDisabled,
  onInsert,
}: {
  accountId: string;
  canReadAttributes: boolean;
  isDisabled: boolean;
  onInsert: (text: string) => void;
}) {
  const attributes = useAttributeDefinitions(accountId, { enabled: canReadAttributes });
  return (
    <Select
      aria-label="Insert field"
      className="w-full sm:w-56"
      value=""
      disabled={isDisabled}
      onChange={(event) => {
        if (event.target.value) onInsert(`{{ ${event.target.value} }}`);
      }}
    >
      <option value="">Insert field…</option>
      <optgroup label="Contact">
        {CONTACT_FIELDS.map((field) => (
          <option key={field.key} value={field.key}>
            {field.label}
          </option>
        ))}
      </optgroup>
      {attributes.data && attributes.data.length > 0 ? (
        <optgroup label="Attributes">
          {attributes.data.map((attribute) => (
            <option key={attribute.key} value={attribute.key}>
              {attribute.label || attribute.key}
            </option>
          ))}
        </optgroup>
      ) : null}
      {attributes.isPending && canReadAttributes ? <option disabled>Loading attributes…</option> : null}
      {attributes.error ? <option disabled>Attributes could not be loaded</option> : null}
    </Select>
  );
}
