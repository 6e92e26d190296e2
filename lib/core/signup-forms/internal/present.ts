import type { signupForms } from '@/lib/db/schema';
import { escapeHtml } from '@/lib/shared/html';
import { DEFAULT_CONFIRMATION_SUBJECT, DEFAULT_CONFIRMATION_TEXT, HONEYPOT_FIELD } from '../schemas';

export type SignupFormRow = typeof signupForms.$inferSelect;

/** The hosted page and the form's POST target, on PUBLIC_URL (where the unsubscribe pages are). */
export function signupFormUrl(publicUrl: URL, formId: string): string {
  return `${publicUrl.origin}/f/${formId}`;
}

/** What the confirmation mail says when the form does not say it. */
export function confirmationContent(row: Pick<SignupFormRow, 'confirmationSubject' | 'confirmationText'>) {
  return {
    subject: row.confirmationSubject || DEFAULT_CONFIRMATION_SUBJECT,
    text: row.confirmationText || DEFAULT_CONFIRMATION_TEXT,
  };
}

/** A label for an attribute key on a form: `favorite_color` reads "Favorite color". */
export function fieldLabel(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The snippet a site pastes: a plain form posting to the hosted page's URL (no script, no styles
 * beyond the inline ones), with the honeypot hidden from people and screen readers alike.
 */
export function embedHtml(url: string, row: Pick<SignupFormRow, 'name' | 'fields'>): string {
  const field = (name: string, label: string, type: string, isRequired = false) =>
    `  <p><label>${escapeHtml(label)}<br><input type="${type}" name="${escapeHtml(name)}"${isRequired ? ' required' : ''}></label></p>`;
  return [
    `<form method="post" action="${escapeHtml(url)}" aria-label="${escapeHtml(row.name)}">`,
    field('email', 'Email', 'email', true),
    field('first_name', 'First name', 'text'),
    field('last_name', 'Last name', 'text'),
    ...row.fields.map((key) => field(key, fieldLabel(key), 'text')),
    `  <div style="position:absolute;left:-5000px" aria-hidden="true"><input type="text" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></div>`,
    '  <p><button type="submit">Subscribe</button></p>',
    '</form>',
  ].join('\n');
}

export function presentSignupForm(row: SignupFormRow, publicUrl: URL, confirmationFrom: string | null) {
  const url = signupFormUrl(publicUrl, row.id);
  const content = confirmationContent(row);
  return {
    object: 'signup_form' as const,
    id: row.id,
    name: row.name,
    list_ids: row.listIds,
    double_opt_in: row.isDoubleOptIn,
    fields: row.fields,
    confirmation_subject: content.subject,
    confirmation_text: content.text,
    redirect_url: row.redirectUrl,
    public_url: url,
    embed_html: embedHtml(url, row),
    signup_count: row.signupCount,
    confirmation_from: confirmationFrom,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type SignupFormObject = ReturnType<typeof presentSignupForm>;
