const ACCOUNT_PAGE = /^\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\/|$)/i;
const PROBE_ORIGIN = 'https://mailstead.invalid';

/**
 * Where to go after signing in: only a dashboard page of this server, as a path. Anything else (an
 * absolute or protocol-relative URL, backslashes, control characters, non-page paths) is refused,
 * so the sign-in page can never be used to send someone elsewhere.
 */
export function safeCallbackPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000 || !value.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN || !ACCOUNT_PAGE.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The header the proxy sets with the page a request asked for (see proxy.ts). */
export const REQUESTED_PATH_HEADER = 'x-mailstead-path';
