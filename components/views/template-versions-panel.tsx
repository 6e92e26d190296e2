'use client';

import { useState } from 'react';
import { TemplateVersionDialog } from '@/components/dialogs/template-dialogs';
import { TemplateVersionTable } from '@/components/tables/template-version-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState } from '@/components/ui/feedback';
import { useTemplateVersions } from '@/lib/client/template-queries';
import type { TemplateVersionObject } from '@/lib/client/types';

/** The published versions, newest first and paged; each opens read-only with the sample values. */
export function TemplateVersionsPanel({
  accountId,
  templateId,
  substitutions,
}: {
  accountId: string;
  templateId: string;
  substitutions: Record<string, unknown> | null;
}) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? null;
  const versions = useTemplateVersions(accountId, templateId, cursor);
  const [open, setOpen] = useState<TemplateVersionObject | null>(null);
  const rows = versions.data?.data ?? [];
  return (
    <section aria-labelledby="versions-heading" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="versions-heading" className="text-base font-semibold">
          Published versions
        </h2>
        <p className="text-xs text-slate-600">Newest first. A send without template_version uses the newest.</p>
      </div>
      {versions.isPending ? <LoadingState label="Loading versions…" /> : null}
      {versions.error ? (
        <Alert tone="error" title="The versions could not be loaded">
          {versions.error.message}
        </Alert>
      ) : null}
      {versions.data && rows.length === 0 ? (
        <EmptyState title={cursor ? 'No older versions' : 'Not published yet'}>
          {cursor ? null : 'Publish the draft to freeze it as version 1; only published versions can be sent.'}
        </EmptyState>
      ) : null}
      {rows.length > 0 ? <TemplateVersionTable versions={rows} onOpen={setOpen} /> : null}
      {cursors.length > 0 || versions.data?.pagination.has_more ? (
        <div className="flex justify-end gap-2">
          <Button variant="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </Button>
          <Button
            variant="secondary"
            disabled={!versions.data?.pagination.has_more}
            onClick={() =>
              versions.data?.pagination.next_cursor && setCursors([...cursors, versions.data.pagination.next_cursor])
            }
          >
            Older
          </Button>
        </div>
      ) : null}
      <TemplateVersionDialog
        accountId={accountId}
        version={open}
        substitutions={substitutions}
        onClose={() => setOpen(null)}
      />
    </section>
  );
}
