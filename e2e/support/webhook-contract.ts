import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { contractFile } from './contract';

/**
 * The payload schemas of ahasend-webhooks.yaml, by event type; each payload must also carry no field the document does not name.
 * Returns the problems found in one payload (none when no contract is at hand).
 */
export const webhookContract = (() => {
  const file = contractFile ? path.join(path.dirname(contractFile), 'ahasend-webhooks.yaml') : null;
  const doc = file
    ? (parse(readFileSync(file, 'utf8')) as {
        webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
        components: { schemas: Record<string, any> };
      })
    : null;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  if (doc) ajv.addSchema(doc, 'webhooks');
  const resolve = (ref: string): any => doc!.components.schemas[ref.split('/').at(-1)!];
  /** Property names a schema allows (allOf followed). */
  const names = (schema: any): Set<string> => {
    const found = new Set<string>(Object.keys(schema.properties ?? {}));
    for (const part of schema.allOf ?? [])
      for (const name of names(part.$ref ? resolve(part.$ref) : part)) found.add(name);
    return found;
  };
  return (payload: any): string[] => {
    if (!doc) return [];
    const ref = doc.webhooks[payload.type]?.post.requestBody.content['application/json'].schema.$ref;
    if (!ref) return [`${payload.type} is not a documented event type`];
    const validate = ajv.getSchema(`webhooks${ref}`) ?? ajv.compile({ $ref: `webhooks${ref}` });
    const problems = validate(payload)
      ? []
      : (validate.errors ?? []).map((error) => `${payload.type}: ${error.instancePath} ${error.message}`);
    const schema = resolve(ref);
    const top = names(schema);
    // The documented top level, plus webhook_id, which the Go SDK's document requires on every event.
    top.add('webhook_id');
    problems.push(
      ...Object.keys(payload)
        .filter((key) => !top.has(key))
        .map((key) => `${payload.type}: undocumented field ${key}`),
    );
    const dataSchema = [...(schema.allOf ?? [schema])]
      .map((part: any) => (part.$ref ? resolve(part.$ref) : part))
      .find((part: any) => part.properties?.data)?.properties.data;
    if (dataSchema?.$ref) {
      const data = names(resolve(dataSchema.$ref));
      problems.push(
        ...Object.keys(payload.data ?? {})
          .filter((key) => !data.has(key))
          .map((key) => `${payload.type}: undocumented data field ${key}`),
      );
    }
    return problems;
  };
})();
