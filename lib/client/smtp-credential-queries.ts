'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { apiRequest } from './api';
import { callEndpoint, type RequestOf } from './endpoints';
import type { SmtpSettings } from './types';

const COLLECTION = '/v2/accounts/{account_id}/smtp-credentials';
const ITEM = '/v2/accounts/{account_id}/smtp-credentials/{smtp_credential_id}';

export type SmtpCredentialInput = RequestOf<`POST ${typeof COLLECTION}`>;

export function useSmtpCredentials(accountId: string) {
  return useQuery({
    queryKey: ['smtp-credentials', accountId],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query: 'limit=100' }),
  });
}

export function useSmtpSettings(accountId: string) {
  return useQuery({
    queryKey: ['smtp-settings', accountId],
    queryFn: () => apiRequest<SmtpSettings>(`/internal/accounts/${accountId}/smtp-settings`),
    staleTime: Infinity,
  });
}

export function useCreateSmtpCredential(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SmtpCredentialInput) => callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['smtp-credentials', accountId] }),
  });
}

export function useDeleteSmtpCredential(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, smtp_credential_id: id }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['smtp-credentials', accountId] }),
  });
}
