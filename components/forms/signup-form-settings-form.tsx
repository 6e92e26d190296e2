'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Checkbox, Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { fieldOfError } from '@/lib/client/api';
import { useAttributeDefinitions } from '@/lib/client/contact-queries';
import { useLists } from '@/lib/client/list-queries';
import type { SignupFormInput, SignupFormObject } from '@/lib/client/signup-form-queries';
import { CONFIRM_URL_PLACEHOLDER, createSignupFormSchema } from '@/lib/core/signup-forms/schemas';

type Values = z.input<typeof createSignupFormSchema>;
const FIELDS = [
  'name',
  'list_ids',
  'double_opt_in',
  'fields',
  'confirmation_subject',
  'confirmation_text',
  'redirect_url',
] as const;

/** Create and edit a signup form, validated by the API's own schema; server errors land on their field. */
export function SignupFormSettingsForm({
  accountId,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  accountId: string;
  initial?: SignupFormObject;
  submitLabel: string;
  onSubmit: (values: SignupFormInput) => Promise<void>;
  onCancel: () => void;
}) {
  const lists = useLists(accountId);
  const attributes = useAttributeDefinitions(accountId);
  const form = useForm<Values>({
    resolver: zodResolver(createSignupFormSchema),
    defaultValues: {
      name: initial?.name ?? '',
      list_ids: initial?.list_ids ?? [],
      double_opt_in: initial?.double_opt_in ?? true,
      fields: initial?.fields ?? [],
      confirmation_subject: initial?.confirmation_subject ?? '',
      confirmation_text: initial?.confirmation_text ?? '',
      redirect_url: initial?.redirect_url ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const isDoubleOptIn = form.watch('double_opt_in') !== false;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({
        name: values.name,
        list_ids: values.list_ids,
        double_opt_in: values.double_opt_in ?? true,
        fields: values.fields ?? [],
        confirmation_subject: values.confirmation_subject?.trim() || null,
        confirmation_text: values.confirmation_text?.trim() || null,
        redirect_url: values.redirect_url?.trim() || null,
      });
    } catch (error) {
      const field = fieldOfError(error, FIELDS);
      form.setError((field ?? 'root') as keyof Values | 'root', { message: (error as Error).message });
    }
  });
  if (lists.isPending || attributes.isPending) return <LoadingState label="Loading lists and attributes…" />;
  const listRows = lists.data?.data ?? [];
  const definitions = attributes.data ?? [];

  const toggle = (selected: string[] | undefined, value: string, isOn: boolean) =>
    isOn ? [...(selected ?? []), value] : (selected ?? []).filter((item) => item !== value);

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      <Field
        label="Name"
        htmlFor="signup-form-name"
        hint="Shown as the title of the hosted page."
        error={errors.name?.message}
      >
        <TextInput
          id="signup-form-name"
          autoComplete="off"
          isInvalid={Boolean(errors.name)}
          {...form.register('name')}
        />
      </Field>
      <fieldset className="space-y-2" aria-describedby="signup-form-lists-hint">
        <legend className="text-sm font-medium text-slate-800">Lists a signup joins</legend>
        {listRows.length === 0 ? (
          <Alert tone="warning">This account has no lists yet: create one first.</Alert>
        ) : (
          <Controller
            control={form.control}
            name="list_ids"
            render={({ field }) => (
              <div className="grid gap-2 sm:grid-cols-2">
                {listRows.map((list) => (
                  <Checkbox
                    key={list.id}
                    label={list.name}
                    checked={field.value?.includes(list.id) ?? false}
                    onChange={(event) => field.onChange(toggle(field.value, list.id, event.target.checked))}
                  />
                ))}
              </div>
            )}
          />
        )}
        <p id="signup-form-lists-hint" className={errors.list_ids ? 'text-xs text-red-700' : 'text-xs text-slate-500'}>
          {errors.list_ids?.message ?? 'Choose one or more.'}
        </p>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Fields to ask for</legend>
        <p className="text-xs text-slate-500">Email, first name and last name are always on the form.</p>
        {definitions.length === 0 ? (
          <p className="text-xs text-slate-500">Define contact attributes on the Contacts page to ask for more.</p>
        ) : (
          <Controller
            control={form.control}
            name="fields"
            render={({ field }) => (
              <div className="grid gap-2 sm:grid-cols-2">
                {definitions.map((definition) => (
                  <Checkbox
                    key={definition.key}
                    label={definition.label || definition.key}
                    description={`${definition.key} (${definition.type})`}
                    checked={field.value?.includes(definition.key) ?? false}
                    onChange={(event) => field.onChange(toggle(field.value, definition.key, event.target.checked))}
                  />
                ))}
              </div>
            )}
          />
        )}
        {errors.fields ? <p className="text-xs text-red-700">{errors.fields.message}</p> : null}
      </fieldset>
      <Controller
        control={form.control}
        name="double_opt_in"
        render={({ field }) => (
          <Checkbox
            label="Double opt-in"
            description="Recommended: people confirm by a link in an email before they receive campaigns."
            checked={field.value !== false}
            onChange={(event) => field.onChange(event.target.checked)}
          />
        )}
      />
      {isDoubleOptIn ? (
        <>
          <Field
            label="Confirmation email subject"
            htmlFor="signup-form-subject"
            hint="Empty: “Please confirm your subscription”."
            error={errors.confirmation_subject?.message}
          >
            <TextInput id="signup-form-subject" autoComplete="off" {...form.register('confirmation_subject')} />
          </Field>
          <Field
            label="Confirmation email text"
            htmlFor="signup-form-text"
            hint={`Plain text. ${CONFIRM_URL_PLACEHOLDER} marks where the confirmation link goes; without it the link goes below.`}
            error={errors.confirmation_text?.message}
          >
            <TextArea id="signup-form-text" rows={6} {...form.register('confirmation_text')} />
          </Field>
        </>
      ) : null}
      <Field
        label="Redirect after signup"
        htmlFor="signup-form-redirect"
        hint="Optional https:// address of your own thank-you page; empty: ours."
        error={errors.redirect_url?.message}
      >
        <TextInput
          id="signup-form-redirect"
          type="url"
          autoComplete="off"
          placeholder="https://example.com/thanks"
          {...form.register('redirect_url')}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
