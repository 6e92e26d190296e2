import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { createTemplate } from '@/lib/core/templates/create-template';
import { listTemplateVersions } from '@/lib/core/templates/list-template-versions';
import { publishTemplate } from '@/lib/core/templates/publish-template';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** A template's versions, paged with the same cursors as every list, keyed on the version number. */
let services: TestServices;
let principal: Principal;
let other: Principal;
let templateId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ principal } = await newAccount(services));
  ({ principal: other } = await newAccount(services, 'Other'));
  templateId = (await createTemplate(as(services, principal), { name: 'Paged', subject: 'S', text_content: 'T' })).id;
  for (let i = 0; i < 5; i++) await publishTemplate(as(services, principal), { template_id: templateId });
}, 60_000);

afterAll(() => services?.close());

const list = (query: Record<string, unknown>, who: Principal = principal) =>
  listTemplateVersions(as(services, who), { template_id: templateId, ...query });
const numbers = (page: { items: { version: number }[] }) => page.items.map((item) => item.version);

describe('listTemplateVersions', () => {
  it('walks forward with after and back with before, newest first', async () => {
    const first = await list({ limit: 2 });
    expect(numbers(first)).toEqual([5, 4]);
    expect(first).toMatchObject({ hasMore: true, previousCursor: undefined });
    const second = await list({ limit: 2, after: first.nextCursor });
    expect(numbers(second)).toEqual([3, 2]);
    expect(second.previousCursor).toBeTruthy();
    const third = await list({ limit: 2, after: second.nextCursor });
    expect(numbers(third)).toEqual([1]);
    expect(third).toMatchObject({ hasMore: false, nextCursor: undefined });
    const back = await list({ limit: 2, before: third.previousCursor });
    expect(numbers(back)).toEqual([3, 2]);
    const start = await list({ limit: 2, before: back.previousCursor });
    expect(numbers(start)).toEqual([5, 4]);
    expect(start.previousCursor).toBeUndefined();
    expect(numbers(await list({ limit: 2, cursor: first.nextCursor }))).toEqual([3, 2]);
  });

  it('defaults to one page of up to 100', async () => {
    expect(numbers(await list({}))).toEqual([5, 4, 3, 2, 1]);
  });

  it.each([
    [{ after: 'nope' }, /invalid after cursor/],
    [
      { before: Buffer.from(JSON.stringify({ id: '0190a0a0-0000-7000-8000-000000000000' })).toString('base64url') },
      /invalid before cursor/,
    ],
    [{ cursor: Buffer.from(JSON.stringify({ number: -1 })).toString('base64url') }, /^invalid cursor$/],
    [{ limit: 0 }, /limit must be between 1 and 100/],
  ])('%j is invalid input', async (query, message) => {
    const error = await list(query).then(
      () => null,
      (caught: { kind: string; message: string }) => caught,
    );
    expect(error?.kind).toBe('invalid_input');
    expect(error?.message).toMatch(message);
  });

  it("another account's template is not found", async () => {
    const error = await list({}, other).then(
      () => null,
      (caught: { kind: string }) => caught,
    );
    expect(error?.kind).toBe('not_found');
  });
});
