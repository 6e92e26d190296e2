'use client';

import { useForm, type Resolver } from 'react-hook-form';
import Link from 'next/link';
import { SELECT } from '@/components/forms/contact-filter-form';
import { Button } from '@/components/ui/button';
import { Field, TextArea } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { formatCount } from '@/lib/client/format';
import { MEMBERS_PER_REQUEST } from '@/lib/client/list-queries';
import type { SubscriptionStatus } from '@/lib/client/types';
import { WRITABLE_SUBSCRIPTION_STATUSES, addListMembersSchema } from '@/lib/core/lists/schemas';

type Values = { pasted: string; subscription_status: string };
export type PastedMembers = { contacts: string[]; status?: SubscriptionStatus };

/** Addresses (or ids) from pasted text: one per line, or separated by commas, semicolons or spaces; each once. */
export function parsePasted(text: string): string[] {
  const seen = new Set<string>();
  for (const token of text.split(/[\s,;]+/)) {
    const reference = token.trim().replace(/^<|>$/g, '').toLowerCase();
    if (reference) seen.add(reference);
  }
  return [...seen];
}

/** Every request the paste becomes (1,000 contacts each) is checked with the API's own schema. */
const resolver: Resolver<Values> = async (values) => {
  const contacts = parsePasted(values.pasted);
  if (contacts.length === 0) return { values: {}, errors: { pasted: { type: 'required', message: 'paste at least one email address' } } } as never;
  for (let start = 0; start < contacts.length; start += MEMBERS_PER_REQUEST) {
    const checked = addListMembersSchema.safeParse({ contacts: contacts.slice(start, start + MEMBERS_PER_REQUEST), subscription_status: values.subscription_status || undefined });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = issue.path[0] === 'subscription_status' ? 'subscription_status' : 'pasted';
      const where = issue.path[0] === 'contacts' && typeof issue.path[1] === 'number' ? `${contacts[start + issue.path[1]]}: ` : '';
      return { values: {}, errors: { [field]: { type: 'validate', message: `${where}${issue.message}` } } } as never;
    }
  }
  return { values, errors: {} };
};

/** Paste many addresses: added 1,000 per request; all must already be contacts (the API's 404 names the others). */
export function PasteMembersForm({ accountId, listId, onSubmit, onCancel }: { accountId: string; listId: string; onSubmit: (members: PastedMembers) => Promise<void>; onCancel: () => void }) {
  const form = useForm<Values>({ resolver, defaultValues: { pasted: '', subscription_status: '' } });
  const { errors, isSubmitting } = form.formState;
  const count = parsePasted(form.watch('pasted')).length;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ contacts: parsePasted(values.pasted), status: (values.subscription_status || undefined) as SubscriptionStatus | undefined });
    } catch (error) {
      form.setError('pasted', { message: (error as Error).message });
    }
  });
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="Paste addresses">
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field
        label="Email addresses"
        htmlFor="paste-members"
        hint={
          <>
            One per line, or separated by commas. Each must already be a contact:{' '}
            <Link href={`/${accountId}/contacts/import?list_id=${listId}`} className="text-brand-700 underline">
              import new addresses
            </Link>{' '}
            instead.
          </>
        }
        error={errors.pasted?.message}
      >
        <TextArea id="paste-members" rows={8} isInvalid={Boolean(errors.pasted)} placeholder={'ada@example.com\ngrace@example.org'} {...form.register('pasted')} />
      </Field>
      <Field label="Status" htmlFor="paste-status" hint="A status chosen here also applies to contacts already on the list." error={errors.subscription_status?.message}>
        <select id="paste-status" className={SELECT} {...form.register('subscription_status')}>
          <option value="">Confirmed for new members, others unchanged</option>
          {WRITABLE_SUBSCRIPTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status[0].toUpperCase() + status.slice(1)}
            </option>
          ))}
        </select>
      </Field>
      <div className="flex flex-wrap items-center justify-end gap-2">
        <p className="mr-auto text-xs text-slate-600" data-testid="paste-count">
          {formatCount(count)} address{count === 1 ? '' : 'es'}
          {count > MEMBERS_PER_REQUEST ? `, in ${formatCount(Math.ceil(count / MEMBERS_PER_REQUEST))} requests` : ''}
        </p>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          Add {formatCount(count)}
        </Button>
      </div>
    </form>
  );
}
