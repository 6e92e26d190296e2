import { z } from 'zod';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

export type BadInputCase = { name: string; body: Record<string, unknown>; field: string };

const wrongValueFor: Record<string, unknown> = {
  string: 12345,
  number: 'not a number',
  integer: 'not a number',
  boolean: 'maybe',
  array: 'not an array',
  object: 42,
};

function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

function concrete(schema: JsonSchema): JsonSchema {
  return schema.anyOf?.find((option) => option.type !== 'null') ?? schema;
}

/**
 * Bad bodies derived from a route's zod schema (through its JSON Schema): each field with a value of
 * the wrong type, each required field missing, each bounded string or list one past its bound.
 */
export function badInputCases(schema: z.ZodType, valid: Record<string, unknown>): BadInputCase[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const cases: BadInputCase[] = [];
  for (const [field, property] of Object.entries(json.properties ?? {})) {
    const types = typesOf(property);
    const wrongType = Object.keys(wrongValueFor).find(
      (type) =>
        !types.includes(type) &&
        !(type === 'number' && types.includes('integer')) &&
        !(type === 'integer' && types.includes('number')),
    );
    if (wrongType && types.length > 0) {
      cases.push({
        name: `${field} of the wrong type`,
        body: { ...valid, [field]: wrongValueFor[types[0]] ?? wrongValueFor[wrongType] },
        field,
      });
    }
    const shape = concrete(property);
    if (shape.maxLength !== undefined)
      cases.push({
        name: `${field} over ${shape.maxLength} characters`,
        body: { ...valid, [field]: 'x'.repeat(shape.maxLength + 1) },
        field,
      });
    if (shape.maxItems !== undefined && shape.maxItems <= 1000) {
      const item = shape.items?.type === 'string' ? 'x' : {};
      cases.push({
        name: `${field} over ${shape.maxItems} items`,
        body: { ...valid, [field]: Array.from({ length: shape.maxItems + 1 }, () => item) },
        field,
      });
    }
  }
  for (const field of json.required ?? []) {
    const { [field]: _omitted, ...rest } = valid;
    cases.push({ name: `${field} missing`, body: rest, field });
  }
  return cases;
}

/** More levels than the server accepts below the body (32; see lib/api/storable-input.ts). */
const TOO_DEEP = 40;

function nestedTooDeep(): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < TOO_DEEP; level++) value = { level: value };
  return value;
}

/** Every string leaf and every object of a valid body, with its path. */
function leavesOf(value: unknown, path: string[] = []): { strings: string[][]; objects: string[][] } {
  const found = { strings: [] as string[][], objects: [] as string[][] };
  if (typeof value === 'string') found.strings.push(path);
  else if (Array.isArray(value)) value.forEach((item, index) => merge(found, leavesOf(item, [...path, String(index)])));
  else if (typeof value === 'object' && value !== null) {
    found.objects.push(path);
    for (const [key, item] of Object.entries(value)) merge(found, leavesOf(item, [...path, key]));
  }
  return found;
}

function merge(into: { strings: string[][]; objects: string[][] }, from: { strings: string[][]; objects: string[][] }) {
  into.strings.push(...from.strings);
  into.objects.push(...from.objects);
}

function withValueAt(
  body: Record<string, unknown>,
  path: string[],
  change: (current: unknown) => unknown,
): Record<string, unknown> {
  const copy = structuredClone(body);
  if (path.length === 0) return change(copy) as Record<string, unknown>;
  let parent: any = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment];
  parent[path.at(-1)!] = change(parent[path.at(-1)!]);
  return copy;
}

export type UnstorableCase = BadInputCase & { problem: RegExp };

const NUL = { name: 'a NUL character', text: 'a\u0000b', problem: /contains a NUL character/ };
const SURROGATE = { name: 'an unpaired surrogate', text: 'a\ud800b', problem: /contains an unpaired surrogate/ };

/**
 * Bodies the database could not store, derived from a route's schema and a valid body: a NUL and an
 * unpaired surrogate in every string of the valid body and in every top-level field, a NUL in an
 * object key at every level, and every top-level field nested too deep. Each must be a 400 naming
 * the field and the problem.
 */
export function unstorableInputCases(schema: z.ZodType, valid: Record<string, unknown>): UnstorableCase[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const topLevel = Object.keys(json.properties ?? {}).map((field) => [field]);
  const { strings, objects } = leavesOf(valid);
  const stringPaths = [...new Map([...strings, ...topLevel].map((path) => [path.join('.'), path])).values()];
  const cases: UnstorableCase[] = [];
  for (const bad of [NUL, SURROGATE]) {
    for (const path of stringPaths) {
      const field = path.join('.');
      cases.push({
        name: `${bad.name} in ${field}`,
        body: withValueAt(valid, path, () => bad.text),
        field,
        problem: bad.problem,
      });
    }
  }
  for (const path of objects) {
    const field = [...path, 'x\\u0000'].join('.');
    cases.push({
      name: `a NUL character in a field name inside ${path.join('.') || 'the body'}`,
      body: withValueAt(valid, path, (object) => ({ ...(object as object), 'x\u0000': 'v' })),
      field,
      problem: /the name contains a NUL character/,
    });
  }
  for (const [field] of topLevel) {
    cases.push({
      name: `${field} nested ${TOO_DEEP} levels deep`,
      body: { ...valid, [field]: nestedTooDeep() },
      field,
      problem: /nested deeper than 32 levels/,
    });
  }
  return cases;
}

/** Query strings with a NUL in each parameter's value, and one in a parameter's name. */
export function unstorableQueryCases(query: z.ZodObject): { name: string; query: string; field: string }[] {
  const names = Object.keys(query.shape);
  return [
    ...names.map((name) => ({
      name: `a NUL character in the query parameter ${name}`,
      query: `${name}=a%00b`,
      field: name,
    })),
    { name: 'a NUL character in a query parameter name', query: 'x%00y=1', field: 'x\\u0000y' },
  ];
}
