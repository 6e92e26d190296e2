import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { anonymousPrincipal } from '@/lib/auth/principal';
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError } from '@/lib/shared/errors';
import type { Verb } from '@/lib/core/verb';
import { z as zod } from '@/lib/core/zod';
import { declaredLength, DEFAULT_BODY_LIMIT, parseJsonBody, readRawBody, refuseDeclaredOversizeUpload } from './body';
import { withIdempotency, type IdempotencyMode } from './middleware/idempotency';
import { getRequestMeta } from './request-meta';
import type { ApiApp, ApiDeps, ApiEnv } from './services';
import { findUnstorableParameter } from './storable-input';

type Method = 'get' | 'post' | 'put' | 'delete';

/** An upload's body, handed on unread: the verb consumes it chunk by chunk. */
export type Upload = { stream: AsyncIterable<Uint8Array>; contentType: string | null; declaredBytes: number | null };

export type RequestParts = {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  upload?: Upload;
};

/**
 * One API operation: its URL, the core verb it calls, how the verb's input is assembled from the
 * request, and what the OpenAPI document says about it. Everything the chain needs is data here.
 */
export type Endpoint = {
  method: Method;
  /** OpenAPI form, e.g. `/v2/accounts/{account_id}/api-keys/{key_id}`. */
  path: string;
  verb: Verb<z.ZodType, unknown>;
  status: 200 | 201 | 202;
  summary: string;
  /** Longer prose for the document: behaviour the contract leaves open and what we decided. */
  description?: string;
  tags: string[];
  /** Schemas for the document; the verb validates with the same objects. */
  body?: z.ZodType;
  query?: z.ZodObject;
  response: z.ZodType;
  input?: (parts: RequestParts) => unknown;
  present?: (result: never) => unknown;
  idempotency?: IdempotencyMode;
  bodyLimit?: number;
  /**
   * The body is a file the verb streams (contact import): the chain never reads it, and the
   * document lists these media types instead of JSON.
   */
  upload?: { mediaTypes: string[]; description: string; maxBytes: number };
  /** Mailstead additions to the AhaSend contract are marked in the OpenAPI document. */
  isExtension?: boolean;
  /** The response carries a secret that must never be logged or shown again. */
  isSecretBearing?: boolean;
  /** `/internal/*` (dashboard only) and `/v1` (its own legacy contract) stay out of /v2/openapi.json. */
  isHiddenFromDocument?: boolean;
  /** Served without a credential (first-run setup); the verb then sees an anonymous principal. */
  isAnonymous?: boolean;
  /** The document's media type of the answer when `respond` sends something other than JSON (a CSV file). */
  responseMediaType?: string;
  /** For the few endpoints that answer something other than JSON. */
  respond?: (c: Context<ApiEnv>, result: never) => Response;
};

export type RouteTable = { method: string; pattern: RegExp }[];

const toHonoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
const toPattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);

function firstValues(query: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([key, values]) => [key, values[0] ?? '']));
}

/** The verb's input from the request, or the 400 that says why there is none. */
function readInput(
  c: Context<ApiEnv>,
  endpoint: Endpoint,
  rawBody: string | null,
): { ok: true; input: unknown } | { ok: false; error: AppError } {
  try {
    const params = c.req.param() as Record<string, string>;
    const queries = c.req.queries();
    const unstorable = findUnstorableParameter(params) ?? findUnstorableParameter(queries);
    if (unstorable) throw unstorable;
    const body = rawBody === null ? {} : parseJsonBody(c, rawBody);
    const parts: RequestParts = {
      params,
      query: firstValues(queries),
      body,
      upload: endpoint.upload ? uploadOf(c) : undefined,
    };
    return {
      ok: true,
      input: endpoint.input ? endpoint.input(parts) : { ...parts.query, ...parts.body, ...parts.params },
    };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error };
    throw error;
  }
}

const NO_BYTES: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

function uploadOf(c: Context<ApiEnv>): Upload {
  // Node's web streams are async iterable; the DOM typings do not say so.
  return {
    stream: (c.req.raw.body as unknown as AsyncIterable<Uint8Array> | null) ?? NO_BYTES,
    contentType: c.req.header('content-type') ?? null,
    declaredBytes: declaredLength(c),
  };
}

/**
 * An upload refused before it was read (scope, Content-Type, list) is read to its end and dropped,
 * up to a little over the limit: a client that is still sending would otherwise never see the
 * answer. Beyond that the stream is cancelled and the connection goes with it. A body declared over
 * the limit is never read: its answer closes the connection instead.
 */
async function discardUnread(c: Context<ApiEnv>, maxBytes: number): Promise<void> {
  const body = c.req.raw.body;
  const declared = declaredLength(c);
  if (!body || body.locked || (declared !== null && declared > maxBytes)) return;
  let seen = 0;
  try {
    for await (const piece of body as unknown as AsyncIterable<Uint8Array>) {
      seen += piece.byteLength;
      if (seen > maxBytes + 1024 * 1024) break;
    }
  } catch {
    // The client went away: nothing left to drop.
  }
}

