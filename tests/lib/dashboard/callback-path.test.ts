import { describe, expect, it } from 'vitest';
import { safeCallbackPath } from '@/lib/dashboard/callback-path';

const account = '/01a2042d-7de7-77c8-a9a3-299bfcdc1adb';

describe('safeCallbackPath: only a dashboard page of this server, as a path', () => {
  it.each([
    [`${account}`, `${account}`],
    [`${account}/messages?status=Bounced`, `${account}/messages?status=Bounced`],
    [`${account}/domains/example.com#records`, `${account}/domains/example.com#records`],
    [`${account}/settings/../api-keys`, `${account}/api-keys`],
  ])('keeps %s', (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });

  it.each([
    ['nothing', undefined],
    ['empty', ''],
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/x'],
    ['a backslash trick', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a control character', `${account}/\nx`],
    ['a path that climbs out of the account', `${account}/../../evil`],
    ['a non-page path', '/v2/accounts'],
    ['the sign-in page itself', '/sign-in'],
    ['an overlong value', `${account}/${'x'.repeat(2000)}`],
  ])('refuses %s', (_name, input) => {
    expect(safeCallbackPath(input)).toBeNull();
  });
});
