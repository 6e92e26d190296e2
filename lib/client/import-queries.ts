'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { ApiError } from './api';
import { callEndpoint, endpointPath, type ResponseOf } from './endpoints';

const IMPORTS = 'POST /v2/accounts/{account_id}/contacts/import';
type ContactImportObject = ResponseOf<typeof IMPORTS>;

/** Uploads the (re-headed) CSV as the request body; the API answers at once with the queued job. */
export function useStartImport(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, listId }: { file: Blob; listId: string | null }) => {
      const query = listId ? `?${new URLSearchParams({ list_id: listId })}` : '';
      // The body is the file itself, streamed to the server: not JSON, so not through callEndpoint.
      const response = await fetch(`${endpointPath(IMPORTS, { account_id: accountId })}${query}`, {
        method: 'POST',
        body: file,
        headers: { 'content-type': 'text/csv' },
        credentials: 'same-origin',
        cache: 'no-store',
      });
      const text = await response.text();
      const data = text ? (JSON.parse(text) as unknown) : null;
      if (!response.ok)
        throw new ApiError(
          response.status,
          (data as { message?: string } | null)?.message ?? `upload failed (${response.status})`,
          response.headers.get('mailstead-error-field'),
        );
      return data as ContactImportObject;
    },
    onSuccess: (job) => client.setQueryData(['contact-import', accountId, job.id], job),
  });
}

const isFinished = (job: ContactImportObject | undefined) => job?.status === 'completed' || job?.status === 'failed';

/** The job, polled every second until it completes or fails; then the contacts and lists refresh. */
export function useContactImport(accountId: string, importId: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['contact-import', accountId, importId],
    queryFn: async () => {
      const job = await callEndpoint('GET /v2/accounts/{account_id}/contacts/import/{import_id}', {
        account_id: accountId,
        import_id: importId!,
      });
      if (isFinished(job))
        for (const key of ['contacts', 'lists', 'list', 'list-members'])
          void client.invalidateQueries({ queryKey: [key, accountId] });
      return job;
    },
    enabled: importId !== null,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : 1000),
  });
}
