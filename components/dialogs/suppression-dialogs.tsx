'use client';

import { SuppressionForm } from '@/components/forms/suppression-form';
import { KIND_LABELS } from '@/components/tables/suppression-table';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { formatCount } from '@/lib/client/format';
import {
  KINDS_KEPT_BY_WIPE,
  useCreateSuppression,
  useDeleteSuppression,
  useSuppressionTally,
  useWipeSuppressions,
} from '@/lib/client/suppression-queries';
import type { SuppressionObject } from '@/lib/client/types';

export function AddSuppressionDialog({
  accountId,
  isOpen,
  domains,
  onClose,
  onAdded,
}: {
  accountId: string;
  isOpen: boolean;
  domains: string[] | null;
  onClose: () => void;
  onAdded: (email: string) => void;
}) {
  const create = useCreateSuppression(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Add a suppression">
      {isOpen ? (
        <SuppressionForm
          domains={domains}
          onCancel={onClose}
          onSubmit={async (input) => {
            await create.mutateAsync(input);
            onAdded(input.email);
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function RemoveSuppressionDialog({
  accountId,
  suppression,
  onClose,
  onRemoved,
}: {
  accountId: string;
  suppression: SuppressionObject | null;
  onClose: () => void;
  onRemoved: (notice: string) => void;
}) {
  const remove = useDeleteSuppression(accountId);
  const scope = suppression?.domain ? `from ${suppression.domain}` : 'from every domain of the account';
  return (
    <ConfirmDialog
      isOpen={suppression !== null}
      title="Remove suppression"
      confirmLabel="Remove"
      onConfirm={() => remove.mutateAsync({ email: suppression!.email, domain: suppression!.domain })}
      onDone={() => onRemoved(`${suppression!.email} is no longer suppressed ${scope}.`)}
      onClose={onClose}
    >
      <p>
        Mail to <strong className="wrap-anywhere">{suppression?.email}</strong> {scope} will be sent again.
        {suppression?.kind === 'bounce'
          ? ' It bounced hard before: if the address still does not exist, it bounces again and counts against the bounce rate.'
          : ''}
        {suppression?.kind === 'complaint'
          ? ' This person marked your mail as spam: sending to them again risks more complaints.'
          : ''}
      </p>
    </ConfirmDialog>
  );
}

/**
 * "Remove all", after a count of what goes and what stays (protected entries and complaints), so
 * nobody wipes the list without knowing how much of it there is.
 */
export function WipeSuppressionsDialog({
  accountId,
  isOpen,
  domain,
  onClose,
  onWiped,
}: {
  accountId: string;
  isOpen: boolean;
  domain: string;
  onClose: () => void;
  onWiped: (notice: string) => void;
}) {
  const tally = useSuppressionTally(accountId, domain, { enabled: isOpen });
  const wipe = useWipeSuppressions(accountId);
  const where = domain ? `for ${domain}` : '';
  const removed = tally.data ? `${formatCount(tally.data.removed)}${tally.data.isComplete ? '' : '+'}` : '';
  const keptKinds = KINDS_KEPT_BY_WIPE.map((kind) => KIND_LABELS[kind].toLowerCase()).join(' and ');
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title={domain ? `Remove all suppressions for ${domain}?` : 'Remove all suppressions?'}
      confirmLabel={tally.data ? `Remove ${removed} suppression${tally.data.removed === 1 ? '' : 's'}` : 'Remove all'}
      isConfirmDisabled={!tally.data || tally.data.removed === 0}
      onConfirm={() => wipe.mutateAsync({ domain: domain || undefined })}
      onDone={(result) =>
        onWiped(result.message ? `Suppressions removed: ${result.message}.` : 'Suppressions removed.')
      }
      onClose={onClose}
    >
      <div className="space-y-3" data-testid="wipe-summary">
        {tally.isPending ? <LoadingState label="Counting suppressions…" /> : null}
        {tally.error ? <Alert tone="error">{tally.error.message}</Alert> : null}
        {tally.data ? (
          <>
            <p>
              <strong>{removed}</strong> suppression{tally.data.removed === 1 ? '' : 's'} {where} will be removed
              {tally.data.isComplete ? '' : ' (counting stopped at 5,000; there are more)'}: mail to those addresses is
              sent again, including addresses that bounced hard.
            </p>
            {tally.data.kept > 0 ? (
              <p>
                <strong>{formatCount(tally.data.kept)}</strong> {keptKinds} entr
                {tally.data.kept === 1 ? 'y stays' : 'ies stay'}: a wipe never removes them. Remove one of those on its
                own if you must.
              </p>
            ) : (
              <p>A wipe never removes {keptKinds} entries; this list has none.</p>
            )}
            <p className="font-medium">This cannot be undone.</p>
          </>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
