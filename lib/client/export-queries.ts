'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';

const EXPORTS = 'GET /v2/accounts/{account_id}/contacts/export';
export type ContactExportObject = ResponseOf<'GET /v2/accounts/{account_id}/contacts/export/{export_id}'>;
export type ContactExportSelection = RequestOf<'POST /v2/accounts/{account_id}/contacts/export'>;

export const isExportRunning = (job: Pick<ContactExportObject, 'status'>) =>
  job.status === 'queued' || job.status === 'running';

/** Starts an export of every contact, a list, or the contacts a filter matches; the list of exports then shows it. */
export function useStartExport(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selection: ContactExportSelection) =>
      callEndpoint('POST /v2/accounts/{account_id}/contacts/export', { account_id: accountId }, { body: selection }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['contact-exports', accountId] }),
  });
}

/** The account's recent exports, polled every second while one of them is still being written. */
export function useContactExports(accountId: string) {
  return useQuery({
    queryKey: ['contact-exports', accountId],
    queryFn: () => callEndpoint(EXPORTS, { account_id: accountId }, { query: 'limit=25' }),
    refetchInterval: (query) => (query.state.data?.data.some(isExportRunning) ? 1000 : false),
  });
}
