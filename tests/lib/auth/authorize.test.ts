import { describe, expect, it } from 'vitest';
import {
  authorize,
  authorizedDomains,
  authorizeHoldingEveryScopeOf,
  canGrant,
  isAuthorized,
} from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import { parseScope } from '@/lib/auth/scopes';

const principal = (scopes: string[], kind: Principal['kind'] = 'api_key'): Principal => ({
  kind,
  accountId: 'a',
  targetAccountId: 'a',
  scopes,
  clientIp: '127.0.0.1',
  isSandbox: false,
});

describe('isAuthorized', () => {
  it('grants everything to *', () => {
    expect(isAuthorized(principal(['*']), 'api-keys:write')).toBe(true);
    expect(isAuthorized(principal(['*']), 'messages:send:{domain}', ['a.example'])).toBe(true);
  });

  it('matches static scopes exactly', () => {
    expect(isAuthorized(principal(['api-keys:read']), 'api-keys:read')).toBe(true);
    expect(isAuthorized(principal(['api-keys:read']), 'api-keys:write')).toBe(false);
  });

  it('lets :all cover any domain, and a domain scope only its domain', () => {
    const all = principal(['messages:send:all']);
    const one = principal(['messages:send:{a.example}']);
    expect(isAuthorized(all, 'messages:send:{domain}', ['b.example'])).toBe(true);
    expect(isAuthorized(one, 'messages:send:{domain}', ['a.example'])).toBe(true);
    expect(isAuthorized(one, 'messages:send:{domain}', ['b.example'])).toBe(false);
    expect(isAuthorized(one, 'messages:send:{domain}', ['a.example', 'b.example'])).toBe(false);
    expect(isAuthorized(one, 'messages:read:{domain}', ['a.example'])).toBe(false);
  });

  it('passes the early check (no domain known yet) only with some scope of that prefix', () => {
    expect(isAuthorized(principal(['messages:send:{a.example}']), 'messages:send:{domain}')).toBe(true);
    expect(isAuthorized(principal(['messages:read:{a.example}']), 'messages:send:{domain}')).toBe(false);
  });

  it('keeps system verbs for the system principal', () => {
    expect(isAuthorized(principal(['*']), 'system')).toBe(false);
    expect(isAuthorized(principal(['*'], 'system'), 'system')).toBe(true);
  });

  it('throws forbidden naming the scope', () => {
    expect(() => authorize(principal([]), 'domains:read')).toThrow(
      /insufficient permissions for the required scope: domains:read/,
    );
  });

  const domainRefusals: [string, string[], string[] | undefined, string][] = [
    [
      'a domain-scoped key sending from another domain',
      ['messages:send:{a.example}'],
      ['b.example'],
      'messages:send:{b.example}',
    ],
    [
      'only the domains not covered',
      ['messages:send:{a.example}'],
      ['a.example', 'b.example', 'c.example'],
      'messages:send:{b.example}, messages:send:{c.example}',
    ],
    [
      'many domains, the first three',
      [],
      ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'],
      'messages:send:{a.example}, messages:send:{b.example}, messages:send:{c.example} and 2 more',
    ],
    ['no domain known yet (the early check)', ['domains:read'], undefined, 'messages:send:all'],
    ['no domain found (an empty sender)', ['messages:send:{a.example}'], [], 'messages:send:all'],
  ];
  it.each(domainRefusals)('names the domain scope, never {domain}: %s', (_name, scopes, domains, named) => {
    expect(() => authorize(principal(scopes), 'messages:send:{domain}', domains)).toThrow(
      `insufficient permissions for the required scope: ${named}`,
    );
  });

  it('filters domains for scoped lists', () => {
    expect(
      authorizedDomains(principal(['webhooks:read:{a.example}']), 'webhooks:read:{domain}', ['a.example', 'b.example']),
    ).toEqual(['a.example']);
    expect(authorizedDomains(principal(['webhooks:read:all']), 'webhooks:read:{domain}', ['a.example'])).toBe('all');
  });
});

