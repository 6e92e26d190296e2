import { expect } from '@playwright/test';
import { fetch, type Agent } from 'undici';
import { contractViolations } from './contract';
import { trustingAgent } from './server';

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

type RequestOptions = {
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  apiKey?: string | null;
  checkContract?: boolean;
};

/**
 * An HTTPS client for the tests: trusts exactly the server's certificate, sends the bearer key, and
 * checks every JSON response against the public AhaSend contract.
 */
export class ApiClient {
  readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    readonly dataDir: string,
    readonly apiKey: string | null = null,
    readonly accountId: string | null = null,
    readonly localAddress?: string,
  ) {
    this.agent = trustingAgent(dataDir, localAddress);
  }

  with(apiKey: string | null, accountId = this.accountId): ApiClient {
    return new ApiClient(this.baseUrl, this.dataDir, apiKey, accountId, this.localAddress);
  }

  /** The same client connecting from another loopback address (127.0.0.0/8): a client of its own to the server's limits. */
  from(localAddress: string): ApiClient {
    return new ApiClient(this.baseUrl, this.dataDir, this.apiKey, this.accountId, localAddress);
  }

  /** `/v2/accounts/{account}` + suffix. */
  account(suffix = ''): string {
    return `/v2/accounts/${this.accountId}${suffix}`;
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.apiKey === undefined ? this.apiKey : options.apiKey;
    if (key) headers.authorization ??= `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, dispatcher: this.agent });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    if (options.checkContract !== false && typeof parsed === 'object') {
      const violations = contractViolations(method, new URL(path, this.baseUrl).pathname, response.status, parsed);
      expect(violations, `response of ${method} ${path} breaks the AhaSend contract`).toEqual([]);
    }
    return { status: response.status, headers: response.headers as unknown as Headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
