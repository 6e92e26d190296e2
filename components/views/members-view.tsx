'use client';

import { useState } from 'react';
import {
  ChangeRoleDialog,
  InvitationLinkDialog,
  InviteMemberDialog,
  RemoveMemberDialog,
  RevokeInvitationDialog,
} from '@/components/dialogs/member-dialogs';
import { EndMemberSessionsDialog } from '@/components/dialogs/session-dialogs';
import { mayOpen } from '@/components/layout/sections';
import { MemberInvitationTable } from '@/components/tables/member-invitation-table';
import { MemberTable } from '@/components/tables/member-table';
import { RoleScopeTable } from '@/components/tables/role-scope-table';
import { Button } from '@/components/ui/button';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import type { MemberRole } from '@/lib/auth/principal';
import { ApiError } from '@/lib/client/api';
import {
  useMemberInvitations,
  useMembers,
  useResendInvitation,
  type MemberInvitationObject,
  type MemberObject,
} from '@/lib/client/member-queries';
import { useCurrentUser } from '@/lib/client/queries';

export function MembersView({ accountId }: { accountId: string }) {
  const me = useCurrentUser();
  const membership = me.data?.accounts.find((account) => account.id === accountId);
  const scopes = membership?.scopes ?? [];
  const can = {
    add: mayOpen(scopes, 'accounts:members:add'),
    update: mayOpen(scopes, 'accounts:members:update'),
    remove: mayOpen(scopes, 'accounts:members:remove'),
  };
  const members = useMembers(accountId);
  const invitations = useMemberInvitations(accountId, {
    enabled: Boolean(me.data) && mayOpen(scopes, 'accounts:members:read'),
  });
  const resend = useResendInvitation(accountId);
  const [isInviting, setIsInviting] = useState(false);
  const [link, setLink] = useState<MemberInvitationObject | null>(null);
  const [changing, setChanging] = useState<MemberObject | null>(null);
  const [removing, setRemoving] = useState<MemberObject | null>(null);
  const [signingOut, setSigningOut] = useState<MemberObject | null>(null);
  const [revoking, setRevoking] = useState<MemberInvitationObject | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const onResend = async (invitation: MemberInvitationObject) => {
    setNotice(null);
    try {
      const resent = await resend.mutateAsync(invitation.id);
      if (resent.url) setLink(resent);
      else setNotice({ tone: 'success', text: `Invitation mailed again to ${resent.email}.` });
    } catch (error) {
      setNotice({ tone: 'error', text: (error as Error).message });
    }
  };

  const pending = invitations.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Members"
        description="People who sign in to this account, and what their role lets them do."
        actions={can.add ? <Button onClick={() => setIsInviting(true)}>Invite member</Button> : null}
      />
      <div className="space-y-6">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        {members.isPending ? <LoadingState label="Loading members…" /> : null}
        {members.error ? (
          members.error instanceof ApiError && members.error.status === 403 ? (
            <Alert tone="warning" title="You cannot view members">
              {members.error.message}. Your role in this account does not include the <code>accounts:members:read</code>{' '}
              scope.
            </Alert>
          ) : (
            <Alert tone="error" title="Members could not be loaded">
              {members.error.message}
            </Alert>
          )
        ) : null}
        {members.data ? (
          <MemberTable
            members={members.data.data}
            currentUserId={me.data?.id ?? null}
            canUpdate={can.update}
            canRemove={can.remove}
            onChangeRole={setChanging}
            onEndSessions={setSigningOut}
            onRemove={setRemoving}
          />
        ) : null}

        {pending.length > 0 ? (
          <section aria-labelledby="pending-invitations" className="space-y-2">
            <h2 id="pending-invitations" className="text-base font-semibold text-slate-900">
              Pending invitations
            </h2>
            <MemberInvitationTable
              invitations={pending}
              canResend={can.add}
              canRevoke={can.remove}
              onResend={onResend}
              onRevoke={setRevoking}
            />
          </section>
        ) : null}

        <section aria-labelledby="roles-and-scopes" className="space-y-2">
          <h2 id="roles-and-scopes" className="text-base font-semibold text-slate-900">
            Roles and scopes
          </h2>
          <p className="text-sm text-slate-600">
            A signed-in member acts with exactly the scopes of their role, through the same checks as an API key.
          </p>
          <RoleScopeTable currentRole={(membership?.role as MemberRole | undefined) ?? null} />
        </section>
      </div>

      <InviteMemberDialog
        accountId={accountId}
        isOpen={isInviting}
        onClose={() => setIsInviting(false)}
        onAdded={(member) => {
          setIsInviting(false);
          if (member.status === 'active') {
            setNotice({ tone: 'success', text: `${member.email} is now a member (${member.role}).` });
            return;
          }
          if (member.invitation.url) setLink(member.invitation);
          setNotice({
            tone: 'success',
            text:
              member.invitation.delivery === 'email'
                ? `Invitation mailed to ${member.email}.`
                : `Invitation for ${member.email} created.`,
          });
        }}
      />
      <InvitationLinkDialog invitation={link} onClose={() => setLink(null)} />
      <ChangeRoleDialog
        accountId={accountId}
        member={changing}
        onClose={() => setChanging(null)}
        onChanged={(member) => setNotice({ tone: 'success', text: `${member.email} is now ${member.role}.` })}
      />
      <EndMemberSessionsDialog
        accountId={accountId}
        member={signingOut}
        onClose={() => setSigningOut(null)}
        onEnded={(text) => setNotice({ tone: 'success', text })}
      />
      <RemoveMemberDialog
        accountId={accountId}
        member={removing}
        onClose={() => setRemoving(null)}
        onRemoved={(email) => setNotice({ tone: 'success', text: `${email} was removed from the account.` })}
      />
      <RevokeInvitationDialog
        accountId={accountId}
        invitation={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={(email) => setNotice({ tone: 'success', text: `Invitation of ${email} revoked.` })}
      />
    </>
  );
}
