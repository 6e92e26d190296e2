'use client';

import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Field, TextArea, TextInput } from '@/components/ui/field';
import { Alert, LoadingState } from '@/components/ui/feedback';
import type { DraftValues } from '@/lib/client/campaign-draft';
import { usePublishedTemplates } from '@/lib/client/campaign-queries';

// The draft is the user's own HTML, not mail from a stranger, so images may load; scripts and
// everything else stay off (sandbox="" and this policy), as in the message page's preview.
const PREVIEW_POLICY = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: https:">`;

/** Step 1: the subject and bodies written here, or a published template; the HTML previewed as it is written. */
export function CampaignContentStep({ accountId, form }: { accountId: string; form: UseFormReturn<DraftValues> }) {
  const { register, formState } = form;
  const errors = formState.errors;
  const [mode, html, templateId] = useWatch({ control: form.control, name: ['content_mode', 'html_content', 'template_id'] });
  const templates = usePublishedTemplates(accountId);
  const chosen = templates.data?.find((template) => template.id === templateId);
  return (
    <div className="space-y-4">
      <Field label="Campaign name" htmlFor="campaign-name" hint="Only people in this account see it." error={errors.name?.message}>
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
          {templates.error ? <Alert tone="error" title="Templates could not be loaded">{templates.error.message}</Alert> : null}
          {templates.data && templates.data.length === 0 ? <Alert tone="info">No template has a published version yet. Publish one on the Templates page, or write the content here.</Alert> : null}
          {templates.data && templates.data.length > 0 ? (
            <Field label="Template" htmlFor="campaign-template" hint="Its latest published version is sent; a later publish before sending is picked up." error={errors.template_id?.message}>
              <select id="campaign-template" className="block w-full rounded-md border-0 py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300" {...register('template_id')}>
                <option value="">Choose a template…</option>
                {templates.data.map((template) => (
                  <option key={template.id} value={template.id}>
                    {template.name} (version {template.latest_version})
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          {chosen ? <p className="text-sm text-slate-700 wrap-anywhere">Subject: {chosen.subject ?? '—'}</p> : null}
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="min-w-0 space-y-4">
            <Field label="Subject" htmlFor="campaign-subject" hint="Contact fields work here: {{ first_name }}." error={errors.subject?.message}>
              <TextInput id="campaign-subject" autoComplete="off" isInvalid={Boolean(errors.subject)} {...register('subject')} />
            </Field>
            <Field label="HTML" htmlFor="campaign-html" hint="Put {{ unsubscribe_url }} where the unsubscribe link goes; without it a footer with one is added." error={errors.html_content?.message}>
              <TextArea id="campaign-html" rows={12} isInvalid={Boolean(errors.html_content)} {...register('html_content')} />
            </Field>
            <Field label="Text" htmlFor="campaign-text" hint="Optional: the plain-text part." error={errors.text_content?.message}>
              <TextArea id="campaign-text" rows={5} isInvalid={Boolean(errors.text_content)} {...register('text_content')} />
            </Field>
          </div>
          <div className="min-w-0">
            <p className="mb-1 text-sm font-medium text-slate-800">Preview</p>
            {html.trim() ? (
              <iframe title="Campaign HTML preview" sandbox="" srcDoc={PREVIEW_POLICY + html} className="h-[28rem] w-full rounded border border-slate-200 bg-white" />
            ) : (
              <p className="rounded border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">The HTML appears here as you write it. Placeholders such as {'{{ first_name }}'} are filled in per contact when sending.</p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
