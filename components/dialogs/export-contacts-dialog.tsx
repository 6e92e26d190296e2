'use client';

import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useStartExport, type ContactExportSelection } from '@/lib/client/export-queries';

/**
 * "Export N contacts?": says what goes into the file (and how many, when known), starts the
 * export, then opens the exports page, where its progress and its download link are.
 */
export function ExportContactsDialog({
  accountId,
  selection,
  title,
  children,
  onClose,
}: {
  accountId: string;
  /** Null: closed. */
  selection: ContactExportSelection | null;
  title: string;
  children: ReactNode;
  onClose: () => void;
}) {
  const router = useRouter();
  const start = useStartExport(accountId);
  return (
    <ConfirmDialog
      isOpen={selection !== null}
      title={title}
      variant="primary"
      confirmLabel="Start export"
      onConfirm={() => start.mutateAsync(selection ?? {})}
      onDone={(job) => router.push(`/${accountId}/contacts/exports?export=${job.id}`)}
      onClose={onClose}
    >
      <div data-testid="export-contacts-summary" className="space-y-3">
        {children}
        <p>
          The file is a CSV: email, first name, last name, unsubscribed, created, and one column per attribute. It is
          written in the background, so you can leave the page; the download link works for 24 hours.
        </p>
      </div>
    </ConfirmDialog>
  );
}
