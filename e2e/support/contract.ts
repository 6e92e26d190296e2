import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { ROOT } from './paths';

/**
 * The public AhaSend OpenAPI document, read at run time from ../shared/reference (never copied into
 * the project). Every JSON response the API tests receive is validated against the operation and
 * status it answers.
 */
const REFERENCE_DIRS = [
  process.env.AHASEND_REFERENCE_DIR,
  path.join(ROOT, '..', 'shared', 'reference'),
  '/work/shared/reference',
].filter(Boolean) as string[];
const referenceDir = REFERENCE_DIRS.find((dir) => existsSync(path.join(dir, 'ahasend-openapi.yaml'))) ?? null;

export const contractFile = referenceDir ? path.join(referenceDir, 'ahasend-openapi.yaml') : null;
// v2 and the legacy v1 document; each gets its own schema id so that their $refs do not mix.
const DOCUMENTS = [
  { file: 'ahasend-openapi.yaml', id: 'ahasend' },
  { file: 'ahasend-openapi-v1.yaml', id: 'ahasend-v1' },
];

type Operation = {
  template: string;
  pattern: RegExp;
  paramCount: number;
  method: string;
  responses: Record<string, unknown>;
  docId: string;
  doc: Record<string, unknown>;
};

let loaded: { ajv: Ajv2020; operations: Operation[] } | null = null;
const validators = new Map<string, ValidateFunction>();

/** OpenAPI 3.0-style `nullable: true` in a 3.1 document: turn it into JSON Schema's null type. */
function normalize(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((item) => normalize(item, id));
  if (!node || typeof node !== 'object') return node;
  const object = Object.fromEntries(
    Object.entries(node as Record<string, unknown>).map(([key, value]) => [key, normalize(value, id)]),
  );
  if (typeof object.$ref === 'string' && (object.$ref as string).startsWith('#/')) object.$ref = `${id}${object.$ref}`;
  if (object.nullable === true) {
    delete object.nullable;
    if (typeof object.type === 'string') object.type = [object.type, 'null'];
    else return { anyOf: [object, { type: 'null' }] };
    if (Array.isArray(object.enum)) object.enum = [...(object.enum as unknown[]), null];
  }
  return object;
}

/**
 * Fields the official SDK ([S] in ahasend-contract.md) lists as always present though they may be
 * null, where the public document ([D]) calls them optional strings: a client built on the SDK
 * fails to decode a response that leaves them out.
 */
const ALWAYS_PRESENT_NULLABLE: Record<string, { schema: string; fields: string[] }[]> = {
  ahasend: [{ schema: 'MessageSummary', fields: ['bounce_classification'] }],
};

function withSdkRequirements(doc: Record<string, any>, id: string): Record<string, any> {
  for (const { schema, fields } of ALWAYS_PRESENT_NULLABLE[id] ?? []) {
    const target = doc.components.schemas[schema];
    for (const field of fields) {
      target.properties[field].nullable = true;
      target.required = [...new Set([...(target.required ?? []), field])];
    }
  }
  return doc;
}

function load() {
  if (loaded || !referenceDir) return loaded;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('fqdn', /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z0-9-]{1,63}$/i);
  const operations: Operation[] = [];
  for (const { file, id } of DOCUMENTS) {
    if (!existsSync(path.join(referenceDir, file))) continue;
    const doc = normalize(
      withSdkRequirements(parse(readFileSync(path.join(referenceDir, file), 'utf8')), id),
      id,
    ) as Record<string, unknown>;
    ajv.addSchema(doc, id);
    for (const [template, item] of Object.entries(
      doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation?.responses) continue;
        operations.push({
          template,
          pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
          paramCount: (template.match(/\{/g) ?? []).length,
          method: method.toUpperCase(),
          responses: operation.responses,
          docId: id,
          doc,
        });
      }
    }
  }
  loaded = { ajv, operations };
  return loaded;
}

function pointer(...parts: string[]): string {
  return parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/**
 * Problems with one response, or [] when it conforms (or when the operation is a Mailstead extension
 * the public document does not describe).
 */
export function contractViolations(method: string, urlPath: string, status: number, body: unknown): string[] {
  const contract = load();
  if (!contract) return [];
  const candidates = contract.operations
    .filter((operation) => operation.method === method && operation.pattern.test(urlPath))
    .sort((a, b) => a.paramCount - b.paramCount);
  const operation = candidates[0];
  if (!operation) return [];
  let responseKey: string = String(status);
  let response = operation.responses[responseKey] as Record<string, unknown> | undefined;
  if (!response) {
    // A status the document does not list for this operation: errors must still be ErrorResponse.
    if (status >= 400 && operation.docId === 'ahasend')
      return validateAgainst(
        contract,
        'ahasend#/components/schemas/ErrorResponse',
        body,
        `${method} ${urlPath} ${status}`,
      );
    if (status >= 400)
      return typeof (body as { status?: unknown })?.status === 'string'
        ? []
        : [`${method} ${urlPath} ${status}: a v1 error must be {"status": "..."}`];
    return [`${method} ${operation.template}: status ${status} is not documented`];
  }
  let base = `${operation.docId}#/paths/${pointer(operation.template, method.toLowerCase(), 'responses', responseKey)}`;
  if (typeof response.$ref === 'string') {
    base = response.$ref as string;
    const name = base.split('/').at(-1)!;
    response = (operation.doc.components as Record<string, Record<string, Record<string, unknown>>>).responses[name];
    responseKey = name;
  }
  const content = response?.content as Record<string, unknown> | undefined;
  if (!content?.['application/json']) return [];
  return validateAgainst(
    contract,
    `${base}/content/${pointer('application/json')}/schema`,
    body,
    `${method} ${operation.template} ${status}`,
  );
}

function validateAgainst(contract: NonNullable<typeof loaded>, ref: string, body: unknown, label: string): string[] {
  let validate = validators.get(ref);
  if (!validate) {
    validate = contract.ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${label}: ${error.instancePath || '(body)'} ${error.message}`);
}