/**
 * What an upload's Idempotency-Key is checked against: the request without its body, which is
 * streamed to the database and never held whole, so it cannot be hashed before the key is claimed.
 */
const uploadFingerprint = (c: Context<ApiEnv>) =>
  ['upload', new URL(c.req.url).search, c.req.header('content-type') ?? '', c.req.header('content-length') ?? ''].join(
    '\n',
  );

/**
 * The chain after routing: scope (the domain scope too when the input names domains), idempotency,
 * validation, verb. Permission comes before idempotency because a replay is a response the caller
 * must be allowed to see; a request that does not parse is refused after it, like any invalid input.
 */
export function registerEndpoint(
  app: ApiApp,
  registry: OpenAPIRegistry,
  routes: RouteTable,
  deps: ApiDeps,
  endpoint: Endpoint,
): void {
  const bodyLimit = endpoint.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const hasBody = endpoint.method === 'post' || endpoint.method === 'put';
  const handler = async (c: Context<ApiEnv>) => {
    const principal = endpoint.isAnonymous ? anonymousPrincipal(getRequestMeta(c).clientIp) : c.get('principal');
    const ctx = { ...deps, principal, logger: c.get('logger') ?? deps.logger, requestId: c.get('requestId') };
    // Scope before reading the body: a caller without it learns nothing about the input rules.
    endpoint.verb.checkScope(principal);
    if (endpoint.upload) refuseDeclaredOversizeUpload(c, endpoint.upload.maxBytes);
    const rawBody = hasBody && !endpoint.upload ? await readRawBody(c, bodyLimit) : null;
    const request = readInput(c, endpoint, rawBody);
    const authorized = request.ok ? await endpoint.verb.authorize(ctx, request.input) : request.error;
    const execute = async () => {
      if (authorized instanceof AppError) throw authorized;
      const result = await endpoint.verb.execute(ctx, authorized);
      if (endpoint.respond) return endpoint.respond(c, result as never);
      const payload = endpoint.present ? endpoint.present(result as never) : result;
      return c.json(payload as object, endpoint.status);
    };
    return endpoint.idempotency
      ? withIdempotency(
          c,
          deps,
          { mode: endpoint.idempotency, principal, rawBody: endpoint.upload ? uploadFingerprint(c) : (rawBody ?? '') },
          execute,
        )
      : execute();
  };
  const uploadHandler = async (c: Context<ApiEnv>) => {
    try {
      return await handler(c);
    } finally {
      await discardUnread(c, endpoint.upload!.maxBytes);
    }
  };
  app.on([endpoint.method.toUpperCase()], [toHonoPath(endpoint.path)], endpoint.upload ? uploadHandler : handler);
  routes.push({ method: endpoint.method.toUpperCase(), pattern: toPattern(endpoint.path) });
  if (!endpoint.isHiddenFromDocument) document(registry, endpoint);
}

function document(registry: OpenAPIRegistry, endpoint: Endpoint) {
  const pathParams = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const errorSchema = zod.object({ message: zod.string() });
  const errors = Object.fromEntries(
    [400, 401, 403, 404, ...(endpoint.upload ? [413, 415] : []), 429, 500].map((status) => [
      status,
      { description: 'Error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  );
  registry.registerPath({
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: endpoint.tags,
    security: [{ BearerAuth: [endpoint.verb.scope] }],
    ...(endpoint.isExtension ? { 'x-mailstead-extension': true } : {}),
    request: {
      params: pathParams.length
        ? zod.object(Object.fromEntries(pathParams.map((name) => [name, zod.string()])))
        : undefined,
      query: endpoint.query,
      headers: endpoint.idempotency ? zod.object({ 'Idempotency-Key': zod.string().max(255).optional() }) : undefined,
      body: endpoint.upload
        ? {
            description: endpoint.upload.description,
            content: Object.fromEntries(endpoint.upload.mediaTypes.map((type) => [type, { schema: zod.string() }])),
          }
        : endpoint.body
          ? { content: { 'application/json': { schema: endpoint.body } } }
          : undefined,
    },
    responses: {
      [endpoint.status]: {
        description: 'Success',
        content: { [endpoint.responseMediaType ?? 'application/json']: { schema: endpoint.response } },
      },
      ...errors,
      ...(endpoint.idempotency
        ? {
            409: {
              description: 'Idempotency key in progress (Idempotent-Replayed: false, Retry-After) or a conflict',
              content: { 'application/json': { schema: errorSchema } },
            },
            422: {
              description: 'Idempotency key reused with a different request',
              content: { 'application/json': { schema: errorSchema } },
            },
          }
        : {}),
    },
  });
}
