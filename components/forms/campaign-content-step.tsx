'use client';

import { useMemo, useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { textTargetOf } from '@/components/editor/block-field-controls';
import type { InsertTarget } from '@/components/editor/code-editor';
import { ContentEditor } from '@/components/editor/content-editor';
import { DEFAULT_SAMPLE_VALUES } from '@/components/forms/sample-values-form';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { Field, Select, TextArea, TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { TemplatePreviewPanel } from '@/components/views/template-preview-panel';
import type { DraftValues } from '@/lib/client/campaign-draft';
import { usePublishedTemplates } from '@/lib/client/campaign-queries';
import { CONTENT_FORMATS, sourceErrorOf, type SourceError } from '@/lib/client/content-format';

const SAMPLE_VALUES = JSON.parse(DEFAULT_SAMPLE_VALUES) as Record<string, unknown>;

/** Step 1: the subject and body written here (Visual, Markdown or HTML), or a published template; previewed as the server renders it. */
export function CampaignContentStep({ accountId, form }: { accountId: string; form: UseFormReturn<DraftValues> }) {
  const { register, formState } = form;
  const errors = formState.errors;
  const { can } = useAccountScopes(accountId);
  const [previewError, setPreviewError] = useState<SourceError | null>(null);
  const [mode, content, subject, preheader, text, isTextOwn, templateId] = useWatch({
    control: form.control,
    name: ['content_mode', 'content', 'subject', 'preheader', 'text_content', 'is_text_own', 'template_id'],
  });
  const insertTarget = useRef<InsertTarget | null>(null);
  const parts = useMemo(
    () => ({ subject, preheader, content, text_content: isTextOwn ? text : undefined }),
    [subject, preheader, content, text, isTextOwn],
  );
  const saveError = errors.content?.message
    ? (sourceErrorOf(errors.content.message, null) ?? {
        field: CONTENT_FORMATS.find((format) => format.name === content.format)!.source,
        line: null,
        message: errors.content.message,
      })
    : null;
  const templates = usePublishedTemplates(accountId);
  const chosen = templates.data?.find((template) => template.id === templateId);
  return (
    <div className="space-y-4">
      <Field
        label="Campaign name"
        htmlFor="campaign-name"
        hint="Only people in this account see it."
        error={errors.name?.message}
      >
        <TextInput id="campaign-name" autoComplete="off" isInvalid={Boolean(errors.name)} {...register('name')} />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Content</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" value="inline" {...register('content_mode')} /> Write it here
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" value="template" {...register('content_mode')} /> Use a published template
          </label>
        </div>
      </fieldset>
      {mode === 'template' ? (
        <div className="space-y-3">
          {templates.isPending ? <LoadingState label="Loading templates…" /> : null}
          {templates.error ? (
            <Alert tone="error" title="Templates could not be loaded">
              {templates.error.message}
            </Alert>
          ) : null}
          {templates.data && templates.data.length === 0 ? (
            <Alert tone="info">
              No template has a published version yet. Publish one on the Templates page, or write the content here.
            </Alert>
          ) : null}
          {templates.data && templates.data.length > 0 ? (
            <Field
              label="Template"
              htmlFor="campaign-template"
              hint="Its latest published version is sent; a later publish before sending is picked up."
              error={errors.template_id?.message}
            >
              <Select id="campaign-template" {...register('template_id')}>
                <option value="">Choose a template…</option>
                {templates.data.map((template) => (
                  <option key={template.id} value={template.id}>
                    {template.name} (version {template.latest_version})
                  </option>
                ))}
              </Select>
            </Field>
          ) : null}
          {chosen ? <p className="text-sm text-slate-700 wrap-anywhere">Subject: {chosen.subject ?? '—'}</p> : null}
        </div>
      ) : (
        <div className="grid gap-4 xl:grid-cols-2">
          <div className="min-w-0 space-y-4">
            <Field
              label="Subject"
              htmlFor="campaign-subject"
              hint="Contact fields work here: {{ first_name }}."
              error={errors.subject?.message}
            >
              <TextInput
                id="campaign-subject"
                autoComplete="off"
                isInvalid={Boolean(errors.subject)}
                onFocus={(event) => (insertTarget.current = textTargetOf(event))}
                {...register('subject')}
              />
            </Field>
            <Field
              label="Preview text"
              htmlFor="campaign-preheader"
              hint="Shown after the subject in most inboxes, hidden in the message itself. Optional."
              error={errors.preheader?.message}
            >
              <TextInput
                id="campaign-preheader"
                autoComplete="off"
                isInvalid={Boolean(errors.preheader)}
                onFocus={(event) => (insertTarget.current = textTargetOf(event))}
                {...register('preheader')}
              />
            </Field>
            <ContentEditor
              accountId={accountId}
              idPrefix="campaign"
              htmlLabel="HTML"
              value={content}
              sourceError={saveError ?? previewError}
              isReadOnly={Boolean(formState.disabled)}
              canReadAttributes={can('contacts:read')}
              insertTarget={insertTarget}
              onChange={(next) => form.setValue('content', next, { shouldDirty: true })}
            />
            <p className="text-xs text-slate-600">
              Put {'{{ unsubscribe_url }}'} where the unsubscribe link goes; without it a footer with one is added.
            </p>
            <Field
              label="Text"
              htmlFor="campaign-text"
              hint="The plain-text part: made from the body as it is saved, unless you write your own here."
              error={errors.text_content?.message}
            >
              <TextArea
                id="campaign-text"
                rows={5}
                isInvalid={Boolean(errors.text_content)}
                {...register('text_content', { onChange: () => form.setValue('is_text_own', true) })}
              />
            </Field>
          </div>
          <div className="min-w-0">
            <TemplatePreviewPanel
              accountId={accountId}
              parts={parts}
              substitutions={SAMPLE_VALUES}
              label="Campaign preview"
              onSourceError={setPreviewError}
            />
            <p className="mt-1 text-xs text-slate-600">
              Previewed with sample values (Ada Lovelace); each contact&apos;s own are filled in when sending.
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
