'use client';

import { SmtpCredentialForm } from '@/components/forms/smtp-credential-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { useCreateSmtpCredential, useDeleteSmtpCredential } from '@/lib/client/smtp-credential-queries';
import type { SmtpCredentialObject, SmtpSettings } from '@/lib/client/types';

export function CreateSmtpCredentialDialog({
  accountId,
  isOpen,
  domains,
  canChooseGlobal,
  onClose,
  onCreated,
}: {
  accountId: string;
  isOpen: boolean;
  domains: string[] | null;
  canChooseGlobal: boolean;
  onClose: () => void;
  onCreated: (credential: SmtpCredentialObject, password: string) => void;
}) {
  const create = useCreateSmtpCredential(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Create SMTP credential">
      <SmtpCredentialForm
        domains={domains}
        canChooseGlobal={canChooseGlobal}
        onCancel={onClose}
        onSubmit={async (values) => {
          const { password, ...created } = await create.mutateAsync(values);
          onCreated(created, password);
        }}
      />
    </Dialog>
  );
}

/** One setting with its copy button; `testId` lets the tests read the value. */
export function ConnectionSetting({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="w-24 shrink-0 text-slate-600">{label}</span>
      <code
        className="min-w-0 flex-1 break-all rounded-md bg-slate-100 px-2 py-1 font-mono text-xs text-slate-900"
        data-testid={testId}
      >
        {value}
      </code>
      <CopyButton value={value} what={label.toLowerCase()} />
    </div>
  );
}

/** The password exists in the browser only while this dialog is open: it is never shown again. */
export function SmtpPasswordDialog({
  created,
  settings,
  onClose,
}: {
  created: { credential: SmtpCredentialObject; password: string } | null;
  settings: SmtpSettings | undefined;
  onClose: () => void;
}) {
  return (
    <Dialog
      isOpen={created !== null}
      onClose={onClose}
      title={`SMTP credential “${created?.credential.name ?? ''}” created`}
      footer={<Button onClick={onClose}>I have stored the password</Button>}
    >
      <div className="space-y-3 text-sm">
        <Alert tone="warning" title="Copy the password now">
          This is the only time Mailstead shows it. If it is lost, delete the credential and create another.
        </Alert>
        {settings ? <ConnectionSetting label="Host" value={settings.host} testId="smtp-host" /> : null}
        {settings?.port ? <ConnectionSetting label="Port" value={String(settings.port)} testId="smtp-port" /> : null}
        <ConnectionSetting label="Security" value="STARTTLS (required)" testId="smtp-security" />
        {settings?.tls_port ? (
          <ConnectionSetting label="Port (implicit TLS)" value={String(settings.tls_port)} testId="smtp-tls-port" />
        ) : null}
        <ConnectionSetting label="Username" value={created?.credential.username ?? ''} testId="smtp-username" />
        <ConnectionSetting label="Password" value={created?.password ?? ''} testId="smtp-password" />
      </div>
    </Dialog>
  );
}

export function DeleteSmtpCredentialDialog({
  accountId,
  credential,
  onClose,
  onDeleted,
}: {
  accountId: string;
  credential: SmtpCredentialObject | null;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const remove = useDeleteSmtpCredential(accountId);
  return (
    <ConfirmDialog
      isOpen={credential !== null}
      title="Delete SMTP credential"
      confirmLabel="Delete credential"
      onConfirm={() => remove.mutateAsync(credential!.id)}
      onDone={() => onDeleted(credential!.name)}
      onClose={onClose}
    >
      <p>
        Delete <strong>{credential?.name}</strong> (
        <span className="wrap-anywhere font-mono text-xs">{credential?.username}</span>)? Applications using it can no
        longer sign in to send mail. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
