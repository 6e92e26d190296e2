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
    const wrongType = Object.keys(wrongValueFor).find((type) => !types.includes(type) && !(type === 'number' && types.includes('integer')) && !(type === 'integer' && types.includes('number')));
    if (wrongType && types.length > 0) {
      cases.push({ name: `${field} of the wrong type`, body: { ...valid, [field]: wrongValueFor[types[0]] ?? wrongValueFor[wrongType] }, field });
    }
    const shape = concrete(property);
    if (shape.maxLength !== undefined) cases.push({ name: `${field} over ${shape.maxLength} characters`, body: { ...valid, [field]: 'x'.repeat(shape.maxLength + 1) }, field });
    if (shape.maxItems !== undefined && shape.maxItems <= 1000) {
      const item = shape.items?.type === 'string' ? 'x' : {};
      cases.push({ name: `${field} over ${shape.maxItems} items`, body: { ...valid, [field]: Array.from({ length: shape.maxItems + 1 }, () => item) }, field });
    }
  }
  for (const field of json.required ?? []) {
    const { [field]: _omitted, ...rest } = valid;
    cases.push({ name: `${field} missing`, body: rest, field });
  }
  return cases;
}
