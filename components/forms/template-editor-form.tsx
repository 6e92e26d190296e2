'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { SELECT } from '@/components/forms/contact-filter-form';
import { KIND_LABELS } from '@/components/tables/template-table';
import { Button } from '@/components/ui/button';
import { Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { ApiError, fieldOfError } from '@/lib/client/api';
import type { TemplateKind, TemplateObject } from '@/lib/client/types';
import { TEMPLATE_KINDS, updateTemplateSchema, type UpdateTemplateInput } from '@/lib/core/templates/schemas';

type Values = { name: string; kind: TemplateKind; subject: string; html_content: string; text_content: string; revision: number };
export type DraftParts = Pick<Values, 'subject' | 'html_content' | 'text_content'>;
const FIELDS = ['name', 'kind', 'subject', 'html_content', 'text_content'] as const;
const HINT = <>Jinja: <code>{'{{ first_name }}'}</code>, <code>{'{% if plan %}…{% endif %}'}</code>. Values are escaped in HTML unless marked <code>| safe</code>.</>;

export const draftValues = (template: TemplateObject): Values => ({
  name: template.name,
  kind: template.kind,
  subject: template.subject ?? '',
  html_content: template.html_content ?? '',
  text_content: template.text_content ?? '',
  revision: template.revision,
});

/**
 * The draft, validated by the API's own update schema. Each save carries the revision it was based
 * on, so a change made elsewhere meanwhile is a 409 the editor resolves (load it, or save over it)
 * instead of a silent overwrite. A 409 with Retry-After means only "busy": nothing was saved.
 */
export function TemplateEditorForm({
  template,
  isReadOnly,
  onSave,
  onLoadLatest,
  onPartsChange,
  onDirtyChange,
}: {
  template: TemplateObject;
  isReadOnly: boolean;
  onSave: (body: UpdateTemplateInput) => Promise<TemplateObject>;
  onLoadLatest: () => Promise<TemplateObject>;
  onPartsChange: (parts: DraftParts) => void;
  onDirtyChange: (isDirty: boolean) => void;
}) {
  const form = useForm<Values>({ resolver: zodResolver(updateTemplateSchema) as unknown as Resolver<Values>, defaultValues: draftValues(template) });
  const { errors, isSubmitting, isDirty } = form.formState;
  const [conflict, setConflict] = useState<{ latest: TemplateObject } | null>(null);
  const [busyMessage, setBusyMessage] = useState<string | null>(null);
  const [isWaiting, setIsWaiting] = useState(false);
  const [subject, html, text] = useWatch({ control: form.control, name: ['subject', 'html_content', 'text_content'] });

  useEffect(() => onPartsChange({ subject, html_content: html, text_content: text }), [subject, html, text, onPartsChange]);
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  // A newer draft (published here, or changed elsewhere) replaces an untouched form, never an older
  // copy from a refetch that raced a save. Edits in progress stay: saving meets the revision check.
  useEffect(() => {
    if (!isDirty && template.revision > form.getValues('revision')) form.reset(draftValues(template));
  }, [template, isDirty, form]);

  const save = form.handleSubmit(async (values) => {
    const submitted = form.getValues();
    setConflict(null);
    setBusyMessage(null);
    try {
      const saved = await onSave(values);
      // What was typed while the save was on its way stays, as an unsaved change.
      const current = form.getValues();
      form.reset(draftValues(saved));
      for (const name of FIELDS) if (current[name] !== submitted[name]) form.setValue(name, current[name], { shouldDirty: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.retryAfterSeconds !== null) {
        const seconds = Math.max(1, error.retryAfterSeconds);
        setBusyMessage(`Another change to this template was being written, so nothing was saved. Save works again in ${seconds} s.`);
        setIsWaiting(true);
        setTimeout(() => setIsWaiting(false), seconds * 1000);
      } else if (error instanceof ApiError && error.status === 409) {
        const latest = await onLoadLatest().catch(() => null);
        if (latest) setConflict({ latest });
        else form.setError('root', { message: error.message });
      } else {
        const field = fieldOfError(error, FIELDS);
        form.setError((field ?? 'root') as keyof Values | 'root', { message: (error as Error).message });
      }
    }
  });

  const loadLatest = (latest: TemplateObject) => {
    setConflict(null);
    form.reset(draftValues(latest));
  };
  const saveOver = (latest: TemplateObject) => {
    setConflict(null);
    form.setValue('revision', latest.revision);
    void save();
  };

  return (
    <form onSubmit={save} className="space-y-4" noValidate aria-label="Template draft">
      {errors.root ? <Alert tone="error">{errors.root.message}</Alert> : null}
      {busyMessage ? (
        <div data-testid="template-busy">
          <Alert tone="warning" title="The template is busy">{busyMessage}</Alert>
        </div>
      ) : null}
      {conflict ? (
        <div data-testid="template-conflict">
          <Alert tone="warning" title="This draft was changed elsewhere">
            <p>
              Someone saved or published it after you opened it (now at revision {conflict.latest.revision}); your changes were not saved. Load the latest draft and lose your
              changes, or save yours over it.
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button size="sm" variant="secondary" onClick={() => loadLatest(conflict.latest)}>
                Load the latest draft
              </Button>
              <Button size="sm" onClick={() => saveOver(conflict.latest)}>
                Save mine over it
              </Button>
            </div>
          </Alert>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <Field label="Name" htmlFor="template-name" error={errors.name?.message}>
          <TextInput id="template-name" autoComplete="off" readOnly={isReadOnly} isInvalid={Boolean(errors.name)} {...form.register('name')} />
        </Field>
        <Field label="Kind" htmlFor="template-kind" error={errors.kind?.message}>
          <select id="template-kind" className={SELECT} disabled={isReadOnly} {...form.register('kind')}>
            {TEMPLATE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field label="Subject" htmlFor="template-subject" hint={HINT} error={errors.subject?.message}>
        <TextInput id="template-subject" autoComplete="off" spellCheck={false} className="font-mono" readOnly={isReadOnly} isInvalid={Boolean(errors.subject)} {...form.register('subject')} />
      </Field>
      <Field label="HTML body" htmlFor="template-html" error={errors.html_content?.message}>
        <TextArea id="template-html" rows={14} spellCheck={false} readOnly={isReadOnly} isInvalid={Boolean(errors.html_content)} {...form.register('html_content')} />
      </Field>
      <Field label="Text body" htmlFor="template-text" hint="For mail clients that show no HTML. Leave it empty to send HTML only." error={errors.text_content?.message}>
        <TextArea id="template-text" rows={8} spellCheck={false} readOnly={isReadOnly} isInvalid={Boolean(errors.text_content)} {...form.register('text_content')} />
      </Field>
      {isReadOnly ? null : (
        <div className="flex flex-wrap items-center justify-end gap-3">
          <span className="text-xs text-slate-600" data-testid="draft-status">
            {isDirty ? 'Unsaved changes' : 'All changes saved'}
          </span>
          <Button type="submit" isBusy={isSubmitting} disabled={!isDirty || isWaiting}>
            Save draft
          </Button>
        </div>
      )}
    </form>
  );
}
