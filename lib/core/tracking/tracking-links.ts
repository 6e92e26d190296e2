import type { CoreConfig } from '@/lib/core/config';
import type { domains } from '@/lib/db/schema';
import { hmacSha256, safeEqual } from '@/lib/shared/crypto';
import { isUuid } from '@/lib/shared/ids';

const TRACKING_PURPOSE = 'tracking-links';

/** Signs what a tracking URL names (a message, and for clicks a link position); nothing else is in it. */
export function signTrackingToken(key: Buffer, messageId: string, position?: number): string {
  const subject = position === undefined ? messageId : `${messageId}.${position}`;
  return `${subject}.${hmacSha256(key, `${TRACKING_PURPOSE}:${subject}`).subarray(0, 16).toString('base64url')}`;
}

/** The message (and link position) of a token, or null when it was not made by us or was altered. */
export function verifyTrackingToken(key: Buffer, token: string): { messageId: string; position?: number } | null {
  const parts = token.split('.');
  if (parts.length < 2 || parts.length > 3) return null;
  const signature = parts.pop()!;
  const [messageId, position] = parts;
  if (!isUuid(messageId) || (position !== undefined && !/^\d{1,5}$/.test(position))) return null;
  const expected = signTrackingToken(key, messageId, position === undefined ? undefined : Number(position))
    .split('.')
    .pop()!;
  if (!safeEqual(signature, expected)) return null;
  return { messageId, ...(position === undefined ? {} : { position: Number(position) }) };
}

/**
 * Where tracking URLs point: the domain's tracking host once its CNAME verifies (plain HTTP on
 * HTTP_PORT, since no certificate can be held for a customer's name), otherwise our PUBLIC_URL.
 */
export function trackingBaseUrl(
  domain: typeof domains.$inferSelect,
  config: Pick<CoreConfig, 'publicUrl' | 'httpPort'>,
): string {
  const host = `${domain.trackingSubdomain ?? 't'}.${domain.domain}`;
  const isVerified = domain.dnsChecks[`CNAME:${host}`]?.propagated ?? false;
  if (isVerified && config.httpPort > 0) return `http://${host}${config.httpPort === 80 ? '' : `:${config.httpPort}`}`;
  return config.publicUrl.origin;
}

const ANCHOR = /<a\b([^>]*?)\bhref\s*=\s*("([^"]*)"|'([^']*)')([^>]*)>/gi;

const decodeEntities = (value: string) =>
  value
    .replace(/&amp;/gi, '&')
    .replace(/&#38;/g, '&')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/g, "'");

/**
 * Rewrites http(s) links of anchors to signed click URLs (links marked `data-as-no-track` are left
 * alone) and appends the open pixel. Returns the links in position order, to be stored.
 */
export function addTracking(
  html: string,
  options: {
    isClickTracked: boolean;
    isOpenTracked: boolean;
    clickUrl: (position: number) => string;
    openUrl: string;
    isUntracked?: (href: string) => boolean;
  },
): { html: string; links: string[] } {
  const links: string[] = [];
  let result = html;
  if (options.isClickTracked) {
    result = result.replace(
      ANCHOR,
      (anchor, before: string, _quoted: string, doubleQuoted?: string, singleQuoted?: string, after?: string) => {
        const href = decodeEntities((doubleQuoted ?? singleQuoted ?? '').trim());
        if (
          !/^https?:\/\//i.test(href) ||
          /\bdata-as-no-track\b/i.test(before + (after ?? '')) ||
          options.isUntracked?.(href)
        )
          return anchor;
        links.push(href);
        return `<a${before}href="${options.clickUrl(links.length - 1)}"${after ?? ''}>`;
      },
    );
  }
  if (options.isOpenTracked) {
    const pixel = `<img src="${options.openUrl}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`;
    result = /<\/body>/i.test(result) ? result.replace(/<\/body>/i, `${pixel}</body>`) : result + pixel;
  }
  return { html: result, links };
}

// Mail proxies and scanners that fetch images or follow links without a person.
const BOT_USER_AGENTS =
  /bot|crawl|spider|preview|GoogleImageProxy|YahooMailProxy|ggpht|Barracuda|Mimecast|Proofpoint|MessageLabs|Symantec|facebookexternalhit|Slackbot|Discordbot|curl|wget|python-requests|HeadlessChrome/i;

export function isBotUserAgent(userAgent: string): boolean {
  return userAgent.trim() === '' || BOT_USER_AGENTS.test(userAgent);
}
