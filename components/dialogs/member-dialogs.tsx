'use client';

import { useState } from 'react';
import { InviteMemberForm } from '@/components/forms/invite-member-form';
import { Field, Select } from '@/components/ui/field';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import type { MemberRole } from '@/lib/auth/principal';
import { MEMBER_ROLES } from '@/lib/auth/roles';
import { formatDateTime } from '@/lib/client/format';
import {
  useAddMember,
  useChangeMemberRole,
  useRemoveMember,
  useRevokeInvitation,
  type AddedMember,
  type MemberInvitationObject,
  type MemberObject,
} from '@/lib/client/member-queries';

export function InviteMemberDialog({
  accountId,
  isOpen,
  onClose,
  onAdded,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onAdded: (member: AddedMember) => void;
}) {
  const add = useAddMember(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Invite member">
      <InviteMemberForm onCancel={onClose} onSubmit={async (values) => onAdded(await add.mutateAsync(values))} />
    </Dialog>
  );
}

/** A link made because no system sender is configured: shown until the dialog closes, never again. */
export function InvitationLinkDialog({
  invitation,
  onClose,
}: {
  invitation: MemberInvitationObject | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      isOpen={invitation !== null}
      onClose={onClose}
      title={`Invitation link for ${invitation?.email ?? ''}`}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      <div className="space-y-3 text-sm">
        <Alert
          tone="warning"
          title={invitation?.delivery_error ? 'The invitation was not mailed' : 'Send this link to the person yourself'}
        >
          {invitation?.delivery_error ??
            'This server has no system sender (SYSTEM_SENDER), so Mailstead does not mail invitations.'}{' '}
          Anyone with the link can join as {invitation?.role}: pass it on privately. It works once, until{' '}
          {invitation ? formatDateTime(invitation.expires_at) : ''}, and is not shown again.
        </Alert>
        <div className="flex flex-wrap items-center gap-2">
          <code
            className="min-w-0 flex-1 break-all rounded-md bg-slate-100 px-2 py-1 font-mono text-xs text-slate-900"
            data-testid="invitation-link"
          >
            {invitation?.url}
          </code>
          <CopyButton value={invitation?.url ?? ''} what="invitation link" />
        </div>
      </div>
    </Dialog>
  );
}

export function ChangeRoleDialog({
  accountId,
  member,
  onClose,
  onChanged,
}: {
  accountId: string;
  member: MemberObject | null;
  onClose: () => void;
  onChanged: (member: MemberObject) => void;
}) {
  const change = useChangeMemberRole(accountId);
  const [role, setRole] = useState<MemberRole | null>(null);
  const chosen = role ?? member?.role ?? 'Developer';
  const close = () => {
    setRole(null);
    onClose();
  };
  return (
    <ConfirmDialog
      isOpen={member !== null}
      title="Change role"
      confirmLabel="Change role"
      variant="primary"
      isConfirmDisabled={chosen === member?.role}
      onConfirm={() => change.mutateAsync({ userId: member!.user_id, role: chosen })}
      onDone={onChanged}
      onClose={close}
    >
      <p>
        The new role of <strong className="wrap-anywhere">{member?.email}</strong> applies to their next request.
      </p>
      <Field label="Role" htmlFor="change-role">
        <Select value={chosen} onChange={(event) => setRole(event.target.value as MemberRole)}>
          {MEMBER_ROLES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </Select>
      </Field>
    </ConfirmDialog>
  );
}

export function RemoveMemberDialog({
  accountId,
  member,
  onClose,
  onRemoved,
}: {
  accountId: string;
  member: MemberObject | null;
  onClose: () => void;
  onRemoved: (email: string) => void;
}) {
  const remove = useRemoveMember(accountId);
  return (
    <ConfirmDialog
      isOpen={member !== null}
      title="Remove member"
      confirmLabel="Remove member"
      onConfirm={() => remove.mutateAsync(member!.user_id)}
      onDone={() => onRemoved(member!.email)}
      onClose={onClose}
    >
      <p>
        Remove <strong className="wrap-anywhere">{member?.email}</strong> ({member?.role}) from this account? They lose
        access at once. Their Mailstead user stays, with any other accounts it belongs to.
      </p>
    </ConfirmDialog>
  );
}

export function RevokeInvitationDialog({
  accountId,
  invitation,
  onClose,
  onRevoked,
}: {
  accountId: string;
  invitation: MemberInvitationObject | null;
  onClose: () => void;
  onRevoked: (email: string) => void;
}) {
  const revoke = useRevokeInvitation(accountId);
  return (
    <ConfirmDialog
      isOpen={invitation !== null}
      title="Revoke invitation"
      confirmLabel="Revoke invitation"
      onConfirm={() => revoke.mutateAsync(invitation!.id)}
      onDone={() => onRevoked(invitation!.email)}
      onClose={onClose}
    >
      <p>
        Revoke the invitation of <strong className="wrap-anywhere">{invitation?.email}</strong>? Its link stops working;
        you can invite the address again later.
      </p>
    </ConfirmDialog>
  );
}
