import { withPreheader } from '@/lib/core/content/preheader';
import {
  resolvePinnedTemplateContent,
  resolveTemplateContent,
} from '@/lib/core/templates/internal/resolve-template-content';
import type { DbOrTx } from '@/lib/db/client';
import type { CampaignRow } from './internal/present';

export type CampaignParts = { subject: string; html: string | null; text: string | null };

/** The variable every campaign message defines: this recipient's signed unsubscribe URL. */
export const UNSUBSCRIBE_VARIABLE = 'unsubscribe_url';
const MENTIONS_UNSUBSCRIBE = new RegExp(`{{-?\\s*${UNSUBSCRIBE_VARIABLE}\\b`);

// Marked so that click tracking leaves the link alone: unsubscribing must work without our redirect.
const HTML_FOOTER = `<p style="margin:24px 0 0;font-size:12px;color:#6b7280;text-align:center">You receive this because you subscribed. <a href="{{ ${UNSUBSCRIBE_VARIABLE} }}" data-as-no-track>Unsubscribe</a></p>`;
const TEXT_FOOTER = `\n\n--\nUnsubscribe: {{ ${UNSUBSCRIBE_VARIABLE} }}\n`;

/**
 * What the campaign sends: its own parts, or the template version it names (the latest published
 * when none is pinned). Null parts stay null; a missing subject is the empty string, which
 * validation refuses before anything is sent. `isSending`: the campaign is past validation, and
 * its pinned version is read even if the template has been deleted since.
 */
export async function resolveCampaignContent(
  db: DbOrTx,
  row: CampaignRow,
  options: { isSending?: boolean } = {},
): Promise<CampaignParts & { templateVersion: number | null }> {
  if (!row.templateId)
    return {
      subject: row.subject ?? '',
      html: withPreheader(row.htmlContent, row.preheader),
      text: row.textContent,
      templateVersion: null,
    };
  const content =
    options.isSending && row.templateVersion !== null
      ? await resolvePinnedTemplateContent(db, row.accountId, row.templateId, row.templateVersion)
      : await resolveTemplateContent(db, row.accountId, row.templateId, row.templateVersion);
  return {
    subject: content.subject,
    html: content.html_content,
    text: content.text_content,
    templateVersion: content.version,
  };
}

/** Every body offers the unsubscribe link: where the author put `{{ unsubscribe_url }}`, or in a footer we add. */
export function withUnsubscribeLink(parts: CampaignParts): CampaignParts {
  const html =
    parts.html === null || MENTIONS_UNSUBSCRIBE.test(parts.html)
      ? parts.html
      : addBeforeBodyEnd(parts.html, HTML_FOOTER);
  const text = parts.text === null || MENTIONS_UNSUBSCRIBE.test(parts.text) ? parts.text : parts.text + TEXT_FOOTER;
  return { subject: parts.subject, html, text };
}

/** What `{{ unsubscribe_url }}` renders to in trial renders (validation, preflight): a recognisable URL. */
export const SAMPLE_UNSUBSCRIBE_URL = 'https://example.invalid/u/sample';

/**
 * Why a rendered sample offers no way to unsubscribe, or null when every body does: the footer is
 * added unless the author placed `{{ unsubscribe_url }}`, so this catches a placement that renders
 * nothing (inside a false `{% if %}`, a comment) or outside a link.
 */
export function missingUnsubscribeLink(
  parts: Pick<CampaignParts, 'html' | 'text'>,
): { field: 'html_content' | 'text_content'; message: string } | null {
  const escaped = SAMPLE_UNSUBSCRIBE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const link = new RegExp(`<a\\b[^>]*\\bhref\\s*=\\s*["']?${escaped}`, 'i');
  if (parts.html !== null && !link.test(parts.html))
    return {
      field: 'html_content',
      message: 'the HTML has no unsubscribe link: {{ unsubscribe_url }} must render as the href of a link',
    };
  if (parts.text !== null && !parts.text.includes(SAMPLE_UNSUBSCRIBE_URL))
    return {
      field: 'text_content',
      message: 'the text part has no unsubscribe URL: {{ unsubscribe_url }} must render in it',
    };
  return null;
}

function addBeforeBodyEnd(html: string, footer: string): string {
  const end = html.search(/<\/body>/i);
  return end === -1 ? html + footer : html.slice(0, end) + footer + html.slice(end);
}
