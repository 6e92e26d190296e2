'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { ApiError } from './api';
import { callEndpoint, endpointPath, type ResponseOf } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/media';
const ITEM = '/v2/accounts/{account_id}/media/{media_id}';
export type MediaObject = ResponseOf<`POST ${typeof COLLECTION}`>;

/** `query`: `after`, `before`, `limit`. */
export function useMediaList(accountId: string, query: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['media', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
    enabled: options.enabled,
  });
}

export function useDeleteMedia(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, media_id: id }),
    onSettled: () => client.invalidateQueries({ queryKey: ['media', accountId] }),
  });
}

/**
 * Uploads one image as a multipart form. XMLHttpRequest rather than fetch: only it reports upload
 * progress, which a 5 MB file on a slow line needs. `onProgress` gets 0..1.
 */
export function useUploadMedia(accountId: string, onProgress: (fraction: number) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      new Promise<MediaObject>((resolve, reject) => {
        const form = new FormData();
        form.append('file', file, file.name);
        const request = new XMLHttpRequest();
        request.open('POST', endpointPath(`POST ${COLLECTION}`, { account_id: accountId }));
        request.withCredentials = true;
        request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
        request.onerror = () => reject(new ApiError(0, 'the upload did not reach the server; try again', null));
        request.onload = () => {
          let data: { message?: string } | null = null;
          try {
            data = request.responseText ? (JSON.parse(request.responseText) as { message?: string }) : null;
          } catch {
            // Not JSON (a proxy's page): the status says enough.
          }
          if (request.status === 201) return resolve(data as MediaObject);
          reject(
            new ApiError(
              request.status,
              data?.message ?? `upload failed (${request.status})`,
              request.getResponseHeader('mailstead-error-field'),
            ),
          );
        };
        request.send(form);
      }),
    onSettled: () => client.invalidateQueries({ queryKey: ['media', accountId] }),
  });
}
