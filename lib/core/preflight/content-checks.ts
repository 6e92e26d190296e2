import type { Services } from '@/lib/core/context';
import type { RenderedParts } from '@/lib/core/messages/render-content';
import { check, type PreflightCheck } from './checks';
import { checkLinksAndImages } from './link-checks';
import { checkSpamScore } from './spam-check';

/** Gmail clips a message's HTML beyond this (102 KB), hiding the rest and its open pixel. */
export const GMAIL_CLIP_BYTES = 102 * 1024;
// Warned a little below: tracked links and the open pixel, added at sending, make the HTML longer.
const CLIP_WARNING_BYTES = 100 * 1024;
const LINK_TIMEOUT_MS = 5_000;

export type RenderedSample = {
  parts: RenderedParts;
  /** The first recipient (or the stand-in when nobody is there yet). */
  to: string;
  from: string;
  /** unsubscribe_link's result, decided by the caller (campaigns and templates differ). */
  unsubscribe: PreflightCheck;
  /** URLs of ours that are never fetched (the sample unsubscribe link). */
  ownUrls: string[];
  /**
   * The HTML as written, before a contact's values are put in: links and images are read from it, so
   * that a personalised link (`?email={{ email }}`) is never fetched with a real subscriber's data.
   */
  linkSource: string | null;
};

/** The checks on content rendered for its first recipient: size, text part, unsubscribe, links, images, spam. */
export async function runContentChecks(
  services: Pick<Services, 'config' | 'dns' | 'now'>,
  sample: RenderedSample,
): Promise<PreflightCheck[]> {
  const { parts } = sample;
  const [linkChecks, spam] = await Promise.all([
    checkLinksAndImages(sample.linkSource, {
      dns: services.dns,
      allowPrivateNetworks: services.config.allowPrivateNetworks,
      timeoutMs: LINK_TIMEOUT_MS,
      ownUrls: sample.ownUrls,
    }),
    checkSpamScore(services.config.spamd, { from: sample.from, to: sample.to, parts, date: services.now() }),
  ]);
  return [htmlSizeCheck(parts.html), textPartCheck(parts), sample.unsubscribe, ...linkChecks, spam];
}

function htmlSizeCheck(html: string | null): PreflightCheck {
  if (html === null) return check('html_size', 'pass', 'no HTML part');
  const bytes = Buffer.byteLength(html);
  const details = { bytes, limit: GMAIL_CLIP_BYTES };
  const size = `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes > CLIP_WARNING_BYTES)
    return check(
      'html_size',
      'warn',
      `the HTML is ${size}: Gmail will clip this message (over 102 KB with tracked links), hiding the rest and the open pixel`,
      details,
    );
  return check('html_size', 'pass', `the HTML is ${size}, under Gmail's 102 KB`, details);
}

// The server makes a text part from the HTML when none is given, so this fails only for a text part that renders empty.
function textPartCheck(parts: RenderedParts): PreflightCheck {
  if (parts.text !== null && parts.text.trim() !== '') return check('text_part', 'pass', 'a text part is sent');
  return check(
    'text_part',
    'warn',
    'no text part: the body renders no text; add text_content (some readers and spam filters expect one)',
  );
}

/** The content checks, each skipped with the same reason (the content does not render). */
export function skippedContentChecks(why: string): PreflightCheck[] {
  return ['html_size', 'text_part', 'unsubscribe_link', 'links', 'images', 'spam_score'].map((id) =>
    check(id, 'skipped', why),
  );
}
