import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { TemplateKind, TemplateObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

export const KIND_LABELS: Record<TemplateKind, string> = { transactional: 'Transactional', campaign: 'Campaign' };

/** "Version 3", or that nothing can be sent with it yet. */
export const latestVersionLabel = (template: TemplateObject) =>
  template.latest_version === null ? 'Not published' : `Version ${template.latest_version}`;

/** The account's templates: name, kind, the latest published version and the last change. */
export function TemplateTable({ accountId, templates }: { accountId: string; templates: TemplateObject[] }) {
  const columns: Column<TemplateObject>[] = [
    {
      key: 'template',
      header: 'Template',
      className: 'max-lg:col-span-full',
      cell: (template) => (
        <>
          <Link
            href={`/${accountId}/templates/${template.id}`}
            className="font-medium text-brand-700 wrap-anywhere hover:underline"
          >
            {template.name}
          </Link>
          {template.subject ? (
            <p className="line-clamp-1 font-mono text-xs text-slate-600 wrap-anywhere">{template.subject}</p>
          ) : null}
        </>
      ),
    },
    {
      key: 'kind',
      header: 'Kind',
      cardLabel: true,
      cell: (template) => (
        <Badge tone={template.kind === 'campaign' ? 'blue' : 'slate'}>{KIND_LABELS[template.kind]}</Badge>
      ),
    },
    {
      key: 'published',
      header: 'Published',
      cardLabel: true,
      cellAttributes: () => ({ 'data-latest-version': '' }),
      cell: (template) => (
        <span className={template.latest_version === null ? 'text-slate-600' : ''}>{latestVersionLabel(template)}</span>
      ),
    },
    {
      key: 'updated',
      header: 'Updated',
      cardLabel: true,
      className: 'max-lg:col-span-full',
      cell: (template) => formatDateTime(template.updated_at),
    },
  ];
  return (
    <DataTable
      caption="Templates"
      columns={columns}
      rows={templates}
      rowKey={(template) => template.id}
      rowAttributes={(template) => ({ 'data-template-row': template.name })}
      rowClassName="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4"
    />
  );
}
