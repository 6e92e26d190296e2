import type { z } from 'zod';
import type { V2Endpoint } from '@/lib/api/v2';
import type { presentPage } from '@/lib/api/pagination';
import type { Page } from '@/lib/core/shared/pagination';
import { apiRequest } from './api';

/**
 * The dashboard's request and response types, derived from the v2 endpoint table (lib/api/v2) rather
 * than typed again by hand: an endpoint is named by its method and path, as the OpenAPI document
 * names it, e.g. `RequestOf<'POST /v2/accounts/{account_id}/lists'>`. The import is type-only, so
 * none of the server's code reaches the browser.
 */
type KeyOf<E> = E extends { method: infer M extends string; path: infer P extends string }
  ? `${Uppercase<M>} ${P}`
  : never;
export type EndpointKey = KeyOf<V2Endpoint>;

type Split<K extends string> = K extends `${infer M} ${infer P}` ? { method: Lowercase<M>; path: P } : never;
type EndpointAt<K extends EndpointKey> = Extract<V2Endpoint, Split<K>>;
type PathOf<K extends EndpointKey> = Split<K>['path'];

/** The v2 list envelope around items of type T, as `presentPage` writes it. */
export type ListEnvelope<T> = ReturnType<typeof presentPage<T>>;

/** The JSON body a POST or PUT takes, or the query a GET reads (as the schema accepts it). */
export type RequestOf<K extends EndpointKey> =
  EndpointAt<K> extends { body: infer B extends z.ZodType }
    ? z.input<B>
    : EndpointAt<K> extends { query: infer Q extends z.ZodType }
      ? z.input<Q>
      : undefined;

type ResultOf<E> = E extends { verb: (...args: never[]) => Promise<infer R> } ? R : never;

/** What the endpoint answers: its verb's result, presented (a page of items becomes the list envelope). */
export type ResponseOf<K extends EndpointKey> =
  ResultOf<EndpointAt<K>> extends Page<infer T>
    ? ListEnvelope<T>
    : EndpointAt<K> extends { present: (result: never) => infer P }
      ? P
      : ResultOf<EndpointAt<K>>;

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** The path's `{parameters}`, each a string. */
export type ParamsOf<K extends EndpointKey> = { [Name in ParamNames<PathOf<K>>]: string };

/** The URL of an endpoint with its parameters filled in (each encoded: emails and domains are path segments too). */
export function endpointPath<K extends EndpointKey>(key: K, params: ParamsOf<K>): string {
  const values = params as Record<string, string>;
  return key.slice(key.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]));
}

/** Calls one v2 endpoint with the session; the body and the answer are typed by the endpoint table. */
export function callEndpoint<K extends EndpointKey>(
  key: K,
  params: ParamsOf<K>,
  options: { body?: RequestOf<K>; query?: string | URLSearchParams } = {},
): Promise<ResponseOf<K>> {
  const query = options.query ? `?${options.query}` : '';
  return apiRequest<ResponseOf<K>>(`${endpointPath(key, params)}${query}`, {
    method: key.slice(0, key.indexOf(' ')),
    body: options.body,
  });
}
