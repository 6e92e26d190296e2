'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/feedback';
import { useUpdateDomain } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';
import { SENDING_TYPE_HELP } from './sending-type-select';

const LABELS = { transactional: 'Transactional', marketing: 'Marketing' } as const;

/** A domain's sending type, what it means, and a confirmed switch to the other one. */
export function DomainSendingTypeForm({
  accountId,
  domain,
  canEdit,
}: {
  accountId: string;
  domain: DomainObject;
  canEdit: boolean;
}) {
  const update = useUpdateDomain(accountId, domain.domain);
  const [isConfirming, setIsConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const current = domain.sending_type;
  const other = current === 'marketing' ? 'transactional' : 'marketing';
  return (
    <div className="space-y-3 text-sm" data-sending-type={current}>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <p>
        <span className="font-medium">{LABELS[current]}.</span>{' '}
        <span className="text-slate-600">{SENDING_TYPE_HELP[current].replace(/^\w+: /, '')}</span>
      </p>
      {canEdit ? (
        <Button variant="secondary" onClick={() => setIsConfirming(true)}>
          Change to {LABELS[other].toLowerCase()}
        </Button>
      ) : null}
      <ConfirmDialog
        isOpen={isConfirming}
        title={`Make ${domain.domain} a ${other} domain?`}
        confirmLabel={`Change to ${LABELS[other].toLowerCase()}`}
        variant="primary"
        onConfirm={() => update.mutateAsync({ sending_type: other })}
        onDone={() => setNotice(`${domain.domain} is now a ${other} domain.`)}
        onClose={() => setIsConfirming(false)}
      >
        <p>{SENDING_TYPE_HELP[other]}</p>
        {other === 'transactional' ? (
          <p>
            Campaigns from this domain that have not been sent yet will be refused at review until it is a marketing
            domain again.
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
