'use client';

import { useMemo } from 'react';
import { CreateTemplateForm } from '@/components/forms/create-template-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { TemplatePreviewPanel } from '@/components/views/template-preview-panel';
import { useCreateTemplate, useDeleteTemplate, usePublishTemplate } from '@/lib/client/template-queries';
import { contentValueOf } from '@/lib/client/content-format';
import type { TemplateObject, TemplateVersionObject } from '@/lib/client/types';

export function CreateTemplateDialog({
  accountId,
  isOpen,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (template: TemplateObject) => void;
}) {
  const create = useCreateTemplate(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create a template">
      {isOpen ? (
        <CreateTemplateForm
          onCancel={onClose}
          onSubmit={async (values) => onCreated(await create.mutateAsync(values))}
        />
      ) : null}
    </Dialog>
  );
}

/** Publishing freezes what is saved, so the editor offers it only when nothing is unsaved. */
export function PublishTemplateDialog({
  accountId,
  template,
  onClose,
  onPublished,
}: {
  accountId: string;
  template: TemplateObject | null;
  onClose: () => void;
  onPublished: (version: TemplateVersionObject) => void;
}) {
  const publish = usePublishTemplate(accountId);
  const next = (template?.latest_version ?? 0) + 1;
  return (
    <ConfirmDialog
      isOpen={template !== null}
      title={`Publish version ${next}?`}
      confirmLabel={`Publish version ${next}`}
      variant="primary"
      onConfirm={() => publish.mutateAsync(template!.id)}
      onDone={onPublished}
      onClose={onClose}
    >
      <p>
        The saved draft of <strong className="wrap-anywhere">{template?.name}</strong> becomes version {next}, and never
        changes after that. Sends that name this template without a version use it from now on
        {template?.latest_version ? `; version ${template.latest_version} and earlier stay as they are` : ''}.
      </p>
    </ConfirmDialog>
  );
}

export function DeleteTemplateDialog({
  accountId,
  template,
  onClose,
  onDeleted,
}: {
  accountId: string;
  template: TemplateObject | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteTemplate(accountId);
  return (
    <ConfirmDialog
      isOpen={template !== null}
      title="Delete this template?"
      confirmLabel="Delete template"
      onConfirm={() => remove.mutateAsync(template!.id)}
      onDone={onDeleted}
      onClose={onClose}
    >
      <p>
        <strong className="wrap-anywhere">{template?.name}</strong> disappears from the dashboard and the API, and sends
        can no longer name it. Mail already accepted is not affected.
      </p>
    </ConfirmDialog>
  );
}

function Source({ label, children }: { label: string; children: string | null }) {
  return (
    <div className="space-y-1">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</p>
      {children === null ? (
        <p className="text-sm text-slate-600">None</p>
      ) : (
        <pre className="max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs ring-1 ring-slate-200 wrap-anywhere">
          {children}
        </pre>
      )}
    </div>
  );
}

/** A published version, read-only: its source as frozen, and rendered with the editor's sample values. */
export function TemplateVersionDialog({
  accountId,
  version,
  substitutions,
  onClose,
}: {
  accountId: string;
  version: TemplateVersionObject | null;
  substitutions: Record<string, unknown> | null;
  onClose: () => void;
}) {
  // Memoised: the preview re-renders when its parts change identity.
  const parts = useMemo(
    () =>
      version
        ? {
            subject: version.subject,
            preheader: version.preheader ?? '',
            content: contentValueOf({ html_content: version.html_content }),
            text_content: version.text_content ?? '',
          }
        : null,
    [version],
  );
  return (
    <Dialog isOpen={version !== null} onClose={onClose} title={`Version ${version?.version ?? ''}`}>
      {version && parts ? (
        <div className="space-y-4" data-testid="template-version">
          <p className="text-sm text-slate-600">
            Published versions never change. This is exactly what sends of version {version.version} use.
          </p>
          <Source label="Subject">{version.subject}</Source>
          {version.preheader ? <Source label="Preview text">{version.preheader}</Source> : null}
          <Source label="HTML body">{version.html_content}</Source>
          <Source label="Text body">{version.text_content}</Source>
          <TemplatePreviewPanel
            accountId={accountId}
            parts={parts}
            substitutions={substitutions}
            label={`Version ${version.version} preview`}
          />
        </div>
      ) : null}
    </Dialog>
  );
}
