import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/client/format';
import type { TemplateVersionObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

/** A template's published versions, newest first; each opens read-only. */
export function TemplateVersionTable({ versions, onOpen }: { versions: TemplateVersionObject[]; onOpen: (version: TemplateVersionObject) => void }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Version</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Subject</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Published</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {versions.map((version) => (
            <tr key={version.version} data-version-row={version.version} className={`${STACKED.row} max-lg:grid max-lg:grid-cols-[1fr_auto] max-lg:gap-x-4`} role="row">
              <td className={`${STACKED.cell} font-medium`} role="cell">
                Version {version.version}
              </td>
              <td className={`${STACKED.cell} max-lg:col-span-full max-lg:row-start-2`} role="cell">
                <CellLabel>Subject</CellLabel>
                <span className="font-mono text-xs wrap-anywhere">{version.subject}</span>
              </td>
              <td className={`${STACKED.cell} max-lg:col-span-full max-lg:row-start-3`} role="cell">
                <CellLabel>Published</CellLabel>
                {formatDateTime(version.created_at)}
              </td>
              <td className={`${STACKED.cell} max-lg:col-start-2 max-lg:row-start-1 lg:text-right`} role="cell">
                <Button size="sm" variant="secondary" aria-label={`View version ${version.version}`} onClick={() => onOpen(version)}>
                  View
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
