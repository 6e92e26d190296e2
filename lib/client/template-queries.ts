'use client';

import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import type { PreviewTemplateInput } from '@/lib/core/templates/schemas';
import { apiRequest } from './api';
import { callEndpoint, type RequestOf } from './endpoints';
import type { TemplateObject, TemplatePreviewObject } from './types';

const COLLECTION = '/v2/accounts/{account_id}/templates';
const ITEM = '/v2/accounts/{account_id}/templates/{template_id}';

/** `query`: `kind`, `after`, `before`, `limit`. */
export function useTemplates(accountId: string, query: string) {
  return useQuery({
    queryKey: ['templates', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
  });
}

export function useTemplate(accountId: string, templateId: string) {
  return useQuery({
    queryKey: ['template', accountId, templateId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, template_id: templateId }),
  });
}

export function useTemplateVersions(accountId: string, templateId: string, cursor: string | null) {
  const query = new URLSearchParams({ limit: '10', ...(cursor ? { after: cursor } : {}) });
  return useQuery({
    queryKey: ['template-versions', accountId, templateId, cursor],
    queryFn: () => callEndpoint(`GET ${ITEM}/versions`, { account_id: accountId, template_id: templateId }, { query }),
  });
}

function useTemplateMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    // The saved draft goes into the cache before the caller continues, so the editor never sees an
    // older copy from a refetch in flight (its revision would make the next save a false conflict).
    onSuccess: (result) => {
      const saved = result as Partial<TemplateObject> | null;
      if (saved?.object === 'template') client.setQueryData(['template', accountId, saved.id], saved);
    },
    onSettled: () => {
      for (const key of ['templates', 'template', 'template-versions'])
        void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateTemplate(accountId: string) {
  return useTemplateMutation(accountId, (body: RequestOf<`POST ${typeof COLLECTION}`>) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateTemplate(accountId: string) {
  return useTemplateMutation(accountId, ({ id, ...body }: RequestOf<`PUT ${typeof ITEM}`> & { id: string }) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, template_id: id }, { body }),
  );
}

export function usePublishTemplate(accountId: string) {
  return useTemplateMutation(accountId, (id: string) =>
    callEndpoint(`POST ${ITEM}/publish`, { account_id: accountId, template_id: id }),
  );
}

export function useDeleteTemplate(accountId: string) {
  return useTemplateMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, template_id: id }),
  );
}

/**
 * The parts rendered with sample values by the server's render workers (session-only route). The
 * last good preview stays on screen while the next one renders or when it fails.
 */
export function useTemplatePreview(accountId: string, input: PreviewTemplateInput | null) {
  return useQuery({
    queryKey: ['template-preview', accountId, input],
    queryFn: () =>
      apiRequest<TemplatePreviewObject>(`/internal/accounts/${accountId}/templates/preview`, {
        method: 'POST',
        body: input,
      }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
    // Each key holds a whole draft: keep few of them around.
    gcTime: 30_000,
  });
}
