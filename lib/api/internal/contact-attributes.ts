import { createAttributeDefinition } from '@/lib/core/contact-attributes/create-attribute-definition';
import { deleteAttributeDefinition } from '@/lib/core/contact-attributes/delete-attribute-definition';
import { listAttributeDefinitions } from '@/lib/core/contact-attributes/list-attribute-definitions';
import { updateAttributeDefinition } from '@/lib/core/contact-attributes/update-attribute-definition';
import { createAttributeDefinitionSchema, updateAttributeDefinitionSchema } from '@/lib/core/contacts/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();
const collection = '/internal/accounts/{account_id}/contact-attributes';
const item = `${collection}/{key}`;
const tags = ['Internal'];

/**
 * Contact attribute definitions (R4): managed in the dashboard only, so session-only routes and no
 * v2 endpoint. Type changes are refused while contacts hold values; deleting clears the values.
 */
export const contactAttributeInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: collection,
    verb: listAttributeDefinitions,
    status: 200,
    summary: "The account's attribute definitions",
    tags,
    response: anything,
    input: () => ({}),
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: collection,
    verb: createAttributeDefinition,
    status: 201,
    summary: 'Define an attribute',
    tags,
    body: createAttributeDefinitionSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
  {
    method: 'put',
    path: item,
    verb: updateAttributeDefinition,
    status: 200,
    summary: "Change an attribute's label, or its type while no contact holds a value",
    tags,
    body: updateAttributeDefinitionSchema,
    response: anything,
    input: ({ body, params }) => ({ ...body, key: params.key }),
    isHiddenFromDocument: true,
  },
  {
    method: 'delete',
    path: item,
    verb: deleteAttributeDefinition,
    status: 200,
    summary: 'Delete an attribute and the values contacts hold for it',
    tags,
    response: anything,
    input: ({ params }) => ({ key: params.key }),
    isHiddenFromDocument: true,
  },
];
