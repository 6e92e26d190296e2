'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { contactsPath } from './contact-queries';
import { apiRequest } from './api';
import type { ContactImportObject } from './types';

const importPath = (accountId: string, importId?: string) => `${contactsPath(accountId)}/import${importId ? `/${importId}` : ''}`;

/** Uploads the (re-headed) CSV as the request body; the API answers at once with the queued job. */
export function useStartImport(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, listId }: { file: Blob; listId: string | null }) => {
      const query = listId ? `?${new URLSearchParams({ list_id: listId })}` : '';
      const response = await fetch(`${importPath(accountId)}${query}`, { method: 'POST', body: file, headers: { 'content-type': 'text/csv' }, credentials: 'same-origin', cache: 'no-store' });
      const text = await response.text();
      const data = text ? (JSON.parse(text) as unknown) : null;
      if (!response.ok) throw new ApiError(response.status, (data as { message?: string } | null)?.message ?? `upload failed (${response.status})`, response.headers.get('mailstead-error-field'));
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
      const job = await apiRequest<ContactImportObject>(importPath(accountId, importId!));
      if (isFinished(job)) for (const key of ['contacts', 'lists', 'list', 'list-members']) void client.invalidateQueries({ queryKey: [key, accountId] });
      return job;
    },
    enabled: importId !== null,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : 1000),
  });
}
