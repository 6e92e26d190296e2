import { expect } from '@playwright/test';
import type { ApiClient } from './client';
import { newAccount } from './shared';

/** The account of a routes suite on the shared server, with two domains of its own. */
export async function routeAccount(stamp: string): Promise<{ api: ApiClient; domainA: string; domainB: string }> {
  const { api } = await newAccount('Routes');
  const domainA = `rt-a-${stamp}.example.com`;
  const domainB = `rt-b-${stamp}.example.com`;
  for (const domain of [domainA, domainB])
    expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  return { api, domainA, domainB };
}

/** Paths and writes of the suite's account, `api()` by default (read when called, after beforeAll has set it). */
export function routeHelpers(api: () => ApiClient, stamp: string) {
  let counter = 0;
  /** A public address (one the shared server will not call), a new one each time. */
  const publicUrl = (label = 'route') => `https://routes-${stamp}.example.com/${label}-${counter++}`;
  const routes = (suffix = '') => api().account(`/routes${suffix}`);
  const create = (body: Record<string, unknown>, client = api(), headers?: Record<string, string>) =>
    client.post(client.account('/routes'), body, { headers });

  async function keyWith(scopes: string[]): Promise<ApiClient> {
    const created = await api().post(api().account('/api-keys'), { label: `holder of ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api().with(created.body.secret_key);
  }

  return { publicUrl, routes, create, keyWith };
}
