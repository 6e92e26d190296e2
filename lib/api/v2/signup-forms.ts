import type { Page } from '@/lib/core/shared/pagination';
import { createSignupForm } from '@/lib/core/signup-forms/create-signup-form';
import { deleteSignupForm } from '@/lib/core/signup-forms/delete-signup-form';
import { getSignupForm } from '@/lib/core/signup-forms/get-signup-form';
import { listSignupForms } from '@/lib/core/signup-forms/list-signup-forms';
import {
  createSignupFormSchema,
  listSignupFormsQuerySchema,
  signupFormSchema,
  updateSignupFormSchema,
} from '@/lib/core/signup-forms/schemas';
import { updateSignupForm } from '@/lib/core/signup-forms/update-signup-form';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/** Signup forms (marketing-api.md, Signup forms and double opt-in); their public pages are in ../signup-pages.ts. */
const collection = '/v2/accounts/{account_id}/signup-forms' as const;
const item = `${collection}/{form_id}` as const;
const tags = ['Signup forms'];
const formParams = ({ params }: { params: Record<string, string> }) => ({ form_id: params.form_id });

const PUBLIC =
  "Anyone may GET `public_url` (the hosted page) and POST to it (form-encoded: answered with a page or a 303 to `redirect_url`; JSON: answered with JSON). A signup upserts the contact (names and the asked attributes it was sent, nothing else; never suppressions, R2) and sets its memberships in the lists to `unconfirmed` (double opt-in) or `confirmed`; a confirmed, unsubscribed or complained membership is left as it is. With double opt-in a confirmation mail goes from the account's verified marketing domain (`confirmation_from`; null: none, and no mail goes) with a link `/f/confirm/{token}`: its GET only shows a page whose button POSTs back to confirm (so that link scanners confirm nothing); it works once and until SIGNUP_CONFIRMATION_TTL_SECONDS (a week). The answer is the same whether or not the address was known; a honeypot field (`hp_website`) and oversize input are accepted and dropped; posts are limited per client address (429) and per email (quietly).";

export const signupFormEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listSignupForms,
    status: 200,
    summary: 'List signup forms',
    description: 'Newest first, cursor-paginated. Deleted forms are left out.',
    tags,
    query: listSignupFormsQuerySchema,
    response: listEnvelopeSchema(signupFormSchema, 'PaginatedSignupFormsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createSignupForm,
    status: 201,
    summary: 'Create a signup form',
    description: `\`list_ids\`: 1 to 20 live lists of the account; \`fields\`: keys of its contact attributes; \`redirect_url\`: https, not a private address. ${PUBLIC}`,
    tags,
    body: createSignupFormSchema,
    response: signupFormSchema,
    input: ({ body }) => body,
  },
  {
    method: 'get',
    path: item,
    verb: getSignupForm,
    status: 200,
    summary: 'Get a signup form',
    description: 'A deleted form is 404.',
    tags,
    response: signupFormSchema,
    input: formParams,
  },
  {
    method: 'put',
    path: item,
    verb: updateSignupForm,
    status: 200,
    summary: 'Update a signup form',
    description:
      'Partial update: omitted fields stay; null or "" restores the default confirmation subject or text, or drops the redirect. Links already mailed keep confirming the lists they were made for.',
    tags,
    body: updateSignupFormSchema,
    response: signupFormSchema,
    input: ({ body, params }) => ({ ...body, form_id: params.form_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteSignupForm,
    status: 200,
    summary: 'Delete a signup form',
    description:
      'Its page and POST answer 404 from then on and its unused confirmation links stop working; the contacts and memberships it made stay.',
    tags,
    response: successResponseSchema,
    input: formParams,
  },
] satisfies Endpoint[];
