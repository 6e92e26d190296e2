import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/client/format';
import type { TemplateVersionObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

/** A template's published versions, newest first; each opens read-only. */
export function TemplateVersionTable({
  versions,
  onOpen,
}: {
  versions: TemplateVersionObject[];
  onOpen: (version: TemplateVersionObject) => void;
}) {
  const columns: Column<TemplateVersionObject>[] = [
    { key: 'version', header: 'Version', className: 'font-medium', cell: (version) => `Version ${version.version}` },
    {
      key: 'subject',
      header: 'Subject',
      cardLabel: true,
      className: 'max-lg:col-span-full max-lg:row-start-2',
      cell: (version) => <span className="font-mono text-xs wrap-anywhere">{version.subject}</span>,
    },
    {
      key: 'published',
      header: 'Published',
      cardLabel: true,
      className: 'max-lg:col-span-full max-lg:row-start-3',
      cell: (version) => formatDateTime(version.created_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'max-lg:col-start-2 max-lg:row-start-1 lg:text-right',
      cell: (version) => (
        <Button
          size="sm"
          variant="secondary"
          aria-label={`View version ${version.version}`}
          onClick={() => onOpen(version)}
        >
          View
        </Button>
      ),
    },
  ];
  return (
    <DataTable
      caption="Published versions"
      columns={columns}
      rows={versions}
      rowKey={(version) => String(version.version)}
      rowAttributes={(version) => ({ 'data-version-row': String(version.version) })}
      rowClassName="max-lg:grid max-lg:grid-cols-[1fr_auto] max-lg:gap-x-4"
    />
  );
}
