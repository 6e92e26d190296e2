import { describe, expect, it } from 'vitest';
import { routablePath } from '@/lib/server/request-target';

describe('routablePath', () => {
  const hidden: [string, string][] = [
    ['..', '/t/../v2/accounts/x/api-keys'],
    ['%2e%2e', '/t/%2e%2e/v2/accounts/x/api-keys'],
    ['%2E%2e', '/t/%2E%2e/internal/session'],
    ['.%2e', '/t/.%2e/u/token'],
    ['%2e.', '/t/%2e./v2/ping'],
    ['..%2f', '/t/..%2fv2/ping'],
    ['%2f..', '/t/x%2f..%2f..%2fv2/ping'],
    ['a backslash', '/t/..\\v2/ping'],
    ['%5c', '/t/..%5cv2/ping'],
    ['%5C after a letter', '/t/o%5C..%5Cv2'],
    ['double-encoded %252e%252e', '/t/%252e%252e/v2/ping'],
    ['triple-encoded', '/t/%25252e%25252e/v2/ping'],
    ['a trailing ..', '/t/o/..'],
    ['a single . segment', '/t/./o/x'],
    ['.. with a tab inside (URL parsers drop it)', '/t/.%09./v2'],
    ['.. in absolute form', 'http://t.example.com/t/../v2/ping'],
    ['encoded too deep to be a real path', '/t/%2525252525252e'],
    ['not a path', '*'],
    ['a scheme that is not http', 'ftp://host/t/o/x'],
  ];
  it.each(hidden)('refuses %s', (_name, target) => {
    expect(routablePath(target)).toBeNull();
  });

  const paths: [string, string][] = [
    ['/t/o/0190f2d2-1111-7000-8000-000000000000.abc_DEF-1', '/t/o/0190f2d2-1111-7000-8000-000000000000.abc_DEF-1'],
    ['/v2/accounts/a/messages?status=..&x=%2e%2e', '/v2/accounts/a/messages'],
    ['/v2/accounts/a/messages/%3Cid%40example.com%3E', '/v2/accounts/a/messages/<id@example.com>'],
    ['/v%32/ping', '/v2/ping'],
    ['/.well-known/x..y/..z', '/.well-known/x..y/..z'],
    ['//v2/ping', '//v2/ping'],
    ['https://mail.example.com/v2/ping?x', '/v2/ping'],
    ['http://mail.example.com', '/'],
    ['/_next/static/chunks/app/%5BaccountId%5D/page.js', '/_next/static/chunks/app/[accountId]/page.js'],
    ['/a%zz', '/a%zz'],
  ];
  it.each(paths)('routes %s on %s', (target, path) => {
    expect(routablePath(target)).toBe(path);
  });
});
