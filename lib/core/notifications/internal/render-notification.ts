import { escapeHtml } from '@/lib/shared/html';
import { NOTIFICATION_KINDS, type NotificationFacts, type NotificationKind } from '../kinds';

export type RenderedNotification = { subject: string; text: string; html: string; url: string };

/** Control characters (CR, LF, tabs, NUL...) become one space: a name can never start a header or a line. */
export const oneLine = (value: string) =>
  value
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const MAX_FACT = 200;
const flatten = (value: string) => {
  const line = oneLine(value);
  return line.length > MAX_FACT ? `${line.slice(0, MAX_FACT - 1)}…` : line;
};

/**
 * The mail of one kind: the builders' plain text, then the link and how to turn it off. Never
 * templated; names people typed are flattened here and escaped for the HTML part.
 */
export function renderNotification(
  kind: NotificationKind,
  rawFacts: NotificationFacts,
  publicOrigin: string,
): RenderedNotification {
  const definition = NOTIFICATION_KINDS[kind];
  const facts: NotificationFacts = {
    accountId: rawFacts.accountId,
    accountName: flatten(rawFacts.accountName),
    resourceId: flatten(rawFacts.resourceId),
    resourceName: flatten(rawFacts.resourceName),
    detail: rawFacts.detail === null ? null : flatten(rawFacts.detail),
  };
  const url = `${publicOrigin}${definition.path(facts)}`;
  const settingsUrl = `${publicOrigin}/${facts.accountId}/profile`;
  const subject = oneLine(definition.subject(facts));
  const paragraphs = definition.summary(facts);
  const optOut = `You get this email as an owner or Administrator of "${facts.accountName}" on Mailstead. To stop emails like it, turn off "${definition.label}" under Email notifications on your profile: ${settingsUrl}`;
  const personal = `You get this email about your own Mailstead sign-in. To stop emails like it, turn off "${definition.label}" under Email notifications on your profile: ${settingsUrl}`;
  const footer = definition.recipients === 'person' ? personal : optOut;
  const text = [...paragraphs, `Open it: ${url}`, '--', footer].join('\n\n');
  const html = [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${escapeHtml(url)}">Open it in Mailstead</a> (${escapeHtml(url)})</p>`,
    `<hr><p style="color:#666;font-size:12px">${escapeHtml(footer)}</p>`,
  ].join('\n');
  return { subject, text, html, url };
}
