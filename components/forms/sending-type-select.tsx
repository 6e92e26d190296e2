import { forwardRef, type SelectHTMLAttributes } from 'react';
import { Field, Select } from '@/components/ui/field';

/** What each sending type is for and what it changes, said the same way wherever a domain's type is chosen. */
export const SENDING_TYPE_HELP = {
  transactional:
    'Transactional: mail one person triggered (receipts, password resets, sign-in codes, notifications). Campaigns cannot be sent from it.',
  marketing:
    'Marketing: campaigns and newsletters to your lists; Mailstead adds one-click unsubscribe headers and links to them. API and SMTP sends keep working.',
} as const;

/** Transactional or marketing: the one choice every domain form asks, with what it means under it. */
export const SendingTypeSelect = forwardRef<
  HTMLSelectElement,
  SelectHTMLAttributes<HTMLSelectElement> & { label?: string }
>(function SendingTypeSelect({ id, label = 'Sending type', ...props }, ref) {
  return (
    <Field label={label} htmlFor={id}>
      <Select ref={ref} aria-describedby={`${id}-help`} className="w-auto" {...props}>
        <option value="transactional">Transactional</option>
        <option value="marketing">Marketing</option>
      </Select>
    </Field>
  );
});

/** The two meanings, for under a form that has a SendingTypeSelect (its id + "-help"). */
export function SendingTypeHelp({ id }: { id: string }) {
  return (
    <ul id={`${id}-help`} className="space-y-0.5 text-xs text-slate-600">
      <li>{SENDING_TYPE_HELP.transactional}</li>
      <li>{SENDING_TYPE_HELP.marketing} You can change it later on the domain&apos;s page.</li>
    </ul>
  );
}
