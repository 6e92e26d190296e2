'use client';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { useRotateDkim } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';

/** Rotation changes the key that signs every message at once, so it says what will happen first. */
export function RotateDkimDialog({ accountId, domain, isOpen, onClose, onRotated }: { accountId: string; domain: DomainObject; isOpen: boolean; onClose: () => void; onRotated: (notice: string) => void }) {
  const rotate = useRotateDkim(accountId, domain.domain);
  const standby = domain.dns_records.find((record) => record.label.startsWith('DKIM standby'));
  const active = domain.dns_records.find((record) => record.label === 'DKIM');
  const selectorOf = (record: { host: string } | undefined) => record?.host.split('._domainkey.')[0] ?? '';
  const close = () => {
    rotate.reset();
    onClose();
  };
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      title={`Rotate DKIM for ${domain.domain}?`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            isBusy={rotate.isPending}
            onClick={async () => {
              const previous = selectorOf(active);
              await rotate.mutateAsync().then(
                (rotated) => {
                  const current = selectorOf(rotated.dns_records.find((record) => record.label === 'DKIM'));
                  onRotated(
                    `DKIM rotated: the key under selector “${current}” now signs every message. Keep the old record (selector “${previous}”) published for a few days, and publish the new standby record below before the next rotation.`,
                  );
                  close();
                },
                () => undefined,
              );
            }}
          >
            Rotate now
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm">
        {rotate.error ? <Alert tone="error">{rotate.error.message}</Alert> : null}
        <p>
          The standby key (selector <code>{selectorOf(standby)}</code>) becomes active and signs every message from this moment; the current key (selector{' '}
          <code>{selectorOf(active)}</code>) stops signing.
        </p>
        <p>
          Mail signed before now names the old key, and receivers (and any DNS cache on the way) look it up when that mail arrives, sometimes days later: leave the old DKIM record
          published for a few days. A new standby record then appears in the list, to publish for the next rotation.
        </p>
      </div>
    </Dialog>
  );
}
