import type { Context } from 'hono';
import { unsafeConfirmSignup } from '@/lib/core/signup-forms/confirm-signup';
import { unsafeDescribeSignupConfirmation } from '@/lib/core/signup-forms/describe-signup-confirmation';
import { unsafeDescribeSignupForm, type HostedForm } from '@/lib/core/signup-forms/describe-signup-form';
import { HONEYPOT_FIELD } from '@/lib/core/signup-forms/schemas';
import { unsafeSubmitSignupForm, type SignupOutcome } from '@/lib/core/signup-forms/submit-signup-form';
import { AppError } from '@/lib/shared/errors';
import { escapeHtml } from '@/lib/shared/html';
import { readRawBody } from './body';
import { getRequestMeta } from './request-meta';
import { findUnstorableJson } from './storable-input';
import type { ApiApp, ApiDeps } from './services';

// No script and nothing from elsewhere; the form posts back here and nowhere else.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f4f5;color:#18181b;margin:0;padding:48px 16px}main{max-width:440px;margin:auto;background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:28px}h1{font-size:20px;margin:0 0 8px}p{line-height:1.5;color:#3f3f46}label{display:block;font-weight:600;font-size:14px;margin:14px 0 4px}input{font:inherit;box-sizing:border-box;width:100%;padding:10px 12px;border:1px solid #d4d4d8;border-radius:8px}input[type=checkbox]{width:auto}button{font:inherit;width:100%;margin-top:20px;padding:10px 14px;border-radius:8px;border:1px solid #18181b;background:#18181b;color:#fff;cursor:pointer}.hp{position:absolute;left:-5000px}.note{font-size:13px;color:#71717a}.error{color:#b91c1c}`;

type Status = 200 | 400 | 404 | 410 | 429;

function page(c: Context, status: Status, title: string, body: string, formAction?: string) {
  const headers = formAction
    ? {
        ...PAGE_HEADERS,
        'content-security-policy': PAGE_HEADERS['content-security-policy'].replace(
          "form-action 'self'",
          `form-action 'self' ${formAction}`,
        ),
      }
    : PAGE_HEADERS;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return c.body(html, status, headers);
}

const INPUT_TYPES: Record<string, string> = { number: 'number', date: 'date', string: 'text', datetime: 'text' };

function formPage(c: Context, form: HostedForm, status: Status = 200, error?: string) {
  const field = (name: string, label: string, type: string, extra = '') =>
    `<label for="f-${escapeHtml(name)}">${escapeHtml(label)}</label><input id="f-${escapeHtml(name)}" name="${escapeHtml(name)}" type="${type}"${extra}>`;
  const fields = form.fields.map((item) =>
    item.type === 'boolean'
      ? `<label><input name="${escapeHtml(item.key)}" type="checkbox"> ${escapeHtml(item.label)}</label>`
      : field(
          item.key,
          `${item.label} (optional)`,
          INPUT_TYPES[item.type] ?? 'text',
          item.type === 'number' ? ' step="any"' : '',
        ),
  );
  return page(
    c,
    status,
    form.name,
    `<p>${escapeHtml(form.accountName)}</p>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
${field('email', 'Email', 'email', ' required autocomplete="email"')}
${field('first_name', 'First name (optional)', 'text', ' autocomplete="given-name"')}
${field('last_name', 'Last name (optional)', 'text', ' autocomplete="family-name"')}
${fields.join('\n')}
<div class="hp" aria-hidden="true"><input name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off"></div>
<button type="submit">Subscribe</button>
</form>${form.isDoubleOptIn ? '<p class="note">We will send you an email to confirm.</p>' : ''}`,
    form.redirectUrl ? new URL(form.redirectUrl).origin : undefined,
  );
}

