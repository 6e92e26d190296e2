'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/feedback';
import { useCancelMessage } from '@/lib/client/queries';
import type { MessageDetails, MessageObject } from '@/lib/client/types';

const when = (value: string) => new Date(value).toLocaleString();

/** Where a message stands in delivery: its schedule (and Cancel), its next retry, its bounce and the recipient's suppression. */
/** `messageId` is the page's own reference to the message (the one its queries are cached under). */
export function MessageDeliveryPanel({
  accountId,
  messageId,
  message,
  details,
  canCancel,
}: {
  accountId: string;
  messageId: string;
  message: MessageObject;
  details: MessageDetails;
  canCancel: boolean;
}) {
  const cancel = useCancelMessage(accountId, messageId);
  const [isConfirming, setIsConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const lastAttempt = message.delivery_attempts.at(-1);
  const senderDomain = message.sender.slice(message.sender.lastIndexOf('@') + 1);

  return (
    <div className="space-y-3" data-testid="delivery-status">
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {details.is_scheduled && details.next_attempt_at ? (
        <Alert tone="info" title="Scheduled">
          <p>Mailstead sends this message at {when(details.next_attempt_at)}.</p>
          {canCancel && details.is_cancellable ? (
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => setIsConfirming(true)}>
              Cancel this message
            </Button>
          ) : null}
          {!details.is_cancellable ? (
            <p className="mt-1 text-xs">It is being sent right now and can no longer be cancelled.</p>
          ) : null}
        </Alert>
      ) : null}
      {!details.is_scheduled && details.next_attempt_at && message.num_attempts > 0 ? (
        <Alert tone="warning" title="Delivery is being retried">
          <p>
            Attempt {message.num_attempts} failed for a reason that may pass. Next attempt at{' '}
            <strong data-testid="next-attempt">{when(details.next_attempt_at)}</strong>; Mailstead gives up at{' '}
            {when(details.expires_at)}.
          </p>
          {lastAttempt ? <p className="mt-1 font-mono text-xs wrap-anywhere">{lastAttempt.log}</p> : null}
        </Alert>
      ) : null}
      {details.bounce ? (
        <Alert
          tone={details.bounce.severity === 'hard' ? 'error' : 'warning'}
          title={`${details.bounce.severity === 'hard' ? 'Hard' : 'Soft'} bounce (${details.bounce.classification})`}
        >
          <p>
            {details.bounce.severity === 'hard'
              ? 'The receiving server said this address does not work.'
              : 'The receiving server refused this message for a reason that may pass (a policy, a full mailbox, a temporary problem); the bounce alone does not suppress the address.'}
            {details.bounce.severity === 'hard' && message.is_sandbox
              ? ' Sandbox bounces do not suppress the address.'
              : ''}
          </p>
        </Alert>
      ) : null}
      {details.recipient_suppression ? (
        <Alert tone="warning" title="The recipient is suppressed">
          <p data-testid="suppression">
            {message.recipient} is suppressed for{' '}
            {details.recipient_suppression.domain ?? 'every domain of this account'} until{' '}
            {when(details.recipient_suppression.expires_at)}
            {details.recipient_suppression.reason ? ` (${details.recipient_suppression.reason})` : ''}. New messages to
            it from {details.recipient_suppression.domain ?? 'any domain'} are not sent.
          </p>
        </Alert>
      ) : details.bounce ? (
        <p className="text-sm text-slate-700" data-testid="suppression">
          {message.recipient} is not suppressed: new messages to it from {senderDomain} are sent.
        </p>
      ) : null}
      <ConfirmDialog
        isOpen={isConfirming}
        title="Cancel this message?"
        confirmLabel="Cancel message"
        cancelLabel="Keep it scheduled"
        onConfirm={() => cancel.mutateAsync()}
        onDone={() => setNotice(`Cancelled: this message will not be sent to ${message.recipient}.`)}
        onClose={() => setIsConfirming(false)}
      >
        <p>
          It will not be sent to <strong>{message.recipient}</strong>. This cannot be undone: to send it later, send it
          again.
        </p>
      </ConfirmDialog>
    </div>
  );
}
