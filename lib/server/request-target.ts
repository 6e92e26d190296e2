/**
 * The path a request line names, as the routers behind the web server read it (decoded once, like
 * Hono's getPath), or null when the target hides its real path: a dot segment (`..`, `.`) or a
 * backslash (which URL parsers read as `/`) in any percent-encoding, however often encoded. Clients
 * never send these (browsers and curl resolve dot segments first); refusing them leaves one reading
 * of every path, so the listener decides on the same path the API or Next.js then routes.
 */
export function routablePath(target: string): string | null {
  const rawPath = pathOfTarget(target);
  if (rawPath === null) return null;
  let path = rawPath;
  for (let round = 0; round <= MAX_DECODING_ROUNDS; round++) {
    if (hasHiddenSegment(path)) return null;
    const decoded = percentDecode(path);
    if (decoded === path) return percentDecode(rawPath);
    path = decoded;
  }
  // Still decoding after this many rounds: a target no client makes.
  return null;
}

const MAX_DECODING_ROUNDS = 4;

/** A backslash, or a `.` or `..` segment once tabs and line breaks are gone (URL parsers drop them). */
function hasHiddenSegment(path: string): boolean {
  if (path.includes('\\')) return true;
  return path
    .replace(/[\t\n\r]/g, '')
    .split('/')
    .some((segment) => segment === '.' || segment === '..');
}

/** The path part of an origin-form (`/a?b`) or absolute-form (`http://host/a?b`) target; null for any other form. */
function pathOfTarget(target: string): string | null {
  const authority = /^https?:\/\/[^/?#]*/i.exec(target);
  const rest = authority ? target.slice(authority[0].length) || '/' : target;
  if (!rest.startsWith('/')) return null;
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/** One round of percent-decoding (`%2e` -> `.`, `%5c` -> `\`, `%2f` -> `/`); malformed escapes stay as they are. */
function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  return Buffer.from(
    value.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}