const NOT_FOUND = 'This signup form does not exist or was removed.';
const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Signup forms on PUBLIC_URL (`/f/`), without credentials: the hosted page, its POST (form-encoded,
 * answered with a page or the form's redirect; or JSON, answered with JSON), and the confirmation link
 * (a page whose button posts back to confirm).
 */
export function registerSignupPages(app: ApiApp, deps: ApiDeps): void {
  // The link only shows a button: mail scanners and link previews fetch links, and a GET that
  // confirmed would subscribe whoever was typed into the form. The same page for every token.
  app.get('/f/confirm/:token', async (c) => {
    const found = await unsafeDescribeSignupConfirmation(deps, c.req.param('token'));
    return page(
      c,
      200,
      'Confirm your subscription',
      `<p>One more step: press the button to confirm that you want to receive this mail.</p>
<form method="post"><button type="submit">Confirm my subscription</button></form>
<p class="note">If you did not sign up, close this page: nothing happens until the button is pressed.</p>`,
      found?.redirectUrl ? new URL(found.redirectUrl).origin : undefined,
    );
  });

  app.post('/f/confirm/:token', async (c) => {
    const outcome = await unsafeConfirmSignup(deps, c.req.param('token'));
    if (outcome.kind === 'confirmed') {
      if (outcome.redirectUrl) return c.redirect(outcome.redirectUrl, 303);
      const lists = outcome.listNames.length ? ` to ${outcome.listNames.map(escapeHtml).join(', ')}` : '';
      return page(c, 200, 'Subscription confirmed', `<p>Thank you: you are subscribed${lists}.</p>`);
    }
    if (outcome.kind === 'used')
      return page(c, 410, 'Already confirmed', '<p>This confirmation link was already used. Nothing changed.</p>');
    if (outcome.kind === 'expired')
      return page(c, 410, 'Link expired', '<p>This confirmation link has expired. Sign up again to get a new one.</p>');
    return page(
      c,
      404,
      'Link not valid',
      '<p>This confirmation link is not valid. It may have been copied incompletely.</p>',
    );
  });

  app.get('/f/:formId', async (c) => {
    const form = await unsafeDescribeSignupForm(deps, c.req.param('formId'));
    return form ? formPage(c, form) : page(c, 404, 'Form not found', `<p>${NOT_FOUND}</p>`);
  });

  app.post('/f/:formId', async (c) => {
    const isJson = (c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json');
    const posted = await readPosted(c, isJson);
    let outcome: SignupOutcome;
    try {
      // A NUL character or a nesting no database stores is the field's 400, like on the API.
      const unstorable = findUnstorableJson(posted);
      if (unstorable) throw unstorable;
      outcome = await unsafeSubmitSignupForm(deps, {
        formId: c.req.param('formId'),
        posted,
        isFormEncoded: !isJson,
        clientIp: getRequestMeta(c).clientIp ?? 'unknown',
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'invalid_input') throw error;
      if (isJson) return c.json({ message: error.message }, 400);
      const form = await unsafeDescribeSignupForm(deps, c.req.param('formId'));
      return form ? formPage(c, form, 400, error.message) : page(c, 404, 'Form not found', `<p>${NOT_FOUND}</p>`);
    }
    if (outcome.kind === 'not_found')
      return isJson
        ? c.json({ message: 'signup form not found' }, 404)
        : page(c, 404, 'Form not found', `<p>${NOT_FOUND}</p>`);
    if (outcome.kind === 'rate_limited') {
      c.header('Retry-After', '600');
      const message = 'too many signups from this network: try again in a few minutes';
      return isJson ? c.json({ message }, 429) : page(c, 429, 'Please wait', `<p>${escapeHtml(message)}.</p>`);
    }
    const message = outcome.isDoubleOptIn
      ? 'Almost done: check your inbox and open the link in the email we sent to confirm your subscription.'
      : 'Thank you: you are subscribed.';
    if (isJson)
      return c.json({ object: 'signup', status: outcome.isDoubleOptIn ? 'confirmation_sent' : 'subscribed', message });
    if (outcome.redirectUrl) return c.redirect(outcome.redirectUrl, 303);
    return page(
      c,
      200,
      outcome.isDoubleOptIn ? 'Check your inbox' : 'You are subscribed',
      `<p>${escapeHtml(message)}</p>`,
    );
  });
}

/**
 * The posted fields. A body over the limit or one that does not parse reads as the honeypot filled
 * in: answered like any signup, nothing stored (a robot learns nothing from the difference).
 */
async function readPosted(c: Context, isJson: boolean): Promise<Record<string, unknown>> {
  const dropped = { [HONEYPOT_FIELD]: 'unreadable' };
  let text: string;
  try {
    text = await readRawBody(c, BODY_LIMIT_BYTES);
  } catch {
    return dropped;
  }
  if (!isJson) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : dropped;
  } catch {
    return dropped;
  }
}
