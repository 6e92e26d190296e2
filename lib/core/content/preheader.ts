import { escapeHtml } from './markdown-html';
import { RenderSlots } from './render-slots';

/** As a subject line: inboxes show about 100 characters of it; more is only weight. */
export const MAX_PREHEADER_CHARS = 255;

// Hidden in every client we know of (mso-hide for Outlook), and padded with zero-width joiners so
// that the inbox preview stops after the preheader instead of running on into the body's first words.
const HIDDEN_STYLE =
  'display:none;font-size:1px;color:transparent;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all';
const PADDING = '&#847;&zwnj;&nbsp;'.repeat(60);

/**
 * The HTML with its preheader as the first thing in the body: the usual hidden span, which an inbox
 * shows after the subject and a reader never sees. The text is escaped; Jinja tags stay for each
 * recipient's substitution (their values are escaped by the renderer as any other).
 */
export function withPreheader(html: string | null, preheader: string | null | undefined): string | null {
  if (html === null || !preheader?.trim()) return html;
  const slots = new RenderSlots();
  const text = slots.restore(escapeHtml(slots.holdJinja(preheader.trim())));
  const span = `<div style="${HIDDEN_STYLE}" data-preheader>${text}${PADDING}</div>`;
  const body = /<body\b[^>]*>/i.exec(html);
  if (!body) return span + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + span + html.slice(at);
}
