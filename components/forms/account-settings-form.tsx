'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { fieldErrorMessage, fieldOfError } from '@/lib/client/api';
import { useUpdateAccount } from '@/lib/client/queries';
import type { AccountObject } from '@/lib/client/types';
import { updateAccountSchema } from '@/lib/core/accounts/schemas';

type Values = z.input<typeof updateAccountSchema>;
const FIELDS = [
  'name',
  'website',
  'about',
  'track_opens',
  'track_clicks',
  'reject_bad_recipients',
  'reject_mistyped_recipients',
  'message_metadata_retention',
  'message_data_retention',
] as const;

/** The account fields of PUT /v2/accounts/{id}; only what changed is sent. */
export function AccountSettingsForm({ account, canEdit }: { account: AccountObject; canEdit: boolean }) {
  const update = useUpdateAccount(account.id);
  const form = useForm<Values>({
    resolver: zodResolver(updateAccountSchema),
    values: {
      name: account.name,
      website: account.website,
      about: account.about,
      track_opens: account.track_opens,
      track_clicks: account.track_clicks,
      reject_bad_recipients: account.reject_bad_recipients,
      reject_mistyped_recipients: account.reject_mistyped_recipients,
      message_metadata_retention: account.message_metadata_retention,
      message_data_retention: account.message_data_retention,
    },
  });
  const { errors, isSubmitting, dirtyFields, isDirty } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const changed = Object.fromEntries(Object.entries(values).filter(([name]) => dirtyFields[name as keyof Values]));
    try {
      await update.mutateAsync(changed);
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: fieldErrorMessage(error, field) });
    }
  });

  const emptyToNull = (value: unknown) => (value === '' ? null : value);

  return (
    <form onSubmit={submit} className="space-y-8" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      {update.isSuccess && !isDirty ? <Alert tone="success">Settings saved.</Alert> : null}
      <fieldset
        disabled={!canEdit}
        className="space-y-5 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <legend className="sr-only">Account</legend>
        <h2 className="text-base font-semibold">Account</h2>
        <Field label="Name" htmlFor="name" error={errors.name?.message}>
          <TextInput id="name" isInvalid={Boolean(errors.name)} {...form.register('name')} />
        </Field>
        <Field
          label="Website"
          htmlFor="website"
          hint="example.com or https://example.com"
          error={errors.website?.message}
        >
          <TextInput
            id="website"
            inputMode="url"
            autoComplete="url"
            placeholder="example.com"
            isInvalid={Boolean(errors.website)}
            {...form.register('website', { setValueAs: emptyToNull })}
          />
        </Field>
        <Field label="About" htmlFor="about" hint="What you send and to whom." error={errors.about?.message}>
          <TextArea
            id="about"
            rows={3}
            className="font-sans"
            isInvalid={Boolean(errors.about)}
            {...form.register('about', { setValueAs: emptyToNull })}
          />
        </Field>
      </fieldset>
      <fieldset
        disabled={!canEdit}
        className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <legend className="sr-only">Sending defaults</legend>
        <h2 className="text-base font-semibold">Sending defaults</h2>
        <Checkbox
          label="Track opens"
          description="Add an invisible pixel to HTML mail. A message can override this."
          {...form.register('track_opens')}
        />
        <Checkbox
          label="Track clicks"
          description="Rewrite links in HTML mail through the tracking host."
          {...form.register('track_clicks')}
        />
      </fieldset>
      <fieldset
        disabled={!canEdit}
        className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <legend className="sr-only">Reputation Shield</legend>
        <h2 className="text-base font-semibold">Reputation Shield</h2>
        <p className="text-sm text-slate-600">
          Recipients refused here never reach the queue: the API reports them per recipient (a conversation is refused
          whole) and SMTP answers 553. Campaign audiences are not filtered.
        </p>
        <Checkbox
          label="Reject bad recipients"
          description="Refuse disposable (tempmail) recipient domains such as mailinator.com, from a built-in list."
          {...form.register('reject_bad_recipients')}
        />
        <Checkbox
          label="Reject mistyped recipients"
          description="Refuse likely typos of big mailbox providers, such as gmial.com or gmail.con."
          {...form.register('reject_mistyped_recipients')}
        />
      </fieldset>
      <fieldset
        disabled={!canEdit}
        className="grid gap-5 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 sm:grid-cols-2"
      >
        <legend className="sr-only">Retention</legend>
        <h2 className="text-base font-semibold sm:col-span-2">Retention</h2>
        <Field
          label="Message metadata (days)"
          htmlFor="metadata"
          hint="1-30 days: status, addresses, delivery log."
          error={errors.message_metadata_retention?.message}
        >
          <TextInput
            id="metadata"
            type="number"
            min={1}
            max={30}
            isInvalid={Boolean(errors.message_metadata_retention)}
            {...form.register('message_metadata_retention', { valueAsNumber: true })}
          />
        </Field>
        <Field
          label="Message content (days)"
          htmlFor="data"
          hint="0-30 days; 0 keeps no content after delivery."
          error={errors.message_data_retention?.message}
        >
          <TextInput
            id="data"
            type="number"
            min={0}
            max={30}
            isInvalid={Boolean(errors.message_data_retention)}
            {...form.register('message_data_retention', { valueAsNumber: true })}
          />
        </Field>
      </fieldset>
      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" isBusy={isSubmitting}>
            Save settings
          </Button>
        </div>
      ) : (
        <Alert tone="info">Your role can view these settings but not change them.</Alert>
      )}
    </form>
  );
}
