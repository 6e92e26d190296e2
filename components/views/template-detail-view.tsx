'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { DeleteTemplateDialog, PublishTemplateDialog } from '@/components/dialogs/template-dialogs';
import { DEFAULT_SAMPLE_VALUES, parseSampleValues, SampleValuesForm } from '@/components/forms/sample-values-form';
import { TemplateEditorForm, type DraftParts } from '@/components/forms/template-editor-form';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { KIND_LABELS, latestVersionLabel } from '@/components/tables/template-table';
import { Button } from '@/components/ui/button';
import { Alert, Badge, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import type { SourceError } from '@/lib/client/content-format';
import { formatDateTime } from '@/lib/client/format';
import { useTemplate, useUpdateTemplate } from '@/lib/client/template-queries';
import { PreflightPanel } from './preflight-panel';
import { TemplatePreviewPanel } from './template-preview-panel';
import { TemplateVersionsPanel } from './template-versions-panel';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A template: its draft in an editor beside a live preview, publishing, and its published versions. */
export function TemplateDetailView({ accountId, templateId }: { accountId: string; templateId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const template = useTemplate(accountId, templateId);
  const update = useUpdateTemplate(accountId);
  const [parts, setParts] = useState<DraftParts | null>(null);
  const [isDirty, setIsDirty] = useState(false);
  const [sampleJson, setSampleJson] = useState(DEFAULT_SAMPLE_VALUES);
  const [dialog, setDialog] = useState<'publish' | 'delete' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sample = useMemo(() => parseSampleValues(sampleJson), [sampleJson]);
  const substitutions = 'values' in sample ? sample.values : null;
  const onDirtyChange = useCallback((dirty: boolean) => setIsDirty(dirty), []);
  const [previewError, setPreviewError] = useState<SourceError | null>(null);

  if (template.isPending) return <LoadingState label="Loading template…" />;
  if (template.error) {
    const status = template.error instanceof ApiError ? template.error.status : 0;
    return (
      <Alert
        tone={status === 403 || status === 404 ? 'warning' : 'error'}
        title={status === 404 ? 'No such template' : 'This template could not be shown'}
      >
        {template.error.message}{' '}
        <Link href={`/${accountId}/templates`} className="font-medium underline">
          All templates
        </Link>
      </Alert>
    );
  }
  const data = template.data;
  const canWrite = can('templates:write');

  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={data.kind === 'campaign' ? 'blue' : 'slate'}>{KIND_LABELS[data.kind]}</Badge>
            <span data-testid="template-latest-version">{latestVersionLabel(data)}</span>
            <span>Updated {formatDateTime(data.updated_at)}</span>
            <Link href={`/${accountId}/templates`} className="text-brand-700 hover:underline">
              All templates
            </Link>
          </span>
        }
        actions={
          <>
            {canWrite ? (
              <Button
                disabled={isDirty}
                onClick={() => setDialog('publish')}
                aria-describedby={isDirty ? 'publish-hint' : undefined}
              >
                Publish…
              </Button>
            ) : null}
            {can('templates:delete') ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setDialog('delete')}>
                Delete…
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-8">
        {canWrite && isDirty ? (
          <p id="publish-hint" className="text-xs text-slate-600">
            Save the draft to publish it: publishing freezes what is saved.
          </p>
        ) : null}
        {notice ? (
          <div data-testid="template-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        <div className="grid gap-8 lg:grid-cols-2">
          <Panel title="Draft">
            <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
              <TemplateEditorForm
                accountId={accountId}
                previewError={previewError}
                canReadAttributes={can('contacts:read')}
                template={data}
                isReadOnly={!canWrite}
                onSave={async (body) => {
                  setNotice(null);
                  return update.mutateAsync({ id: data.id, ...body });
                }}
                onLoadLatest={async () => (await template.refetch({ throwOnError: true })).data!}
                onPartsChange={setParts}
                onDirtyChange={onDirtyChange}
              />
            </div>
          </Panel>
          <Panel title="Preview">
            <SampleValuesForm
              accountId={accountId}
              json={sampleJson}
              error={'error' in sample ? sample.error : null}
              canSearchContacts={can('contacts:read')}
              onChange={setSampleJson}
            />
            {parts ? (
              <TemplatePreviewPanel
                accountId={accountId}
                parts={parts}
                substitutions={substitutions}
                onSourceError={setPreviewError}
              />
            ) : null}
          </Panel>
        </div>
        <PreflightPanel
          accountId={accountId}
          target={{ kind: 'template', templateId: data.id }}
          runKey={data.updated_at}
        />
        <TemplateVersionsPanel accountId={accountId} templateId={data.id} substitutions={substitutions} />
      </div>
      <PublishTemplateDialog
        accountId={accountId}
        template={dialog === 'publish' ? data : null}
        onClose={() => setDialog(null)}
        onPublished={(version) =>
          setNotice(`Version ${version.version} published: sends of this template use it from now on.`)
        }
      />
      <DeleteTemplateDialog
        accountId={accountId}
        template={dialog === 'delete' ? data : null}
        onClose={() => setDialog(null)}
        onDeleted={() => router.push(`/${accountId}/templates`)}
      />
    </>
  );
}
