'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { checkCampaign } from '@/lib/core/campaigns/check-campaign';
import type { CampaignReport } from '@/lib/core/campaigns/get-campaign-report';
import type { CampaignObject } from '@/lib/core/campaigns/present';
import type { previewCampaignAudience } from '@/lib/core/campaigns/preview-campaign-audience';
import type { campaignStatsSchema, UpdateCampaignInput } from '@/lib/core/campaigns/schemas';
import type { TemplateObject } from '@/lib/core/templates/present';
import { apiRequest } from './api';
import type { ListEnvelope } from './types';

export type { CampaignObject, CampaignReport };
export type CampaignStats = z.output<typeof campaignStatsSchema>;
export type CampaignCheck = Awaited<ReturnType<typeof checkCampaign>>;
export type AudiencePreview = Awaited<ReturnType<typeof previewCampaignAudience>>;

const campaignPath = (accountId: string, campaignId?: string) => `/v2/accounts/${accountId}/campaigns${campaignId ? `/${campaignId}` : ''}`;
const internalPath = (accountId: string, suffix: string) => `/internal/accounts/${accountId}/campaigns${suffix}`;

/** States in which the worker moves the campaign on by itself, so the page keeps asking. */
export const isCampaignMoving = (status: string | undefined) => status === 'validating' || status === 'scheduled' || status === 'sending';

export function useCampaigns(accountId: string, query: string) {
  return useQuery({ queryKey: ['campaigns', accountId, query], queryFn: () => apiRequest<ListEnvelope<CampaignObject>>(`${campaignPath(accountId)}?${query}`), refetchInterval: 15_000 });
}

export function useCampaign(accountId: string, campaignId: string) {
  return useQuery({
    queryKey: ['campaign', accountId, campaignId],
    queryFn: () => apiRequest<CampaignObject>(campaignPath(accountId, campaignId)),
    refetchInterval: (query) => (isCampaignMoving(query.state.data?.status) ? 1500 : false),
  });
}

export function useCampaignStats(accountId: string, campaignId: string, isLive: boolean) {
  return useQuery({
    queryKey: ['campaign-stats', accountId, campaignId],
    queryFn: () => apiRequest<CampaignStats>(`${campaignPath(accountId, campaignId)}/stats`),
    refetchInterval: isLive ? 3000 : 30_000,
  });
}

export function useCampaignReport(accountId: string, campaignId: string, isLive: boolean) {
  return useQuery({
    queryKey: ['campaign-report', accountId, campaignId],
    queryFn: () => apiRequest<CampaignReport>(internalPath(accountId, `/${campaignId}/report`)),
    refetchInterval: isLive ? 5000 : 60_000,
  });
}

/** The checks sending would run, asked for again whenever the Review step opens. */
export function useCampaignCheck(accountId: string, campaignId: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: ['campaign-check', accountId, campaignId],
    queryFn: () => apiRequest<CampaignCheck>(internalPath(accountId, `/${campaignId}/check`)),
    refetchOnMount: 'always',
    ...options,
  });
}

/** The live count of the Audience step; callers debounce the inputs, the key caches each choice. */
export function useAudiencePreview(accountId: string, listIds: string[], fromEmail: string | null) {
  const sorted = [...listIds].sort();
  return useQuery({
    queryKey: ['campaign-audience', accountId, sorted, fromEmail],
    queryFn: () => apiRequest<AudiencePreview>(internalPath(accountId, '/audience-preview'), { method: 'POST', body: { list_ids: sorted, ...(fromEmail ? { from_email: fromEmail } : {}) } }),
    placeholderData: (previous) => previous,
  });
}

/** Published templates (a campaign sends a published version, never a draft). */
export function usePublishedTemplates(accountId: string) {
  return useQuery({
    queryKey: ['campaign-templates', accountId],
    queryFn: () => apiRequest<ListEnvelope<TemplateObject>>(`/v2/accounts/${accountId}/templates?limit=100`),
    select: (page) => page.data.filter((template) => template.latest_version !== null),
  });
}

function useCampaignMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (result) => {
      if (result && typeof result === 'object' && (result as { object?: string }).object === 'campaign') {
        const campaign = result as unknown as CampaignObject;
        client.setQueryData(['campaign', accountId, campaign.id], campaign);
      }
      void client.invalidateQueries({ queryKey: ['campaigns', accountId] });
    },
  });
}

export function useCreateCampaign(accountId: string) {
  return useCampaignMutation(accountId, (body: { name: string }) => apiRequest<CampaignObject>(campaignPath(accountId), { method: 'POST', body }));
}

export function useUpdateCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, (body: UpdateCampaignInput) => apiRequest<CampaignObject>(campaignPath(accountId, campaignId), { method: 'PUT', body }));
}

export function useDeleteCampaign(accountId: string) {
  return useCampaignMutation(accountId, (campaignId: string) => apiRequest<{ message: string }>(campaignPath(accountId, campaignId), { method: 'DELETE' }));
}

export function useSendCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, (body: { send_at?: string }) => apiRequest<CampaignObject>(`${campaignPath(accountId, campaignId)}/send`, { method: 'POST', body }));
}

export function useUnscheduleCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, () => apiRequest<CampaignObject>(`${campaignPath(accountId, campaignId)}/unschedule`, { method: 'POST' }));
}

export function useTestCampaign(accountId: string, campaignId: string) {
  return useMutation({
    mutationFn: (emails: string[]) => apiRequest<{ data: { id: string; recipient: { email: string } }[] }>(`${campaignPath(accountId, campaignId)}/test`, { method: 'POST', body: { emails } }),
  });
}
