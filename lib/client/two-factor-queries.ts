'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';
import { useQuery } from './use-query';

const BASE = '/internal/me/two-factor';

export type TwoFactorStatus = {
  is_enabled: boolean;
  enabled_at: string | null;
  recovery_codes_remaining: number;
  required_by: { id: string; name: string }[];
};
export type TwoFactorSetup = { secret: string; otpauth_uri: string; qr_code: string };
export type RecoveryCodes = { recovery_codes: string[] };
export type TwoFactorRequirement = { require_two_factor: boolean; members_without_two_factor: number };

const statusKey = ['two-factor'] as const;
const requirementKey = (accountId: string) => ['two-factor-requirement', accountId] as const;

export function useTwoFactorStatus() {
  return useQuery({ queryKey: statusKey, queryFn: () => apiRequest<TwoFactorStatus>(BASE) });
}

/** Every change re-reads the status; a change of one's own 2FA can also change what /internal/me says. */
function useTwoFactorMutation<Input, Result>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Input) => apiRequest<Result>(`${BASE}${path}`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: statusKey }),
  });
}

export const useStartTwoFactorSetup = () => useTwoFactorMutation<Record<string, never>, TwoFactorSetup>('/setup');
export const useEnableTwoFactor = () => useTwoFactorMutation<{ code: string }, RecoveryCodes>('/enable');
export const useDisableTwoFactor = () => useTwoFactorMutation<{ password: string }, { is_enabled: false }>('/disable');
export const useRegenerateRecoveryCodes = () =>
  useTwoFactorMutation<{ password: string } | { code: string }, RecoveryCodes>('/recovery-codes');

export function useTwoFactorRequirement(accountId: string) {
  return useQuery({
    queryKey: requirementKey(accountId),
    queryFn: () => apiRequest<TwoFactorRequirement>(`/internal/accounts/${accountId}/two-factor-requirement`),
  });
}

export function useSetTwoFactorRequirement(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (isRequired: boolean) =>
      apiRequest<TwoFactorRequirement>(`/internal/accounts/${accountId}/two-factor-requirement`, {
        method: 'PUT',
        body: { require_two_factor: isRequired },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: requirementKey(accountId) }),
  });
}
