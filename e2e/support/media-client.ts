import { expect } from '@playwright/test';
import { fetch, FormData, type Agent } from 'undici';
import type { ApiClient, ApiResponse } from './client';

type UploadOptions = {
  /** The multipart file name (multipart) or nothing (raw). */
  fileName?: string;
  /** Sent as the `name` query parameter. */
  name?: string;
  /** `raw`: the image as the body, with `contentType`; the default is a multipart form. */
  as?: 'multipart' | 'raw';
  contentType?: string | null;
  /** A multipart form without the `file` field. */
  fieldName?: string;
};

/** POST /media as a client would: a multipart form with the file in `file`, or the raw bytes. */
export async function uploadMedia(api: ApiClient, bytes: Buffer, options: UploadOptions = {}): Promise<ApiResponse> {
  const query = options.name !== undefined ? `?name=${encodeURIComponent(options.name)}` : '';
  const headers: Record<string, string> = { authorization: `Bearer ${api.apiKey}` };
  let body: FormData | Buffer;
  if (options.as === 'raw') {
    body = bytes;
    if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'image/png';
  } else {
    body = new FormData();
    body.append(options.fieldName ?? 'file', new Blob([new Uint8Array(bytes)]), options.fileName ?? 'image.png');
  }
  const response = await fetch(api.baseUrl + api.account(`/media${query}`), {
    method: 'POST',
    headers,
    body,
    dispatcher: api.agent,
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  return {
    status: response.status,
    headers: response.headers as unknown as Headers,
    body: isJson ? JSON.parse(text) : text,
    text,
  };
}

export async function uploaded(api: ApiClient, bytes: Buffer, options: UploadOptions = {}) {
  const response = await uploadMedia(api, bytes, options);
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; url: string; name: string; size_bytes: number; content_type: string };
}

/** GET a public media URL, without credentials. */
export async function fetchPublic(url: string, agent?: Agent, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, dispatcher: agent });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

export function expectError(response: ApiResponse, status: number, message?: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message) expect(response.body.message).toMatch(message);
}

/** A valid PNG of about `bytes` bytes: the small one with a private chunk of zeros after its header. */
export function paddedPng(png: Buffer, bytes: number): Buffer {
  const size = Math.max(0, bytes - png.length - 12);
  const chunk = Buffer.alloc(12 + size);
  chunk.writeUInt32BE(size, 0);
  chunk.write('prVt', 4, 'latin1');
  const ihdrEnd = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}
