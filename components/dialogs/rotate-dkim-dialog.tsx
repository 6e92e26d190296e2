'use client';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useRotateDkim } from '@/lib/client/queries';
import type { DomainObject } from '@/lib/client/types';

/** Rotation changes the key that signs every message at once, so it says what will happen first. */
export function RotateDkimDialog({
  accountId,
  domain,
  isOpen,
  onClose,
  onRotated,
}: {
  accountId: string;
  domain: DomainObject;
  isOpen: boolean;
  onClose: () => void;
  onRotated: (notice: string) => void;
}) {
  const rotate = useRotateDkim(accountId, domain.domain);
  const standby = domain.dns_records.find((record) => record.label.startsWith('DKIM standby'));
  const active = domain.dns_records.find((record) => record.label === 'DKIM');
  const selectorOf = (record: { host: string } | undefined) => record?.host.split('._domainkey.')[0] ?? '';
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title={`Rotate DKIM for ${domain.domain}?`}
      confirmLabel="Rotate now"
      variant="primary"
      onConfirm={() => rotate.mutateAsync()}
      onDone={(rotated) => {
        const current = selectorOf(rotated.dns_records.find((record) => record.label === 'DKIM'));
        onRotated(
          `DKIM rotated: the key under selector “${current}” now signs every message. Keep the old record (selector “${selectorOf(active)}”) published for a few days, and publish the new standby record below before the next rotation.`,
        );
      }}
      onClose={onClose}
    >
      <p>
        The standby key (selector <code>{selectorOf(standby)}</code>) becomes active and signs every message from this
        moment; the current key (selector <code>{selectorOf(active)}</code>) stops signing.
      </p>
      <p>
        Mail signed before now names the old key, and receivers (and any DNS cache on the way) look it up when that mail
        arrives, sometimes days later: leave the old DKIM record published for a few days. A new standby record then
        appears in the list, to publish for the next rotation.
      </p>
    </ConfirmDialog>
  );
}
