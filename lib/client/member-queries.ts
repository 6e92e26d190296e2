'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import type { MemberRole } from '@/lib/auth/principal';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';

const MEMBERS = '/v2/accounts/{account_id}/members';
const MEMBER = '/v2/accounts/{account_id}/members/{user_id}';
const INVITATIONS = '/v2/accounts/{account_id}/member-invitations';
const INVITATION = '/v2/accounts/{account_id}/member-invitations/{invitation_id}';

export type MemberObject = ResponseOf<`GET ${typeof MEMBERS}`>['data'][number];
export type MemberInvitationObject = ResponseOf<`GET ${typeof INVITATIONS}`>['data'][number];
export type AddMemberInput = RequestOf<`POST ${typeof MEMBERS}`>;
/** A person added at once (an existing user) or invited (with the invitation). */
export type AddedMember = ResponseOf<`POST ${typeof MEMBERS}`>;

const keys = {
  members: (accountId: string) => ['members', accountId],
  invitations: (accountId: string) => ['member-invitations', accountId],
};

export function useMembers(accountId: string) {
  return useQuery({
    queryKey: keys.members(accountId),
    queryFn: () => callEndpoint(`GET ${MEMBERS}`, { account_id: accountId }),
  });
}

export function useMemberInvitations(accountId: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: keys.invitations(accountId),
    queryFn: () => callEndpoint(`GET ${INVITATIONS}`, { account_id: accountId }),
    enabled: options.enabled,
  });
}

/** Every change can move a person between the two lists: both are read again. */
function useMemberMutation<Input, Result>(accountId: string, mutationFn: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.members(accountId) });
      void client.invalidateQueries({ queryKey: keys.invitations(accountId) });
    },
  });
}

export function useAddMember(accountId: string) {
  return useMemberMutation(accountId, (body: AddMemberInput) =>
    callEndpoint(`POST ${MEMBERS}`, { account_id: accountId }, { body }),
  );
}

export function useChangeMemberRole(accountId: string) {
  return useMemberMutation(accountId, ({ userId, role }: { userId: string; role: MemberRole }) =>
    callEndpoint(`PUT ${MEMBER}`, { account_id: accountId, user_id: userId }, { body: { role } }),
  );
}

export function useRemoveMember(accountId: string) {
  return useMemberMutation(accountId, (userId: string) =>
    callEndpoint(`DELETE ${MEMBER}`, { account_id: accountId, user_id: userId }),
  );
}

export function useResendInvitation(accountId: string) {
  return useMemberMutation(accountId, (invitationId: string) =>
    callEndpoint(`POST ${INVITATION}/resend`, { account_id: accountId, invitation_id: invitationId }),
  );
}

export function useRevokeInvitation(accountId: string) {
  return useMemberMutation(accountId, (invitationId: string) =>
    callEndpoint(`DELETE ${INVITATION}`, { account_id: accountId, invitation_id: invitationId }),
  );
}
