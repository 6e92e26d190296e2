import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';
import { ATTRIBUTE_TYPES } from './attribute-values';

/**
 * Inputs and outputs of the contacts API (marketing-api.md, Contacts; R1-R5). The dashboard's forms
 * use these same objects, extending them for UI-only fields.
 */

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
const rfc3339 = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:00:00Z' });

export const MAX_NAME_LENGTH = 255;
export const MAX_EMAIL_LENGTH = 320;

/** Syntax is checked by the verb (normalizeEmailAddress), which says what is wrong with the address. */
const requiredString = {
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : 'must be a string'),
};

export const contactEmailSchema = z
  .string(requiredString)
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .openapi({ format: 'email', description: 'Stored trimmed and lowercased; unique in the account.' });

const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .nullish()
  .openapi({ description: 'Empty or null clears it.' });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An object of attribute values, checked against the account's definitions by the verb. A custom
 * schema and not `z.record`: a record rebuilds the object and silently drops a `__proto__` key,
 * which must instead be refused as an unknown attribute.
 */
export const attributesInputSchema = z
  .custom<Record<string, unknown>>(isPlainObject, { error: 'must be an object of attribute values' })
  .openapi({
    type: 'object',
    additionalProperties: true,
    description:
      'Values for the account\'s attribute definitions (R4), in canonical JSON: number 42, boolean true, date "2024-01-05", datetime "2024-01-05T10:30:00Z", string "text". An unknown key or another form is 400 naming the key. null removes the key.',
  });

export const createContactSchema = z
  .object({
    email: contactEmailSchema,
    first_name: nameSchema,
    last_name: nameSchema,
    attributes: attributesInputSchema.optional(),
    unsubscribed: z.boolean({ error: 'must be true or false' }).optional().openapi({
      description: 'Create the contact already unsubscribed (recorded in its subscription history). Default false.',
    }),
  })
  .openapi('CreateContactRequest');

export const updateContactSchema = z
  .object({
    email: contactEmailSchema
      .optional()
      .openapi({ description: 'A new address; 409 when another contact of the account has it.' }),
    first_name: nameSchema,
    last_name: nameSchema,
    attributes: attributesInputSchema.optional().openapi({
      description:
        'Merged into the stored attributes: given keys are replaced, null removes a key, keys not given stay.',
    }),
    unsubscribed: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .openapi({ description: 'The same as POST .../unsubscribe or .../resubscribe, history included.' }),
  })
  .openapi('UpdateContactRequest');

/** `{id_or_email}`: a contact id, or its address as one percent-encoded path segment (R5). */
export const contactPathSchema = z.object({ id_or_email: z.string() });

const booleanQuery = optionalQuery(z.enum(['true', 'false'], { error: 'must be true or false' }));

export const listContactsQuerySchema = pageQuerySchema.extend({
  email: optionalQuery(z.string().max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)).openapi({
    description: 'Only the contact with this address (normalised).',
  }),
  unsubscribed: booleanQuery.openapi({ description: 'Only contacts with this `unsubscribed` flag.' }),
  created_after: optionalQuery(rfc3339).openapi({ description: 'Created at or after this time.' }),
  created_before: optionalQuery(rfc3339).openapi({ description: 'Created at or before this time.' }),
  search: optionalQuery(z.string().max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)).openapi({
    description: 'Mailstead extension: contacts whose email, first or last name contains this text (case-insensitive).',
  }),
  list_id: optionalQuery(z.string().uuid('must be a list id')).openapi({
    description: 'Mailstead extension: only members of this list (any status). An unknown list is 404.',
  }),
  attribute_key: optionalQuery(z.string().max(64, 'must be at most 64 characters')).openapi({
    description:
      "Mailstead extension, with attribute_value: only contacts whose attribute has this value, compared in the attribute's type (`42` finds the number 42, `true` the boolean).",
  }),
  attribute_value: optionalQuery(z.string().max(1000, 'must be at most 1000 characters')),
});

export const contactListsQuerySchema = pageQuerySchema;

export const contactSchema = z
  .object({
    object: z.literal('contact'),
    id: z.string().uuid(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    attributes: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'As stored: any JSON, nested values included (R4).' }),
    unsubscribed: z.boolean(),
    unsubscribed_at: z.string().datetime().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('Contact');

// Attribute definitions (R4): the dashboard's internal routes only.

/** A safe identifier: it becomes a CSV column and a template variable, so letters, digits and `_`. */
export const ATTRIBUTE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
/** The contact's own fields (and import columns) cannot also be attribute keys. */
export const RESERVED_ATTRIBUTE_KEYS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'attributes',
  'unsubscribed',
  'unsubscribed_at',
  'created_at',
  'updated_at',
  'object',
];
export const MAX_ATTRIBUTE_DEFINITIONS = 100;

export const attributeTypeSchema = z.enum(ATTRIBUTE_TYPES, {
  error: 'must be one of string, number, boolean, date, datetime',
});

const attributeKeySchema = z
  .string({ error: 'must be a string' })
  .regex(
    ATTRIBUTE_KEY_PATTERN,
    'must start with a lowercase letter and hold only lowercase letters, digits and _ (at most 63)',
  )
  .refine((key) => !RESERVED_ATTRIBUTE_KEYS.includes(key), 'is a contact field, not an attribute');

const labelSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .nullish();

export const createAttributeDefinitionSchema = z.object({
  key: attributeKeySchema,
  type: attributeTypeSchema,
  label: labelSchema,
});

export const updateAttributeDefinitionSchema = z.object({ type: attributeTypeSchema.optional(), label: labelSchema });

/** Path `{key}` of an existing definition; a malformed one cannot exist, so it is a 404 there. */
export const attributeKeyPathSchema = z.object({ key: z.string() });
