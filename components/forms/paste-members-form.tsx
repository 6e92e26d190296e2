'use client';

import { useForm, type Resolver } from 'react-hook-form';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, Select, TextArea } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { formatCount } from '@/lib/client/format';
import { MEMBERS_PER_REQUEST } from '@/lib/client/list-queries';
import type { SubscriptionStatus } from '@/lib/client/types';
import { WRITABLE_SUBSCRIPTION_STATUSES, pasteListMembersSchema } from '@/lib/core/lists/schemas';

type Values = { pasted: string; subscription_status: string; create_missing: boolean };
export type PastedMembers = { lines: string[]; status?: SubscriptionStatus; createMissing: boolean };

/**
 * The lines of pasted text: one address per line, or separated by commas, semicolons or tabs;
 * "Ada <ada@example.com>" counts as its address. Each once; what is not an address stays, for the
 * server to refuse by name.
 */
export function parsePasted(text: string): string[] {
  const seen = new Map<string, string>();
  for (const token of text.split(/[\n\r,;\t]+/)) {
    const line = (/<([^<>]*)>/.exec(token)?.[1] ?? token).trim();
    if (line && !seen.has(line.toLowerCase())) seen.set(line.toLowerCase(), line);
  }
  return [...seen.values()];
}

/** Every request the paste becomes (1,000 lines each) is checked with the API's own schema. */
const resolver: Resolver<Values> = async (values) => {
  const lines = parsePasted(values.pasted);
  if (lines.length === 0)
    return {
      values: {},
      errors: { pasted: { type: 'required', message: 'paste at least one email address' } },
    } as never;
  for (let start = 0; start < lines.length; start += MEMBERS_PER_REQUEST) {
    const checked = pasteListMembersSchema.safeParse({
      lines: lines.slice(start, start + MEMBERS_PER_REQUEST),
      subscription_status: values.subscription_status || undefined,
    });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = issue.path[0] === 'subscription_status' ? 'subscription_status' : 'pasted';
      const where =
        issue.path[0] === 'lines' && typeof issue.path[1] === 'number' ? `${lines[start + issue.path[1]]}: ` : '';
      return { values: {}, errors: { [field]: { type: 'validate', message: `${where}${issue.message}` } } } as never;
    }
  }
  return { values, errors: {} };
};

/** Paste many addresses: added 1,000 per request; the valid ones are added, the others reported line by line. */
export function PasteMembersForm({
  accountId,
  listId,
  onSubmit,
  onCancel,
}: {
  accountId: string;
  listId: string;
  onSubmit: (members: PastedMembers) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<Values>({
    resolver,
    defaultValues: { pasted: '', subscription_status: '', create_missing: false },
  });
  const { errors, isSubmitting } = form.formState;
  const count = parsePasted(form.watch('pasted')).length;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({
        lines: parsePasted(values.pasted),
        status: (values.subscription_status || undefined) as SubscriptionStatus | undefined,
        createMissing: values.create_missing,
      });
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
            One per line, or separated by commas. To add names and attributes too,{' '}
            <Link href={`/${accountId}/contacts/import?list_id=${listId}`} className="text-brand-700 underline">
              import a CSV file
            </Link>
            .
          </>
        }
        error={errors.pasted?.message}
      >
        <TextArea
          id="paste-members"
          rows={8}
          isInvalid={Boolean(errors.pasted)}
          placeholder={'ada@example.com\ngrace@example.org'}
          {...form.register('pasted')}
        />
      </Field>
      <Checkbox
        label="Create contacts for new addresses"
        description="Without it, an address that is not a contact yet is not added (and is listed as such)."
        {...form.register('create_missing')}
      />
      <Field
        label="Status"
        htmlFor="paste-status"
        hint="Of the new members; contacts already on the list keep theirs."
        error={errors.subscription_status?.message}
      >
        <Select id="paste-status" {...form.register('subscription_status')}>
          <option value="">Confirmed for new members, others unchanged</option>
          {WRITABLE_SUBSCRIPTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status[0].toUpperCase() + status.slice(1)}
            </option>
          ))}
        </Select>
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
