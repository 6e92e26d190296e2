'use client';

import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import type { InsertTarget } from '@/components/editor/code-editor';
import { textTargetOf } from '@/components/editor/block-field-controls';
import { ContentEditor } from '@/components/editor/content-editor';
import { KIND_LABELS } from '@/components/tables/template-table';
import { Button } from '@/components/ui/button';
import { Field, Select, TextArea, TextInput } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { ApiError, fieldOfError } from '@/lib/client/api';
import {
  contentBodyOf,
  contentValueOf,
  sourceErrorOf,
  type ContentValue,
  type SourceError,
} from '@/lib/client/content-format';
import type { TemplateKind, TemplateObject } from '@/lib/client/types';
import { useAutosaveOnPause } from '@/lib/client/use-autosave-on-pause';
import { useUnsavedChangesWarning } from '@/lib/client/use-unsaved-changes-warning';
import { TEMPLATE_KINDS, updateTemplateSchema, type UpdateTemplateInput } from '@/lib/core/templates/schemas';

type Values = {
  name: string;
  kind: TemplateKind;
  subject: string;
  preheader: string;
  content: ContentValue;
  text_content: string;
  /** The text part is the author's (saved as theirs, or edited here): it goes back with each save. */
  is_text_own: boolean;
  revision: number;
};
/** `text_content` is undefined when the server makes it from the body (Markdown or Visual, left untouched). */
export type DraftParts = Pick<Values, 'subject' | 'preheader' | 'content'> & { text_content: string | undefined };
const FIELDS = ['name', 'kind', 'subject', 'preheader', 'content', 'text_content', 'is_text_own'] as const;
const CONTENT_FIELDS = ['format', 'html_content', 'markdown_content', 'blocks_content'];
// The API's field names: the body's are shown on the content editor.
const FORM_FIELDS = [...FIELDS, ...CONTENT_FIELDS];
const formFieldOf = (field: string) => (CONTENT_FIELDS.includes(field) ? 'content' : (field as keyof Values));
const HINT = (
  <>
    Jinja: <code>{'{{ first_name }}'}</code>, <code>{'{% if plan %}…{% endif %}'}</code>. Values are escaped in HTML
    unless marked <code>| safe</code>.
  </>
);

export const draftValues = (template: TemplateObject): Values => ({
  name: template.name,
  kind: template.kind,
  subject: template.subject ?? '',
  preheader: template.preheader ?? '',
  content: contentValueOf(template),
  text_content: template.text_content ?? '',
  is_text_own: !template.text_generated,
  revision: template.revision,
});

// A text part the server generated goes back only once the user edits it: sent as is, it would stop
// following the body. Left out, the server keeps the author's own text or makes it again.
const bodyOf = ({ content, text_content, is_text_own, ...values }: Values): UpdateTemplateInput => ({
  ...values,
  ...contentBodyOf(content),
  ...(is_text_own ? { text_content } : {}),
});

/** The API's own update schema over the body the form would send; each message goes to its field. */
const resolver: Resolver<Values> = async (values) => {
  const parsed = updateTemplateSchema.safeParse(bodyOf(values));
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<Values> = {};
  for (const issue of parsed.error.issues) {
    const apiField = issue.path.join('.');
    const field = formFieldOf(String(issue.path[0]));
    errors[field] ??= {
      type: apiField,
      message: field === 'content' ? `${apiField}: ${issue.message}` : issue.message,
    };
  }
  return { values: {}, errors };
};

/**
 * The draft, validated by the API's own update schema and saved as the user types (Save draft saves
 * at once). Each save carries the revision it was based on, so a change made elsewhere meanwhile is
 * a 409 the editor resolves (load it, or save over it) instead of a silent overwrite. A 409 with
 * Retry-After means only "busy": nothing was saved, and the next save waits that long.
 */