describe('canGrant', () => {
  it('grants only what the granter holds', () => {
    const granter = principal(['api-keys:write', 'messages:send:all', 'routes:read:{a.example}']);
    expect(canGrant(granter, 'messages:send:all')).toBe(true);
    expect(canGrant(granter, 'messages:send:{b.example}')).toBe(true);
    expect(canGrant(granter, 'routes:read:{a.example}')).toBe(true);
    expect(canGrant(granter, 'routes:read:all')).toBe(false);
    expect(canGrant(granter, 'domains:write')).toBe(false);
    expect(canGrant(granter, '*')).toBe(false);
    expect(canGrant(principal(['*']), '*')).toBe(true);
  });
});

describe('authorizeHoldingEveryScopeOf (keys)', () => {
  const manager = principal(['api-keys:write', 'api-keys:read', 'messages:send:all']);
  const refused: [string, string[], string][] = [
    ['the * key', ['*'], '*'],
    ['a key with one scope more', ['api-keys:write', 'domains:write'], 'domains:write'],
    [
      'a key with a domain scope of a prefix held per domain only',
      ['routes:read:{a.example}', 'routes:read:all'],
      'routes:read:{a.example}, routes:read:all',
    ],
  ];
  it.each(refused)('refuses to manage %s, naming the missing scopes', (_name, scopes, missing) => {
    expect(() => authorizeHoldingEveryScopeOf(manager, { kind: 'api_key', scopes })).toThrow(
      `insufficient permissions: this key holds scopes you do not: ${missing}`,
    );
  });

  it('allows a key whose scopes the caller holds, itself included, and anything to *', () => {
    expect(() =>
      authorizeHoldingEveryScopeOf(manager, {
        kind: 'api_key',
        scopes: ['api-keys:read', 'messages:send:{b.example}'],
      }),
    ).not.toThrow();
    expect(() =>
      authorizeHoldingEveryScopeOf(manager, {
        kind: 'api_key',
        scopes: ['api-keys:write', 'api-keys:read', 'messages:send:all'],
      }),
    ).not.toThrow();
    expect(() => authorizeHoldingEveryScopeOf(principal(['*']), { kind: 'api_key', scopes: ['*'] })).not.toThrow();
  });
});

describe('authorizeHoldingEveryScopeOf (roles)', () => {
  it('refuses a role whose scopes the caller lacks, naming the role and the scopes', () => {
    expect(() =>
      authorizeHoldingEveryScopeOf(principal(['accounts:members:add', 'accounts:read']), {
        kind: 'role',
        role: 'Billing Manager',
      }),
    ).toThrow(
      'insufficient permissions: the role Billing Manager holds scopes you do not: accounts:billing, accounts:members:read, statistics-transactional:read:all, sub-accounts:usage',
    );
    expect(() =>
      authorizeHoldingEveryScopeOf(principal(['accounts:members:add']), { kind: 'role', role: 'Administrator' }),
    ).toThrow(/the role Administrator holds scopes you do not: \*$/);
  });

  it('allows a role whose scopes the caller holds', () => {
    expect(() => authorizeHoldingEveryScopeOf(principal(['*']), { kind: 'role', role: 'Administrator' })).not.toThrow();
    expect(() =>
      authorizeHoldingEveryScopeOf(
        principal([
          'accounts:read',
          'accounts:billing',
          'accounts:members:read',
          'statistics-transactional:read:all',
          'sub-accounts:usage',
        ]),
        { kind: 'role', role: 'Billing Manager' },
      ),
    ).not.toThrow();
  });
});

describe('parseScope', () => {
  it.each([
    ['*', 'wildcard'],
    ['domains:read', 'static'],
    ['messages:send:all', 'all'],
    ['messages:send:{example.com}', 'domain'],
  ])('%s is %s', (scope, kind) => {
    expect(parseScope(scope)?.kind).toBe(kind);
  });

  it.each(['domains:read:all', 'domains:delete', 'accounts:read:{x.com}', 'messages:send:{}', 'Messages:send:all', ''])(
    '%s is not a scope',
    (scope) => {
      expect(parseScope(scope)).toBeNull();
    },
  );
});
