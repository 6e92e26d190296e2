import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { TemplateKind, TemplateObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export const KIND_LABELS: Record<TemplateKind, string> = { transactional: 'Transactional', campaign: 'Campaign' };

/** "Version 3", or that nothing can be sent with it yet. */
export const latestVersionLabel = (template: TemplateObject) => (template.latest_version === null ? 'Not published' : `Version ${template.latest_version}`);

/** The account's templates: name, kind, the latest published version and the last change. */
export function TemplateTable({ accountId, templates }: { accountId: string; templates: TemplateObject[] }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Template</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Kind</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Published</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Updated</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {templates.map((template) => (
            <tr key={template.id} data-template-row={template.name} className={`${STACKED.row} max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4`} role="row">
              <td className={`${STACKED.cell} max-lg:col-span-full`} role="cell">
                <Link href={`/${accountId}/templates/${template.id}`} className="font-medium text-brand-700 wrap-anywhere hover:underline">
                  {template.name}
                </Link>
                {template.subject ? <p className="line-clamp-1 font-mono text-xs text-slate-600 wrap-anywhere">{template.subject}</p> : null}
              </td>
              <td className={STACKED.cell} role="cell">
                <CellLabel>Kind</CellLabel>
                <Badge tone={template.kind === 'campaign' ? 'blue' : 'slate'}>{KIND_LABELS[template.kind]}</Badge>
              </td>
              <td className={STACKED.cell} role="cell" data-latest-version>
                <CellLabel>Published</CellLabel>
                <span className={template.latest_version === null ? 'text-slate-600' : ''}>{latestVersionLabel(template)}</span>
              </td>
              <td className={`${STACKED.cell} max-lg:col-span-full`} role="cell">
                <CellLabel>Updated</CellLabel>
                {formatDateTime(template.updated_at)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
