import { contactSchema } from '@/lib/core/contacts/schemas';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

/** Inputs and outputs of the lists API (marketing-api.md, Lists; R6-R12), shared with the dashboard's forms. */

export const SUBSCRIPTION_STATUSES = ['unconfirmed', 'confirmed', 'unsubscribed', 'complained'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** R9: `complained` is the mailbox provider's verdict; no request may write it. */
export const WRITABLE_SUBSCRIPTION_STATUSES = ['unconfirmed', 'confirmed', 'unsubscribed'] as const;
export const MAX_MEMBERS_PER_REQUEST = 1000;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const listIdSchema = z.string();

const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters');
const descriptionSchema = z
  .string({ error: 'must be a string' })
  .max(2000, 'must be at most 2000 characters')
  .nullish();

// What contacts see on their preference page instead of `name` (which may be an internal label).
const publicNameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(255, 'must be at most 255 characters')
  .nullish()
  .openapi({
    description:
      'The name contacts see for this list on the preference page behind unsubscribe links and on signup confirmation; null or "" means `name` (Mailstead extension).',
  });

export const createListSchema = z
  .object({ name: nameSchema, description: descriptionSchema, public_name: publicNameSchema })
  .openapi('CreateContactListRequest');

export const updateListSchema = z
  .object({
    name: nameSchema.optional(),
    description: descriptionSchema.openapi({ description: 'null or "" clears it; omitted keeps it.' }),
    public_name: publicNameSchema,
  })
  .openapi('UpdateContactListRequest');

export const listPathSchema = z.object({ list_id: listIdSchema });

export const writableStatusSchema = z
  .string({ error: 'must be a string' })
  .refine((value) => value !== 'complained', 'complained is set only by a complaint report and cannot be written (R9)')
  .pipe(z.enum(WRITABLE_SUBSCRIPTION_STATUSES, { error: 'must be one of unconfirmed, confirmed, unsubscribed' }))
  .openapi({ type: 'string', enum: [...WRITABLE_SUBSCRIPTION_STATUSES] });

const contactReferenceSchema = z
  .string({ error: 'must be a contact id or email' })
  .max(320, 'must be at most 320 characters');

export const addListMembersSchema = z
  .object({
    contact: contactReferenceSchema.optional().openapi({ description: 'One contact, by id or email.' }),
    contacts: z
      .array(contactReferenceSchema, { error: 'must be an array of contact ids or emails' })
      .min(1, 'must not be empty')
      .max(MAX_MEMBERS_PER_REQUEST, `must hold at most ${MAX_MEMBERS_PER_REQUEST} contacts`)
      .optional()
      .openapi({ description: `Up to ${MAX_MEMBERS_PER_REQUEST} contacts, by id or email, added in one statement.` }),
    subscription_status: writableStatusSchema.optional().openapi({
      description:
        'Status of the new memberships; default confirmed (R8). Given, it also sets the status of contacts that are already members; omitted, an existing membership keeps its status.',
    }),
  })
  .superRefine((value, ctx) => {
    if ((value.contact === undefined) === (value.contacts === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['contact'], message: 'give either contact or contacts' });
    }
  })
  .openapi('AddListMembersRequest');

/** Mailstead extension: pasted lines, each added or refused with its reason (never all-or-nothing). */
export const pasteListMembersSchema = z
  .object({
    lines: z
      .array(z.string({ error: 'must be an array of strings' }).max(320, 'must be at most 320 characters'), {
        error: 'must be an array of strings',
      })
      .min(1, 'must not be empty')
      .max(MAX_MEMBERS_PER_REQUEST, `must hold at most ${MAX_MEMBERS_PER_REQUEST} lines`)
      .openapi({ description: `Up to ${MAX_MEMBERS_PER_REQUEST} email addresses or contact ids, as pasted.` }),
    create_missing: z.boolean({ error: 'must be true or false' }).optional().openapi({
      description: 'true makes a contact of each address the account does not have yet (needs contacts:write).',
    }),
    subscription_status: writableStatusSchema.optional().openapi({
      description: 'Status of the new memberships; default confirmed (R8). Existing members are left as they are.',
    }),
  })
  .openapi('PasteListMembersRequest');

export const PASTE_REFUSALS = ['not an email address', 'suppressed', 'already a member', 'no such contact'] as const;

export const pasteListMembersResponseSchema = z
  .object({
    object: z.literal('list_member_paste'),
    added: z.number().int().openapi({ description: 'Memberships made.' }),
    created_contacts: z
      .number()
      .int()
      .openapi({ description: 'Contacts made for addresses the account did not have (create_missing).' }),
    refused: z
      .array(z.object({ line: z.string(), reason: z.enum(PASTE_REFUSALS) }))
      .openapi({ description: 'Each line not added, once, in the order given, with why.' }),
  })
  .openapi('PasteListMembersResponse');

export const updateListMemberSchema = z
  .object({ subscription_status: writableStatusSchema })
  .openapi('UpdateListMemberRequest');

export const memberPathSchema = z.object({ list_id: listIdSchema, id_or_email: z.string() });

export const listListsQuerySchema = pageQuerySchema;

export const listMembersQuerySchema = pageQuerySchema.extend({
  subscription_status: z
    .preprocess(
      emptyToUndefined,
      z
        .enum(SUBSCRIPTION_STATUSES, { error: 'must be one of unconfirmed, confirmed, unsubscribed, complained' })
        .optional(),
    )
    .openapi({ description: 'Only memberships with this status.' }),
  include_contacts: z
    .preprocess(emptyToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).optional())
    .openapi({
      description:
        "true adds each member's Contact as `contact`; needs contacts:read as well as lists:read (R12), else 403.",
    }),
});

export const memberCountsSchema = z.object({
  unconfirmed: z.number().int(),
  confirmed: z.number().int(),
  unsubscribed: z.number().int(),
  complained: z.number().int(),
});

export const contactListSchema = z
  .object({
    object: z.literal('contact_list'),
    id: z.string().uuid(),
    name: z.string(),
    description: z.string().nullable(),
    public_name: z
      .string()
      .nullable()
      .openapi({ description: 'What contacts see instead of `name`; null: they see `name` (Mailstead extension).' }),
    member_counts: memberCountsSchema,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('ContactList');

export const listMembershipSchema = z
  .object({
    object: z.literal('list_membership'),
    list_id: z.string().uuid(),
    contact_id: z.string().uuid(),
    subscription_status: z.enum(SUBSCRIPTION_STATUSES),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    contact: contactSchema.optional().openapi({ description: 'Only with include_contacts=true.' }),
  })
  .openapi('ListMembership');

export const addListMembersResponseSchema = z
  .union([listMembershipSchema, z.object({ object: z.literal('list'), data: z.array(listMembershipSchema) })])
  .openapi('AddListMembersResponse');
