'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { CreateTemplateDialog } from '@/components/dialogs/template-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { KIND_LABELS, TemplateTable } from '@/components/tables/template-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { Field, Select } from '@/components/ui/field';
import { ApiError } from '@/lib/client/api';
import { useTemplates } from '@/lib/client/template-queries';
import type { TemplateKind } from '@/lib/client/types';
import { TEMPLATE_KINDS } from '@/lib/core/templates/schemas';

/** The account's templates, newest first, filtered by kind. */
export function TemplatesView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const [kind, setKind] = useState<TemplateKind | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const templates = useTemplates(
    accountId,
    new URLSearchParams({ limit: '25', ...(kind ? { kind } : {}), ...(cursor ? { after: cursor } : {}) }).toString(),
  );
  const [isCreating, setIsCreating] = useState(false);
  const rows = templates.data?.data ?? [];
  const createButton = can('templates:write') ? (
    <Button onClick={() => setIsCreating(true)}>Create template</Button>
  ) : null;
  const filterBy = (value: TemplateKind | '') => {
    setKind(value);
    setCursors([]);
  };

  return (
    <>
      <PageHeader
        title="Templates"
        description="Subjects and bodies with Jinja substitutions ({{ first_name }}). Edit a draft, preview it with a contact's values, and publish it: sends use published versions, which never change."
        actions={createButton}
      />
      <div className="space-y-4">
        <Field label="Kind" isCompact className="max-w-xs">
          <Select
            aria-label="Filter templates by kind"
            value={kind}
            onChange={(event) => filterBy(event.target.value as TemplateKind | '')}
          >
            <option value="">All kinds</option>
            {TEMPLATE_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
        {templates.isPending ? <LoadingState label="Loading templates…" /> : null}
        {templates.error ? (
          <Alert
            tone={templates.error instanceof ApiError && templates.error.status === 403 ? 'warning' : 'error'}
            title="Templates could not be loaded"
          >
            {templates.error.message}
          </Alert>
        ) : null}
        {templates.data && rows.length === 0 ? (
          <EmptyState
            title={
              cursor
                ? 'No more templates'
                : kind
                  ? `No ${KIND_LABELS[kind].toLowerCase()} templates`
                  : 'No templates yet'
            }
            action={cursor || kind ? null : createButton}
          >
            {cursor || kind
              ? null
              : 'Create a template, write its subject and body, and publish it; then send it with template_id from the API.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <TemplateTable accountId={accountId} templates={rows} /> : null}
        {cursors.length > 0 || templates.data?.pagination.has_more ? (
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              disabled={!templates.data?.pagination.has_more}
              onClick={() =>
                templates.data?.pagination.next_cursor &&
                setCursors([...cursors, templates.data.pagination.next_cursor])
              }
            >
              Next
            </Button>
          </div>
        ) : null}
      </div>
      <CreateTemplateDialog
        accountId={accountId}
        isOpen={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(template) => router.push(`/${accountId}/templates/${template.id}`)}
      />
    </>
  );
}
