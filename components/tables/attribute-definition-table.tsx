import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import type { AttributeDefinition } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export function AttributeDefinitionTable({ definitions, canEdit, canDelete, onEdit, onDelete }: { definitions: AttributeDefinition[]; canEdit: boolean; canDelete: boolean; onEdit: (definition: AttributeDefinition) => void; onDelete: (definition: AttributeDefinition) => void }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Key</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Label</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Type</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {definitions.map((definition) => (
            <tr key={definition.key} data-attribute-row={definition.key} className={STACKED.row} role="row">
              <td className={STACKED.cell} role="cell">
                <code className="font-mono text-sm font-medium wrap-anywhere">{definition.key}</code>
              </td>
              <td className={`${STACKED.cell} text-sm ${definition.label ? '' : 'max-lg:hidden'}`} role="cell">
                <CellLabel>Label</CellLabel>
                {definition.label ?? <span className="text-slate-500">—</span>}
              </td>
              <td className={STACKED.cell} role="cell">
                <Badge>{definition.type}</Badge>
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                <div className="flex gap-1 lg:justify-end">
                  {canEdit ? (
                    <Button variant="ghost" size="sm" onClick={() => onEdit(definition)} aria-label={`Edit ${definition.key}`}>
                      Edit
                    </Button>
                  ) : null}
                  {canDelete ? (
                    <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(definition)} aria-label={`Delete ${definition.key}`}>
                      Delete
                    </Button>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
