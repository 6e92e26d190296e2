'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';
import type { ListEnvelope, SmtpCredentialObject, SmtpSettings } from './types';

const credentialPath = (accountId: string, credentialId?: string) => `/v2/accounts/${accountId}/smtp-credentials${credentialId ? `/${credentialId}` : ''}`;

export type SmtpCredentialInput = { name: string; scope: 'global' | 'scoped'; sandbox: boolean; domains: string[] };

export function useSmtpCredentials(accountId: string) {
  return useQuery({ queryKey: ['smtp-credentials', accountId], queryFn: () => apiRequest<ListEnvelope<SmtpCredentialObject>>(`${credentialPath(accountId)}?limit=100`) });
}

export function useSmtpSettings(accountId: string) {
  return useQuery({ queryKey: ['smtp-settings', accountId], queryFn: () => apiRequest<SmtpSettings>(`/internal/accounts/${accountId}/smtp-settings`), staleTime: Infinity });
}

export function useCreateSmtpCredential(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SmtpCredentialInput) => apiRequest<SmtpCredentialObject & { password: string }>(credentialPath(accountId), { method: 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['smtp-credentials', accountId] }),
  });
}

export function useDeleteSmtpCredential(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ message: string }>(credentialPath(accountId, id), { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['smtp-credentials', accountId] }),
  });
}
