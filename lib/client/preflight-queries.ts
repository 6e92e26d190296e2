'use client';

import { useEffect, useState } from 'react';
import { useQuery } from './use-query';
import { callEndpoint, type ResponseOf } from './endpoints';

const CAMPAIGN = 'POST /v2/accounts/{account_id}/campaigns/{campaign_id}/preflight' as const;
const TEMPLATE = 'POST /v2/accounts/{account_id}/templates/{template_id}/preflight' as const;

export type Preflight = ResponseOf<typeof CAMPAIGN>;
export type PreflightTarget = { kind: 'campaign'; campaignId: string } | { kind: 'template'; templateId: string };

/** Preflight runs fetch links and ask spamd: a burst of edits asks once, this long after the last. */
const DEBOUNCE_MS = 1200;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The preflight of a campaign or a template draft, run again when `runKey` changes (a save, a step)
 * and settles; the previous answer stays on screen while the next one runs.
 */
export function usePreflight(accountId: string, target: PreflightTarget, runKey: string) {
  const key = useDebounced(runKey, DEBOUNCE_MS);
  const id = target.kind === 'campaign' ? target.campaignId : target.templateId;
  return useQuery({
    queryKey: ['preflight', accountId, target.kind, id, key],
    queryFn: (): Promise<Preflight> =>
      target.kind === 'campaign'
        ? callEndpoint(CAMPAIGN, { account_id: accountId, campaign_id: target.campaignId })
        : callEndpoint(TEMPLATE, { account_id: accountId, template_id: target.templateId }),
    placeholderData: (previous) => previous,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}
