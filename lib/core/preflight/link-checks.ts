import { check, type PreflightCheck } from './checks';
import { probeUrl, type ProbeOptions, type ProbeResult } from './probe-url';

/** Links and image sources fetched per preflight; the rest are listed as not checked. */
export const MAX_URLS_CHECKED = 40;
const CONCURRENCY = 4;
/** No URL is started after this long, so one preflight is never minutes of requests (the rest: not checked). */
export const LINKS_BUDGET_MS = 20_000;

const TAG = /<(a|img)\b([^>]*)>/gi;
const ATTRIBUTE = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i');

const decodeEntities = (value: string) =>
  value
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&amp;/gi, '&');

function attribute(attributes: string, name: string): string | null {
  const found = ATTRIBUTE(name).exec(attributes);
  return found ? decodeEntities((found[1] ?? found[2] ?? found[3] ?? '').trim()) : null;
}

/** The links (anchors' hrefs) and images (src, alt) of rendered HTML, in document order. */
export function extractLinksAndImages(html: string) {
  const links: string[] = [];
  const images: { src: string | null; alt: string | null }[] = [];
  for (const [, tag, attributes] of html.matchAll(TAG)) {
    if (tag.toLowerCase() === 'a') {
      const href = attribute(attributes, 'href');
      if (href) links.push(href);
    } else images.push({ src: attribute(attributes, 'src'), alt: attribute(attributes, 'alt') });
  }
  return { links: [...new Set(links)], images };
}

/** Whether a URL is fetched at all: web links only; the unsubscribe link and leftover placeholders are ours. */
function skipReason(url: string, ownUrls: string[]): string | null {
  if (ownUrls.includes(url)) return 'the unsubscribe link: served by this server';
  const isPlaceholder = /{{|{%|%7B%7B/i.test(url);
  if (isPlaceholder && /unsubscribe_url/.test(url)) return 'the unsubscribe link: served by this server';
  if (isPlaceholder) return 'a placeholder that is filled in per recipient';
  if (url.startsWith('#')) return 'a link within the message';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1].toLowerCase();
  if (scheme === 'data') return 'embedded in the message';
  if (scheme === 'cid') return 'an attachment of the message';
  if (scheme && scheme !== 'http' && scheme !== 'https') return `not a web link (${scheme})`;
  return null;
}

// Mail has no page address to resolve a relative link against: no reader can follow it.
const RELATIVE: ProbeResult = { ok: false, status: null, result: 'a relative link: mail needs a full https:// URL' };
const isRelative = (url: string) => !/^[a-z][a-z0-9+.-]*:/i.test(url);

/** URLs as the answer shows them: a data: URI can be the size of the image. */
const MAX_SHOWN_CHARS = 300;
const shown = (url: string) => (url.length > MAX_SHOWN_CHARS ? `${url.slice(0, MAX_SHOWN_CHARS)}…` : url);

type UrlResult = { url: string; status: 'ok' | 'broken' | 'skipped'; http_status: number | null; result: string };

/**
 * The links and images checks: each distinct http(s) URL fetched once through the SSRF guard
 * (probe-url.ts), a few at a time, at most MAX_URLS_CHECKED per preflight.
 */
export async function checkLinksAndImages(
  html: string | null,
  options: ProbeOptions & { ownUrls: string[]; budgetMs?: number },
): Promise<PreflightCheck[]> {
  if (html === null)
    return [
      check('links', 'pass', 'no HTML part: no links to check'),
      check('images', 'pass', 'no HTML part: no images to check'),
    ];
  const { links, images } = extractLinksAndImages(html);
  const sources = images.map((image) => image.src).filter((src): src is string => !!src);
  const toFetch = [...new Set([...links, ...sources])].filter((url) => !skipReason(url, options.ownUrls));
  const fetched = new Map<string, ProbeResult>();
  const queue = toFetch.slice(0, MAX_URLS_CHECKED);
  const deadline = Date.now() + (options.budgetMs ?? LINKS_BUDGET_MS);
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let url = queue.shift(); url !== undefined && Date.now() < deadline; url = queue.shift())
        fetched.set(url, isRelative(url) ? RELATIVE : await probeUrl(url, options));
    }),
  );
  const isOverCap = toFetch.length > MAX_URLS_CHECKED;
  const resultOf = (url: string): UrlResult => {
    const skipped = skipReason(url, options.ownUrls);
    if (skipped) return { url: shown(url), status: 'skipped', http_status: null, result: skipped };
    const probe = fetched.get(url);
    if (!probe)
      return {
        url: shown(url),
        status: 'skipped',
        http_status: null,
        result:
          isOverCap && toFetch.indexOf(url) >= MAX_URLS_CHECKED
            ? `not checked: over ${MAX_URLS_CHECKED} URLs`
            : `not checked: the check ran out of its ${(options.budgetMs ?? LINKS_BUDGET_MS) / 1000} s`,
      };
    return { url: shown(url), status: probe.ok ? 'ok' : 'broken', http_status: probe.status, result: probe.result };
  };
  return [linksCheck(links.map(resultOf)), imagesCheck(images, resultOf)];
}

function linksCheck(results: UrlResult[]): PreflightCheck {
  const broken = results.filter((entry) => entry.status === 'broken');
  const checked = results.filter((entry) => entry.status !== 'skipped').length;
  const details = { links: results };
  if (broken.length)
    return check(
      'links',
      'fail',
      `${broken.length} of ${results.length} link${results.length > 1 ? 's' : ''} ${broken.length > 1 ? 'are' : 'is'} broken: ${broken[0].url} (${broken[0].result})`,
      details,
    );
  if (results.length === 0) return check('links', 'pass', 'no links', details);
  return check('links', 'pass', `${checked} link${checked === 1 ? '' : 's'} checked, all load`, details);
}

function imagesCheck(
  images: { src: string | null; alt: string | null }[],
  resultOf: (url: string) => UrlResult,
): PreflightCheck {
  const results = images.map((image) => ({
    src: image.src === null ? null : shown(image.src),
    alt: image.alt,
    ...(image.src
      ? (({ status, http_status, result }) => ({ status, http_status, result }))(resultOf(image.src))
      : { status: 'broken' as const, http_status: null, result: 'no src' }),
  }));
  const details = { images: results };
  const noAlt = results.filter((image) => image.alt === null);
  const broken = results.filter((image) => image.status === 'broken');
  const problems = [
    noAlt.length ? `${noAlt.length} image${noAlt.length > 1 ? 's have' : ' has'} no alt text (${noAlt[0].src})` : null,
    broken.length
      ? `${broken.length} image${broken.length > 1 ? 's do' : ' does'} not load: ${broken[0].src} (${broken[0].result})`
      : null,
  ].filter(Boolean);
  if (problems.length) return check('images', 'warn', problems.join('; '), details);
  if (results.length === 0) return check('images', 'pass', 'no images', details);
  return check(
    'images',
    'pass',
    `${results.length} image${results.length > 1 ? 's' : ''}, each with alt text, all load`,
    details,
  );
}
