'use client';

import { useQuery } from './use-query';
import { callEndpoint, type ResponseOf } from './endpoints';

const DMARC = '/v2/accounts/{account_id}/domains/{domain}/dmarc-reports';
const TLS = '/v2/accounts/{account_id}/domains/{domain}/tls-reports';

export type DmarcReportsResponse = ResponseOf<`GET ${typeof DMARC}`>;
export type TlsReportsResponse = ResponseOf<`GET ${typeof TLS}`>;

/** A domain's latest DMARC aggregate reports and their 30-day summary. */
export function useDmarcReports(accountId: string, domain: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['dmarc-reports', accountId, domain],
    queryFn: () =>
      callEndpoint(`GET ${DMARC}`, { account_id: accountId, domain }, { query: new URLSearchParams({ limit: '20' }) }),
    refetchInterval: 60_000,
    ...options,
  });
}

export function useTlsReports(accountId: string, domain: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['tls-reports', accountId, domain],
    queryFn: () =>
      callEndpoint(`GET ${TLS}`, { account_id: accountId, domain }, { query: new URLSearchParams({ limit: '20' }) }),
    refetchInterval: 60_000,
    ...options,
  });
}
