'use client';

import { describeAnswer, truncateBody } from '@/components/tables/webhook-delivery-table';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { WebhookDeliveryStatusBadge } from '@/components/ui/webhook-status-badge';
import { formatDateTime } from '@/lib/client/format';
import { useDelivery, type DeliveryTarget } from '@/lib/client/delivery-queries';

const SHOWN_BODY = 2000;

/** One delivery of a webhook or a route: every attempt with the endpoint's answer, the payload as sent, and "Send again". */
export function WebhookDeliveryDialog({
  accountId,
  target,
  deliveryId,
  canResend,
  isResending,
  resendError,
  onResend,
  onClose,
}: {
  accountId: string;
  target: DeliveryTarget;
  deliveryId: string | null;
  canResend: boolean;
  isResending: boolean;
  resendError: string | null;
  onResend: (deliveryId: string) => void;
  onClose: () => void;
}) {
  const delivery = useDelivery(accountId, target, deliveryId);
  const data = delivery.data;
  const isSettled = data?.status === 'delivered' || data?.status === 'failed';
  return (
    <Dialog
      isOpen={deliveryId !== null}
      onClose={onClose}
      title={data ? `${data.event_type} · ${formatDateTime(data.created_at)}` : 'Delivery'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          {canResend && data && isSettled ? (
            <Button isBusy={isResending} onClick={() => onResend(data.id)}>
              Send again
            </Button>
          ) : null}
        </>
      }
    >
      <div className="space-y-4 text-sm" data-testid="delivery-detail">
        {resendError ? <Alert tone="error">{resendError}</Alert> : null}
        {delivery.isPending ? <LoadingState label="Loading the delivery…" /> : null}
        {delivery.error ? <Alert tone="error">{delivery.error.message}</Alert> : null}
        {data ? (
          <>
            <p className="flex flex-wrap items-center gap-2">
              <WebhookDeliveryStatusBadge status={data.status} />
              <span className="text-slate-600">
                Event <span className="font-mono text-xs">{data.event_id}</span>
              </span>
              {data.next_attempt_at ? (
                <span className="text-slate-600">· next attempt {formatDateTime(data.next_attempt_at)}</span>
              ) : null}
            </p>
            <section aria-labelledby="attempts-heading">
              <h3 id="attempts-heading" className="mb-2 font-semibold">
                Attempts
              </h3>
              {data.attempts_log.length === 0 ? <p className="text-slate-600">Not sent yet.</p> : null}
              <ol className="space-y-3" data-testid="delivery-attempts">
                {data.attempts_log.map((attempt, index) => (
                  <li
                    key={`${attempt.at}-${index}`}
                    className="rounded-md p-3 ring-1 ring-slate-200"
                    data-attempt={index + 1}
                  >
                    <p className="flex flex-wrap justify-between gap-x-3 text-xs">
                      <span className="font-medium text-slate-800">
                        Attempt {index + 1} · {formatDateTime(attempt.at)}
                      </span>
                      <span
                        className={`tabular-nums ${attempt.response_status !== null && attempt.response_status < 300 ? 'text-green-800' : 'text-red-800'}`}
                      >
                        {describeAnswer(attempt)}
                      </span>
                    </p>
                    {attempt.error ? <p className="mt-1 text-xs text-red-800 wrap-anywhere">{attempt.error}</p> : null}
                    {attempt.response_body ? (
                      <pre className="mt-2 max-h-40 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs text-slate-700 wrap-anywhere">
                        {truncateBody(attempt.response_body, SHOWN_BODY)}
                      </pre>
                    ) : null}
                  </li>
                ))}
              </ol>
            </section>
            <section aria-labelledby="payload-heading">
              <h3 id="payload-heading" className="mb-2 font-semibold">
                Payload
              </h3>
              <pre
                className="max-h-64 overflow-auto whitespace-pre-wrap rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100 wrap-anywhere"
                data-testid="delivery-payload"
              >
                {JSON.stringify(data.payload, null, 2)}
              </pre>
            </section>
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
