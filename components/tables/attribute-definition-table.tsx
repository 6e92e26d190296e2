import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import type { AttributeDefinition } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

export function AttributeDefinitionTable({
  definitions,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: {
  definitions: AttributeDefinition[];
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (definition: AttributeDefinition) => void;
  onDelete: (definition: AttributeDefinition) => void;
}) {
  const columns: Column<AttributeDefinition>[] = [
    {
      key: 'key',
      header: 'Key',
      cell: (definition) => <code className="font-mono text-sm font-medium wrap-anywhere">{definition.key}</code>,
    },
    {
      key: 'label',
      header: 'Label',
      cardLabel: true,
      className: (definition) => `text-sm ${definition.label ? '' : 'max-lg:hidden'}`,
      cell: (definition) => definition.label ?? <span className="text-slate-500">—</span>,
    },
    { key: 'type', header: 'Type', cell: (definition) => <Badge>{definition.type}</Badge> },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (definition) => (
        <div className="flex gap-1 lg:justify-end">
          {canEdit ? (
            <Button variant="ghost" size="sm" onClick={() => onEdit(definition)} aria-label={`Edit ${definition.key}`}>
              Edit
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700"
              onClick={() => onDelete(definition)}
              aria-label={`Delete ${definition.key}`}
            >
              Delete
            </Button>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <DataTable
      caption="Contact attributes"
      columns={columns}
      rows={definitions}
      rowKey={(definition) => definition.key}
      rowAttributes={(definition) => ({ 'data-attribute-row': definition.key })}
    />
  );
}
