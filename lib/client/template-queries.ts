'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PreviewTemplateInput, UpdateTemplateInput } from '@/lib/core/templates/schemas';
import { apiRequest } from './api';
import type { ListEnvelope, TemplateKind, TemplateObject, TemplatePreviewObject, TemplateVersionObject } from './types';

export const templatesPath = (accountId: string, templateId?: string) => `/v2/accounts/${accountId}/templates${templateId ? `/${templateId}` : ''}`;

/** `query`: `kind`, `after`, `before`, `limit`. */
export function useTemplates(accountId: string, query: string) {
  return useQuery({ queryKey: ['templates', accountId, query], queryFn: () => apiRequest<ListEnvelope<TemplateObject>>(`${templatesPath(accountId)}?${query}`) });
}

export function useTemplate(accountId: string, templateId: string) {
  return useQuery({ queryKey: ['template', accountId, templateId], queryFn: () => apiRequest<TemplateObject>(templatesPath(accountId, templateId)) });
}

export function useTemplateVersions(accountId: string, templateId: string, cursor: string | null) {
  const query = new URLSearchParams({ limit: '10', ...(cursor ? { after: cursor } : {}) });
  return useQuery({
    queryKey: ['template-versions', accountId, templateId, cursor],
    queryFn: () => apiRequest<ListEnvelope<TemplateVersionObject>>(`${templatesPath(accountId, templateId)}/versions?${query}`),
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
      for (const key of ['templates', 'template', 'template-versions']) void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateTemplate(accountId: string) {
  return useTemplateMutation(accountId, (body: { name: string; kind?: TemplateKind }) => apiRequest<TemplateObject>(templatesPath(accountId), { method: 'POST', body }));
}

export function useUpdateTemplate(accountId: string) {
  return useTemplateMutation(accountId, ({ id, ...body }: UpdateTemplateInput & { id: string }) => apiRequest<TemplateObject>(templatesPath(accountId, id), { method: 'PUT', body }));
}

export function usePublishTemplate(accountId: string) {
  return useTemplateMutation(accountId, (id: string) => apiRequest<TemplateVersionObject>(`${templatesPath(accountId, id)}/publish`, { method: 'POST' }));
}

export function useDeleteTemplate(accountId: string) {
  return useTemplateMutation(accountId, (id: string) => apiRequest<{ message: string }>(templatesPath(accountId, id), { method: 'DELETE' }));
}

/**
 * The parts rendered with sample values by the server's render workers (session-only route). The
 * last good preview stays on screen while the next one renders or when it fails.
 */
export function useTemplatePreview(accountId: string, input: PreviewTemplateInput | null) {
  return useQuery({
    queryKey: ['template-preview', accountId, input],
    queryFn: () => apiRequest<TemplatePreviewObject>(`/internal/accounts/${accountId}/templates/preview`, { method: 'POST', body: input }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
    // Each key holds a whole draft: keep few of them around.
    gcTime: 30_000,
  });
}
