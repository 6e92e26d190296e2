import { describe, expect, it } from 'vitest';
import { authorize, authorizedDomains, authorizeKeyManagement, canGrant, isAuthorized } from '@/lib/auth/authorize';
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
    expect(() => authorize(principal([]), 'domains:read')).toThrow(/insufficient permissions for the required scope: domains:read/);
  });

  it('filters domains for scoped lists', () => {
    expect(authorizedDomains(principal(['webhooks:read:{a.example}']), 'webhooks:read:{domain}', ['a.example', 'b.example'])).toEqual(['a.example']);
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

describe('authorizeKeyManagement', () => {
  const manager = principal(['api-keys:write', 'api-keys:read', 'messages:send:all']);
  const refused: [string, string[], string][] = [
    ['the * key', ['*'], '*'],
    ['a key with one scope more', ['api-keys:write', 'domains:write'], 'domains:write'],
    ['a key with a domain scope of a prefix held per domain only', ['routes:read:{a.example}', 'routes:read:all'], 'routes:read:{a.example}, routes:read:all'],
  ];
  it.each(refused)('refuses to manage %s, naming the missing scopes', (_name, scopes, missing) => {
    expect(() => authorizeKeyManagement(manager, scopes)).toThrow(`insufficient permissions: this key holds scopes you do not: ${missing}`);
  });

  it('allows a key whose scopes the caller holds, itself included, and anything to *', () => {
    expect(() => authorizeKeyManagement(manager, ['api-keys:read', 'messages:send:{b.example}'])).not.toThrow();
    expect(() => authorizeKeyManagement(manager, ['api-keys:write', 'api-keys:read', 'messages:send:all'])).not.toThrow();
    expect(() => authorizeKeyManagement(principal(['*']), ['*'])).not.toThrow();
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

  it.each(['domains:read:all', 'domains:delete', 'accounts:read:{x.com}', 'messages:send:{}', 'Messages:send:all', ''])('%s is not a scope', (scope) => {
    expect(parseScope(scope)).toBeNull();
  });
});