export function TemplateEditorForm({
  template,
  isReadOnly,
  onSave,
  onLoadLatest,
  onPartsChange,
  onDirtyChange,
  accountId,
  previewError,
  canReadAttributes,
}: {
  accountId: string;
  previewError: SourceError | null;
  canReadAttributes: boolean;
  template: TemplateObject;
  isReadOnly: boolean;
  onSave: (body: UpdateTemplateInput) => Promise<TemplateObject>;
  onLoadLatest: () => Promise<TemplateObject>;
  onPartsChange: (parts: DraftParts) => void;
  onDirtyChange: (isDirty: boolean) => void;
}) {
  const form = useForm<Values>({ resolver, defaultValues: draftValues(template) });
  const { errors, isSubmitting, isDirty } = form.formState;
  const [conflict, setConflict] = useState<{ latest: TemplateObject } | null>(null);
  const [busyMessage, setBusyMessage] = useState<string | null>(null);
  const [isWaiting, setIsWaiting] = useState(false);
  const [subject, preheader, content, text, isTextOwn] = useWatch({
    control: form.control,
    name: ['subject', 'preheader', 'content', 'text_content', 'is_text_own'],
  });
  const insertTarget = useRef<InsertTarget | null>(null);

  useEffect(
    () => onPartsChange({ subject, preheader, content, text_content: isTextOwn ? text : undefined }),
    [subject, preheader, content, text, isTextOwn, onPartsChange],
  );
  useUnsavedChangesWarning(isDirty && !isReadOnly);
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  // A newer draft (published here, or changed elsewhere) replaces an untouched form, never an older
  // copy from a refetch that raced a save. Edits in progress stay: saving meets the revision check.
  useEffect(() => {
    if (!isDirty && template.revision > form.getValues('revision')) form.reset(draftValues(template));
  }, [template, isDirty, form]);

  const save = form.handleSubmit(async () => {
    const submitted = form.getValues();
    setConflict(null);
    setBusyMessage(null);
    try {
      const saved = await onSave(bodyOf(submitted));
      // What was typed while the save was on its way stays, as an unsaved change.
      const current = form.getValues();
      form.reset(draftValues(saved));
      for (const name of FIELDS)
        if (JSON.stringify(current[name]) !== JSON.stringify(submitted[name]))
          form.setValue(name, current[name], { shouldDirty: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.retryAfterSeconds !== null) {
        const seconds = Math.max(1, error.retryAfterSeconds);
        setBusyMessage(
          `Another change to this template was being written, so nothing was saved. Save works again in ${seconds} s.`,
        );
        setIsWaiting(true);
        setTimeout(() => setIsWaiting(false), seconds * 1000);
      } else if (error instanceof ApiError && error.status === 409) {
        const latest = await onLoadLatest().catch(() => null);
        if (latest) setConflict({ latest });
        else form.setError('root', { message: error.message });
      } else {
        const field = fieldOfError(error, FORM_FIELDS);
        form.setError(field ? formFieldOf(field) : 'root', {
          type: field ?? 'root',
          message: (error as Error).message,
        });
      }
    }
  });
  useAutosaveOnPause(form, save, !isReadOnly && !conflict && !isWaiting);
  const contentError = errors.content?.message
    ? sourceErrorOf(errors.content.message, errors.content.type === 'validate' ? null : String(errors.content.type))
    : null;

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
          <Alert tone="warning" title="The template is busy">
            {busyMessage}
          </Alert>
        </div>
      ) : null}
      {conflict ? (
        <div data-testid="template-conflict">
          <Alert tone="warning" title="This draft was changed elsewhere">
            <p>
              Someone saved or published it after you opened it (now at revision {conflict.latest.revision}); your
              changes were not saved. Load the latest draft and lose your changes, or save yours over it.
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
          <TextInput
            id="template-name"
            autoComplete="off"
            readOnly={isReadOnly}
            isInvalid={Boolean(errors.name)}
            {...form.register('name')}
          />
        </Field>
        <Field label="Kind" htmlFor="template-kind" error={errors.kind?.message}>
          <Select id="template-kind" disabled={isReadOnly} {...form.register('kind')}>
            {TEMPLATE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="Subject" htmlFor="template-subject" hint={HINT} error={errors.subject?.message}>
        <TextInput
          id="template-subject"
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          readOnly={isReadOnly}
          isInvalid={Boolean(errors.subject)}
          onFocus={(event) => (insertTarget.current = textTargetOf(event))}
          {...form.register('subject')}
        />
      </Field>
      <Field
        label="Preview text"
        htmlFor="template-preheader"
        hint="Shown after the subject in most inboxes, hidden in the message itself. Optional."
        error={errors.preheader?.message}
      >
        <TextInput
          id="template-preheader"
          autoComplete="off"
          readOnly={isReadOnly}
          isInvalid={Boolean(errors.preheader)}
          onFocus={(event) => (insertTarget.current = textTargetOf(event))}
          {...form.register('preheader')}
        />
      </Field>
      <ContentEditor
        accountId={accountId}
        idPrefix="template"
        htmlLabel="HTML body"
        value={content}
        sourceError={contentError ?? previewError}
        isReadOnly={isReadOnly}
        canReadAttributes={canReadAttributes}
        insertTarget={insertTarget}
        onChange={(next) => form.setValue('content', next, { shouldDirty: true })}
      />
      <Field
        label="Text body"
        htmlFor="template-text"
        hint="For mail clients that show no HTML: made from the body as it is saved, unless you write your own here (empty it to have it made again)."
        error={errors.text_content?.message}
      >
        <TextArea
          id="template-text"
          rows={8}
          spellCheck={false}
          readOnly={isReadOnly}
          isInvalid={Boolean(errors.text_content)}
          {...form.register('text_content', { onChange: () => form.setValue('is_text_own', true) })}
        />
      </Field>
      {isReadOnly ? null : (
        <div className="flex flex-wrap items-center justify-end gap-3">
          <span className="text-xs text-slate-600" data-testid="draft-status" role="status">
            {isSubmitting ? 'Saving…' : isDirty ? 'Unsaved changes' : 'All changes saved'}
          </span>
          <Button type="submit" isBusy={isSubmitting} disabled={!isDirty || isWaiting}>
            Save draft
          </Button>
        </div>
      )}
    </form>
  );
}
