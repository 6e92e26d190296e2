'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MemberRole } from '@/lib/auth/principal';
import type { addMemberSchema, invitationSchema, memberSchema } from '@/lib/core/members/schemas';
import { apiRequest } from './api';

export type MemberObject = z.output<typeof memberSchema>;
export type MemberInvitationObject = z.output<typeof invitationSchema>;
export type AddMemberInput = z.input<typeof addMemberSchema>;

const membersPath = (accountId: string, userId?: string) => `/v2/accounts/${accountId}/members${userId ? `/${userId}` : ''}`;
const invitationsPath = (accountId: string, invitationId?: string) => `/v2/accounts/${accountId}/member-invitations${invitationId ? `/${invitationId}` : ''}`;

const keys = { members: (accountId: string) => ['members', accountId], invitations: (accountId: string) => ['member-invitations', accountId] };

export function useMembers(accountId: string) {
  return useQuery({ queryKey: keys.members(accountId), queryFn: () => apiRequest<{ object: 'list'; data: MemberObject[] }>(membersPath(accountId)) });
}

export function useMemberInvitations(accountId: string, options: { enabled: boolean }) {
  return useQuery({ queryKey: keys.invitations(accountId), queryFn: () => apiRequest<{ object: 'list'; data: MemberInvitationObject[] }>(invitationsPath(accountId)), enabled: options.enabled });
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
  return useMemberMutation(accountId, (body: AddMemberInput) => apiRequest<MemberObject>(membersPath(accountId), { method: 'POST', body }));
}

export function useChangeMemberRole(accountId: string) {
  return useMemberMutation(accountId, ({ userId, role }: { userId: string; role: MemberRole }) => apiRequest<MemberObject>(membersPath(accountId, userId), { method: 'PUT', body: { role } }));
}

export function useRemoveMember(accountId: string) {
  return useMemberMutation(accountId, (userId: string) => apiRequest<{ message: string }>(membersPath(accountId, userId), { method: 'DELETE' }));
}

export function useResendInvitation(accountId: string) {
  return useMemberMutation(accountId, (invitationId: string) => apiRequest<MemberInvitationObject>(`${invitationsPath(accountId, invitationId)}/resend`, { method: 'POST' }));
}

export function useRevokeInvitation(accountId: string) {
  return useMemberMutation(accountId, (invitationId: string) => apiRequest<{ message: string }>(invitationsPath(accountId, invitationId), { method: 'DELETE' }));
}
