import { expect } from '@playwright/test';
import { fetch } from 'undici';
import type { ApiClient, ApiResponse } from './client';

export function expectError(response: ApiResponse, status: number, message?: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message) expect(response.body.message).toMatch(message);
}

/** Uploads, jobs and contacts of the suite's account, `api()` by default (read when called, after beforeAll has set it). */
export function importHelpers(api: () => ApiClient) {
  const importPath = (client = api(), suffix = '') => client.account(`/contacts/import${suffix}`);

  /** The file as the request body, with its Content-Type (and any other header). */
  async function upload(
    client: ApiClient,
    body: string | Buffer,
    contentType: string | null = 'text/csv',
    query = '',
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const all: Record<string, string> = { authorization: `Bearer ${client.apiKey}`, ...headers };
    if (contentType) all['content-type'] = contentType;
    const response = await fetch(client.baseUrl + importPath(client, query), {
      method: 'POST',
      body,
      headers: all,
      dispatcher: client.agent,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers as unknown as Headers,
      body: text ? JSON.parse(text) : null,
      text,
    };
  }

  /** Polls the job until the worker has finished it. */
  async function finished(client: ApiClient, id: string, timeoutMs = 30_000): Promise<any> {
    let job: any = null;
    await expect
      .poll(
        async () => {
          job = (await client.get(importPath(client, `/${id}`))).body;
          return job.status;
        },
        { timeout: timeoutMs, intervals: [100, 250, 500] },
      )
      .toMatch(/^(completed|failed)$/);
    return job;
  }

  const contact = async (email: string, client = api()) =>
    (await client.get(client.account(`/contacts/${encodeURIComponent(email)}`))).body;

  return { importPath, upload, finished, contact };
}
