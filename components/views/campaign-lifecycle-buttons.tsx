'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/feedback';
import { useCampaignLifecycle, useDuplicateCampaign, type CampaignObject } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';

const messagesLabel = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;

/** Messages that have no outcome yet (and recipients not yet queued): what a cancel stops. */
export function unsentCount(campaign: CampaignObject): number {
  const counts = campaign.counts;
  if (!counts) return 0;
  return Math.max(0, counts.recipients - counts.delivered - counts.bounced - counts.failed - counts.suppressed);
}

/**
 * Pause, Resume and Cancel where the campaign's state allows them (the API's rules), and Duplicate
 * in any state. Cancel is confirmed, naming how many messages will not be sent.
 */
export function CampaignLifecycleButtons({
  accountId,
  campaign,
  canSend,
  canWrite,
}: {
  accountId: string;
  campaign: CampaignObject;
  canSend: boolean;
  canWrite: boolean;
}) {
  const router = useRouter();
  const lifecycle = useCampaignLifecycle(accountId, campaign.id);
  const duplicate = useDuplicateCampaign(accountId, campaign.id);
  const [isCancelling, setIsCancelling] = useState(false);
  const { status } = campaign;
  const canPause = canSend && status === 'sending';
  const canResume = canSend && status === 'paused';
  const canCancel = canSend && (status === 'scheduled' || status === 'sending' || status === 'paused');
  const unsent = unsentCount(campaign);
  const error = lifecycle.error ?? duplicate.error;
  if (!canPause && !canResume && !canCancel && !canWrite) return null;
  return (
    <div className="space-y-2">
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex flex-wrap gap-2" aria-label="Campaign actions" role="group">
        {canPause ? (
          <Button
            variant="secondary"
            isBusy={lifecycle.isPending && lifecycle.variables === 'pause'}
            onClick={() => lifecycle.mutate('pause')}
          >
            Pause
          </Button>
        ) : null}
        {canResume ? (
          <Button
            isBusy={lifecycle.isPending && lifecycle.variables === 'resume'}
            onClick={() => lifecycle.mutate('resume')}
          >
            Resume
          </Button>
        ) : null}
        {canCancel ? (
          <Button variant="danger" onClick={() => setIsCancelling(true)}>
            Cancel campaign…
          </Button>
        ) : null}
        {canWrite ? (
          <Button
            variant="secondary"
            isBusy={duplicate.isPending}
            onClick={() =>
              duplicate.mutate(undefined, { onSuccess: (copy) => router.push(`/${accountId}/campaigns/${copy.id}`) })
            }
          >
            Duplicate
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        isOpen={isCancelling}
        title={campaign.counts ? `Cancel: ${messagesLabel(unsent)} will not be sent?` : 'Cancel this campaign?'}
        confirmLabel={campaign.counts ? `Cancel ${messagesLabel(unsent)}` : 'Cancel campaign'}
        cancelLabel="Keep it"
        onConfirm={() => lifecycle.mutateAsync('cancel')}
        onClose={() => setIsCancelling(false)}
      >
        <p data-testid="cancel-count">
          {campaign.counts
            ? `${messagesLabel(unsent)} of ${formatCount(campaign.counts.recipients)} have not been delivered yet: none of them will be sent. Those delivered stay delivered, and the counts stay.`
            : 'No message has been queued yet: none will be sent.'}
        </p>
        <p>A cancelled campaign cannot be resumed; Duplicate makes a new draft of it.</p>
      </ConfirmDialog>
    </div>
  );
}
