'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserSessionObject } from '@/lib/core/user-sessions/schemas';
import { apiRequest } from './api';
import { queryKeys } from './queries';
import { useQuery } from './use-query';

export type { UserSessionObject };

const SESSIONS_KEY = ['me', 'sessions'];

/** Where the signed-in person is signed in (session only: /internal/me/sessions). */
export function useMySessions() {
  return useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => apiRequest<{ data: UserSessionObject[] }>('/internal/me/sessions'),
  });
}

function useSessionsMutation<Input, Result>(mutationFn: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useEndMySession() {
  return useSessionsMutation((sessionId: string) =>
    apiRequest<{ ended: number }>(`/internal/me/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' }),
  );
}

export function useEndMyOtherSessions() {
  return useSessionsMutation(() =>
    apiRequest<{ ended: number }>('/internal/me/sessions/end-others', { method: 'POST', body: {} }),
  );
}

/** A changed password ends the other sessions: the list is read again. */
export function useChangePassword() {
  const client = useQueryClient();
  return useSessionsMutation(async (body: { current_password?: string; new_password: string }) => {
    const result = await apiRequest<{ other_sessions_ended: number }>('/internal/me/password', {
      method: 'POST',
      body,
    });
    // A first password changes what the profile shows (has_password).
    await client.invalidateQueries({ queryKey: queryKeys.me });
    return result;
  });
}

export function useEndMemberSessions(accountId: string) {
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest<{ ended: number; message: string }>(
        `/internal/accounts/${encodeURIComponent(accountId)}/members/${encodeURIComponent(userId)}/end-sessions`,
        { method: 'POST', body: {} },
      ),
  });
}
