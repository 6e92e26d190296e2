import type { Context } from 'hono';
import { escapeHtml } from '@/lib/shared/html';
import {
  unsafeGetRecipientPreferences,
  type RecipientPreferences,
} from '@/lib/core/campaigns/get-recipient-preferences';
import { unsafeUnsubscribeRecipient } from '@/lib/core/campaigns/unsubscribe-recipient';
import { unsafeUpdateRecipientPreferences } from '@/lib/core/campaigns/update-recipient-preferences';
import { readRawBody } from './body';
import type { ApiApp, ApiDeps } from './services';

// No script, no outside resource; the forms post back here.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function page(c: Context, status: 200 | 404, title: string, body: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>fieldset{border:1px solid #e4e4e7;border-radius:8px;margin:16px 0 0;padding:8px 14px}legend{font-weight:600;padding:0 4px}fieldset label{display:flex;gap:10px;align-items:center;padding:8px 0;line-height:1.4}fieldset input{width:18px;height:18px}fieldset+button,.note+button{margin-top:12px}.note{font-size:13px;color:#71717a}body{font-family:system-ui,sans-serif;background:#f4f4f5;color:#18181b;margin:0;padding:48px 16px}main{max-width:440px;margin:auto;background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:28px}h1{font-size:20px;margin:0 0 12px}p{line-height:1.5;color:#3f3f46}form{margin:16px 0 0}button{font:inherit;width:100%;padding:10px 14px;border-radius:8px;border:1px solid #18181b;background:#18181b;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#18181b;border-color:#d4d4d8}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return c.body(html, status, PAGE_HEADERS);
}

const NOT_VALID = 'This unsubscribe link is not valid. It may have been copied incompletely.';

/**
 * Unsubscribe links of campaign messages (`/u/`): no credentials, the signed token is the permission.
 * POST is RFC 8058's one-click (any body; mail providers send `List-Unsubscribe=One-Click`) and the
 * page's buttons; GET only shows the page, so that link scanners never unsubscribe anyone.
 */
export function registerUnsubscribe(app: ApiApp, deps: ApiDeps): void {
  app.get('/u/test', (c) =>
    page(
      c,
      200,
      'This was a test message',
      '<p>Unsubscribe links in test messages do nothing. In the campaign itself, each recipient gets their own.</p>',
    ),
  );
  app.post('/u/test', (c) => page(c, 200, 'This was a test message', '<p>Nothing was changed.</p>'));

  app.get('/u/:token', async (c) => {
    const target = await unsafeGetRecipientPreferences(deps, c.req.param('token'));
    if (!target) return page(c, 404, 'Link not valid', `<p>${NOT_VALID}</p>`);
    return page(c, 200, 'Your subscriptions', preferencesBody(target));
  });

  app.post('/u/:token', async (c) => {
    const form = await readForm(c);
    if (form.get('scope') === 'preferences') {
      const saved = await unsafeUpdateRecipientPreferences(deps, c.req.param('token'), form.getAll('list'));
      if (!saved) return page(c, 404, 'Link not valid', `<p>${NOT_VALID}</p>`);
      return page(c, 200, 'Preferences saved', `<p role="status">Your choices are saved.</p>${preferencesBody(saved)}`);
    }
    const isEverything = form.get('scope') === 'everything';
    const target = await unsafeUnsubscribeRecipient(deps, c.req.param('token'), { isEverything });
    if (!target) return page(c, 404, 'Link not valid', `<p>${NOT_VALID}</p>`);
    const what = isEverything
      ? 'any mail from this sender'
      : target.listNames.length
        ? target.listNames.map(escapeHtml).join(', ')
        : 'this mailing';
    return page(
      c,
      200,
      'You are unsubscribed',
      `<p><strong>${escapeHtml(target.email)}</strong> will no longer receive ${what}.</p>`,
    );
  });
}

/**
 * The page's forms: the campaign's one-click unsubscribe, the contact's own lists to tick (only
 * lists they are on; complained ones are not offered), and unsubscribe from everything.
 */
function preferencesBody(target: RecipientPreferences): string {
  const lists = target.listNames.length ? target.listNames.map(escapeHtml).join(', ') : 'this mailing';
  const choices = target.memberships
    .map(
      (membership) =>
        `<label><input type="checkbox" name="list" value="${escapeHtml(membership.listId)}"${membership.isSubscribed ? ' checked' : ''}> ${escapeHtml(membership.name)}</label>`,
    )
    .join('');
  const everything = target.isUnsubscribedEverywhere
    ? '<p class="note">You unsubscribed from everything: tick a list and save to receive it again.</p>'
    : '';
  return `<p>Mail to <strong>${escapeHtml(target.email)}</strong>.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe from ${lists}</button></form>
${
  choices
    ? `<form method="post"><input type="hidden" name="scope" value="preferences"><fieldset><legend>Lists you are on</legend>${choices}</fieldset>${everything}<button class="secondary" type="submit">Save preferences</button></form>`
    : ''
}
<form method="post"><input type="hidden" name="scope" value="everything"><button class="secondary" type="submit">Unsubscribe from everything</button></form>`;
}

const FORM_LIMIT_BYTES = 16 * 1024;

/** The form fields of a POST, read up to a small limit; an unreadable or oversize body counts as empty (one-click needs none). */
async function readForm(c: Context): Promise<URLSearchParams> {
  try {
    return new URLSearchParams(await readRawBody(c, FORM_LIMIT_BYTES));
  } catch {
    return new URLSearchParams();
  }
}
