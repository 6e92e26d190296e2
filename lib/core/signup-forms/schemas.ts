import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

/** Inputs and outputs of the signup forms API (marketing-api.md, Signup forms and double opt-in), shared with the dashboard's form. */

export const MAX_FORM_LISTS = 20;
export const MAX_FORM_FIELDS = 20;
export const MAX_CONFIRMATION_TEXT_LENGTH = 5000;
/** Always on the form: the address and the names. Attribute keys asked for come after them. */
export const BUILT_IN_FIELDS = ['email', 'first_name', 'last_name'] as const;
/** The hidden input that people never see and form-filling robots fill in: a signup with it is dropped. */
export const HONEYPOT_FIELD = 'hp_website';
/** Where the confirmation mail's text puts the link; without it the link goes below the text. */
export const CONFIRM_URL_PLACEHOLDER = '{{ confirm_url }}';
export const DEFAULT_CONFIRMATION_SUBJECT = 'Please confirm your subscription';
export const DEFAULT_CONFIRMATION_TEXT = `Please confirm that you want to receive our mail by opening this link:\n\n${CONFIRM_URL_PLACEHOLDER}\n\nIf you did not sign up, ignore this message: nothing will be sent to you.`;

const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters');

const listIdsSchema = z
  .array(z.string({ error: 'must be an array of list ids' }).max(64, 'must be list ids'), {
    error: 'must be an array of list ids',
  })
  .min(1, 'must hold at least one list')
  .max(MAX_FORM_LISTS, `must hold at most ${MAX_FORM_LISTS} lists`)
  .openapi({ description: "The account's lists a signup joins (live lists only)." });

const fieldsSchema = z
  .array(z.string({ error: 'must be an array of attribute keys' }).max(100, 'must be attribute keys'), {
    error: 'must be an array of attribute keys',
  })
  .max(MAX_FORM_FIELDS, `must hold at most ${MAX_FORM_FIELDS} keys`)
  .refine((keys) => new Set(keys).size === keys.length, 'must not repeat a key')
  .openapi({ description: "Keys of the account's contact attributes to ask for, besides email and names." });

const subjectSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(255, 'must be at most 255 characters')
  .nullish()
  .openapi({ description: `Subject of the confirmation mail; null or "" means "${DEFAULT_CONFIRMATION_SUBJECT}".` });

const textSchema = z
  .string({ error: 'must be a string' })
  .max(MAX_CONFIRMATION_TEXT_LENGTH, `must be at most ${MAX_CONFIRMATION_TEXT_LENGTH} characters`)
  .nullish()
  .openapi({
    description: `Plain text of the confirmation mail; \`${CONFIRM_URL_PLACEHOLDER}\` marks where the link goes (else it goes below). null or "" means the default text.`,
  });

/** Syntax only; whether the host is public is checked by the verb (like webhook URLs). */
const redirectUrlSchema = z
  .string({ error: 'must be a string' })
  .max(2048, 'must be at most 2048 characters')
  .refine(
    (value) => value === '' || (URL.canParse(value) && new URL(value).protocol === 'https:'),
    'must be an absolute https:// URL',
  )
  .nullish()
  .openapi({ description: 'Where a browser goes after a form post (https); null: our thank-you page.' });

export const createSignupFormSchema = z
  .object({
    name: nameSchema,
    list_ids: listIdsSchema,
    double_opt_in: z.boolean({ error: 'must be true or false' }).optional().openapi({ description: 'Default true.' }),
    fields: fieldsSchema.optional(),
    confirmation_subject: subjectSchema,
    confirmation_text: textSchema,
    redirect_url: redirectUrlSchema,
  })
  .openapi('CreateSignupFormRequest');

export const updateSignupFormSchema = z
  .object({
    name: nameSchema.optional(),
    list_ids: listIdsSchema.optional(),
    double_opt_in: z.boolean({ error: 'must be true or false' }).optional(),
    fields: fieldsSchema.optional(),
    confirmation_subject: subjectSchema,
    confirmation_text: textSchema,
    redirect_url: redirectUrlSchema,
  })
  .openapi('UpdateSignupFormRequest');

export const signupFormPathSchema = z.object({ form_id: z.string() });

export const listSignupFormsQuerySchema = pageQuerySchema;

export const signupFormSchema = z
  .object({
    object: z.literal('signup_form'),
    id: z.string().uuid(),
    name: z.string(),
    list_ids: z.array(z.string().uuid()),
    double_opt_in: z.boolean(),
    fields: z.array(z.string()),
    confirmation_subject: z.string(),
    confirmation_text: z.string(),
    redirect_url: z.string().nullable(),
    public_url: z.string().openapi({ description: 'The hosted page (GET) and where the form posts (POST).' }),
    embed_html: z.string().openapi({ description: 'A self-contained <form> posting to public_url.' }),
    signup_count: z.number().int().openapi({ description: 'Signups accepted so far (Mailstead extension).' }),
    confirmation_from: z.string().nullable().openapi({
      description:
        "Who confirmation mails come from: an address on the account's verified marketing domain; null when it has none, and then no confirmation mail can go out (Mailstead extension).",
    }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('SignupForm');
