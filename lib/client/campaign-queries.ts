'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import type { checkCampaign } from '@/lib/core/campaigns/check-campaign';
import type { CampaignObject } from '@/lib/core/campaigns/internal/present';
import type { CampaignPeople } from '@/lib/core/campaigns/list-campaign-people';
import type { previewCampaignAudience } from '@/lib/core/campaigns/preview-campaign-audience';
import { apiRequest } from './api';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/campaigns';
const ITEM = '/v2/accounts/{account_id}/campaigns/{campaign_id}';

export type { CampaignObject, CampaignPeople };
export type CampaignStats = ResponseOf<`GET ${typeof ITEM}/stats`>;
export type CampaignReport = ResponseOf<`GET ${typeof ITEM}/report`>;
export type CampaignCheck = Awaited<ReturnType<typeof checkCampaign>>;
export type AudiencePreview = Awaited<ReturnType<typeof previewCampaignAudience>>;

const internalPath = (accountId: string, suffix: string) => `/internal/accounts/${accountId}/campaigns${suffix}`;

/** States in which the worker moves the campaign on (or a paused one's last deliveries land), so the page keeps asking. */
export const isCampaignMoving = (status: string | undefined) =>
  status === 'validating' || status === 'scheduled' || status === 'sending' || status === 'paused';

export function useCampaigns(accountId: string, query: string) {
  return useQuery({
    queryKey: ['campaigns', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
    refetchInterval: 15_000,
  });
}

export function useCampaign(accountId: string, campaignId: string) {
  return useQuery({
    queryKey: ['campaign', accountId, campaignId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, campaign_id: campaignId }),
    refetchInterval: (query) => (isCampaignMoving(query.state.data?.status) ? 1500 : false),
  });
}

export function useCampaignStats(accountId: string, campaignId: string, isLive: boolean) {
  return useQuery({
    queryKey: ['campaign-stats', accountId, campaignId],
    queryFn: () => callEndpoint(`GET ${ITEM}/stats`, { account_id: accountId, campaign_id: campaignId }),
    refetchInterval: isLive ? 3000 : 30_000,
  });
}

export function useCampaignReport(accountId: string, campaignId: string, isLive: boolean) {
  return useQuery({
    queryKey: ['campaign-report', accountId, campaignId],
    queryFn: () => callEndpoint(`GET ${ITEM}/report`, { account_id: accountId, campaign_id: campaignId }),
    refetchInterval: isLive ? 5000 : 60_000,
  });
}

/** The report's latest bounces and unsubscribes (session only: the v2 report has the numbers). */
export function useCampaignPeople(accountId: string, campaignId: string, isLive: boolean) {
  return useQuery({
    queryKey: ['campaign-people', accountId, campaignId],
    queryFn: () => apiRequest<CampaignPeople>(internalPath(accountId, `/${campaignId}/people`)),
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
export function useAudiencePreview(
  accountId: string,
  listIds: string[],
  fromEmail: string | null,
  narrowing: { segment_ids: string[]; exclude_list_ids: string[]; exclude_segment_ids: string[] } = {
    segment_ids: [],
    exclude_list_ids: [],
    exclude_segment_ids: [],
  },
) {
  const sorted = [...listIds].sort();
  return useQuery({
    queryKey: ['campaign-audience', accountId, sorted, fromEmail, narrowing],
    queryFn: () =>
      apiRequest<AudiencePreview>(internalPath(accountId, '/audience-preview'), {
        method: 'POST',
        body: { list_ids: sorted, ...narrowing, ...(fromEmail ? { from_email: fromEmail } : {}) },
      }),
    placeholderData: (previous) => previous,
  });
}

/** Published templates (a campaign sends a published version, never a draft). */
export function usePublishedTemplates(accountId: string) {
  return useQuery({
    queryKey: ['campaign-templates', accountId],
    queryFn: () =>
      callEndpoint('GET /v2/accounts/{account_id}/templates', { account_id: accountId }, { query: 'limit=100' }),
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
        // A pause, resume or cancel changes the numbers too (a cancel moves deferred to cancelled).
        void client.invalidateQueries({ queryKey: ['campaign-stats', accountId, campaign.id] });
      }
      void client.invalidateQueries({ queryKey: ['campaigns', accountId] });
    },
  });
}

export function useCreateCampaign(accountId: string) {
  return useCampaignMutation(accountId, (body: RequestOf<`POST ${typeof COLLECTION}`>) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, (body: RequestOf<`PUT ${typeof ITEM}`>) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, campaign_id: campaignId }, { body }),
  );
}

export function useDeleteCampaign(accountId: string) {
  return useCampaignMutation(accountId, (campaignId: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, campaign_id: campaignId }),
  );
}

export function useSendCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, (body: RequestOf<`POST ${typeof ITEM}/send`>) =>
    callEndpoint(`POST ${ITEM}/send`, { account_id: accountId, campaign_id: campaignId }, { body }),
  );
}

export function useUnscheduleCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, () =>
    callEndpoint(`POST ${ITEM}/unschedule`, { account_id: accountId, campaign_id: campaignId }),
  );
}

/** Pause, resume or cancel: each answers with the campaign in its new state (and its counts). */
export function useCampaignLifecycle(accountId: string, campaignId: string) {
  const path = { account_id: accountId, campaign_id: campaignId };
  return useCampaignMutation(accountId, (action: 'pause' | 'resume' | 'cancel') =>
    action === 'pause'
      ? callEndpoint(`POST ${ITEM}/pause`, path)
      : action === 'resume'
        ? callEndpoint(`POST ${ITEM}/resume`, path)
        : callEndpoint(`POST ${ITEM}/cancel`, path),
  );
}

export function useDuplicateCampaign(accountId: string, campaignId: string) {
  return useCampaignMutation(accountId, () =>
    callEndpoint(`POST ${ITEM}/duplicate`, { account_id: accountId, campaign_id: campaignId }),
  );
}

export function useTestCampaign(accountId: string, campaignId: string) {
  return useMutation({
    mutationFn: (emails: string[]) =>
      callEndpoint(`POST ${ITEM}/test`, { account_id: accountId, campaign_id: campaignId }, { body: { emails } }),
  });
}

/** An A/B campaign's winner chosen by hand while it waits. */
export function useChooseCampaignVariant(accountId: string, campaignId: string) {
  const client = useQueryClient();
  const mutation = useCampaignMutation(accountId, (variantId: string) =>
    callEndpoint(`POST ${ITEM}/variants/{variant_id}/choose`, {
      account_id: accountId,
      campaign_id: campaignId,
      variant_id: variantId,
    }),
  );
  return {
    ...mutation,
    choose: async (variantId: string) => {
      const result = await mutation.mutateAsync(variantId);
      void client.invalidateQueries({ queryKey: ['campaign-report', accountId, campaignId] });
      return result;
    },
  };
}
