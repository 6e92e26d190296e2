import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import type { VerbContext } from '@/lib/core/context';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';

const ctx = (scopes: string[]) =>
  ({
    principal: {
      kind: 'api_key',
      accountId: 'a',
      targetAccountId: 'a',
      scopes,
      clientIp: null,
      isSandbox: false,
    } satisfies Principal,
  }) as unknown as VerbContext;

function sendLike() {
  const run = vi.fn(async () => 'sent');
  const domains = vi.fn((_ctx: VerbContext, input: { from: string }) => [input.from.split('@')[1]]);
  const verb = defineVerb({
    scope: 'messages:send:{domain}',
    input: z.object({ from: z.string().email() }),
    domains,
    run,
  });
  return { verb, run, domains };
}

describe('defineVerb: authorize, then execute', () => {
  const refused: [string, string[], unknown, RegExp][] = [
    ['no scope of the prefix, even with garbage input', ['domains:read'], 'garbage', /insufficient permissions/],
    [
      'a scope for another domain',
      ['messages:send:{b.example}'],
      { from: 'x@a.example' },
      /messages:send:\{a\.example\}/,
    ],
  ];
  it.each(refused)('authorize refuses %s (403) and runs nothing', async (_name, scopes, input, message) => {
    const { verb, run } = sendLike();
    await expect(verb.authorize(ctx(scopes), input)).rejects.toThrow(message);
    expect(run).not.toHaveBeenCalled();
  });

  it('invalid input passes authorize without the domain check and is refused (400) by execute', async () => {
    const { verb, run, domains } = sendLike();
    const authorized = await verb.authorize(ctx(['messages:send:{b.example}']), { from: 'not an address' });
    expect(domains).not.toHaveBeenCalled();
    await expect(verb.execute(ctx(['messages:send:{b.example}']), authorized)).rejects.toMatchObject({
      kind: 'invalid_input',
      field: 'from',
    });
    expect(run).not.toHaveBeenCalled();
  });

  it('valid, authorised input runs once, through execute or the verb itself', async () => {
    const { verb, run } = sendLike();
    const authorized = await verb.authorize(ctx(['messages:send:{a.example}']), { from: 'x@a.example' });
    expect(run).not.toHaveBeenCalled();
    expect(await verb.execute(ctx(['messages:send:{a.example}']), authorized)).toBe('sent');
    expect(await verb(ctx(['messages:send:all']), { from: 'y@a.example' })).toBe('sent');
    expect(run).toHaveBeenCalledTimes(2);
  });
});

describe('defineVerb: a second scope the input asks for (alsoNeeds)', () => {
  const listMembersLike = () => {
    const run = vi.fn(async () => 'members');
    const verb = defineVerb({
      scope: 'lists:read',
      input: z.object({ include_contacts: z.enum(['true', 'false']).optional() }),
      alsoNeeds: (input) => (input.include_contacts === 'true' ? ['contacts:read'] : []),
      run,
    });
    return { verb, run };
  };

  it('asks for the second scope only when the input says so, before any work', async () => {
    const { verb, run } = listMembersLike();
    expect(await verb(ctx(['lists:read']), {})).toBe('members');
    await expect(verb(ctx(['lists:read']), { include_contacts: 'true' })).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringMatching(/contacts:read$/),
    });
    expect(run).toHaveBeenCalledTimes(1);
    expect(await verb(ctx(['lists:read', 'contacts:read']), { include_contacts: 'true' })).toBe('members');
  });

  it('invalid input is a 400 from execute, not a 403 for the second scope', async () => {
    const { verb } = listMembersLike();
    await expect(verb(ctx(['lists:read']), { include_contacts: 'maybe' })).rejects.toMatchObject({
      kind: 'invalid_input',
    });
  });
});
