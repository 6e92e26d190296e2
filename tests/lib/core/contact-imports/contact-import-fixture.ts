import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { unsafeClaimContactImport } from '@/lib/core/contact-imports/claim-contact-import';
import { createContactImport } from '@/lib/core/contact-imports/create-contact-import';
import { getContactImport } from '@/lib/core/contact-imports/get-contact-import';
import { unsafeRunContactImport, type ImportRunOptions } from '@/lib/core/contact-imports/run-contact-import';
import { contactAttributeDefinitions, contactLists, contacts } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * What the contact-import suites share: an account on an in-memory PGlite of the suite's own, with four
 * attribute definitions (plan, age, vip, birthday) and a list; uploads, the worker's claim-and-run loop,
 * and reads of the import and the contacts. A suite calls `useImportServices()` once at its top level.
 */
export let services: TestServices;
export let principal: Principal;
export let accountId: string;
export let listId: string;

export function useImportServices() {
  beforeAll(async () => {
    services = await memoryServices();
    ({ principal, accountId } = await newAccount(services));
    await services.db.insert(contactAttributeDefinitions).values([
      { accountId, key: 'plan', type: 'string' },
      { accountId, key: 'age', type: 'number' },
      { accountId, key: 'vip', type: 'boolean' },
      { accountId, key: 'birthday', type: 'date' },
    ]);
    listId = newId();
    await services.db.insert(contactLists).values({ id: listId, accountId, name: 'Newsletter' });
  }, 60_000);

  afterAll(() => services?.close());
}

export async function* bytesOf(text: string | Buffer, pieceSize = 7) {
  const buffer = typeof text === 'string' ? Buffer.from(text) : text;
  for (let at = 0; at < buffer.length; at += pieceSize) yield buffer.subarray(at, at + pieceSize);
}

export const upload = (
  body: string | Buffer,
  query: Record<string, string> = {},
  contentType = 'text/csv',
  who: Principal = principal,
) =>
  createContactImport(as(services, who), {
    ...query,
    content_type: contentType,
    declared_bytes: null,
    body: bytesOf(body, 4096),
  });

export const settings = (overrides: Partial<ImportRunOptions> = {}): ImportRunOptions => ({
  workerId: 'test-worker',
  leaseMs: 60_000,
  batchRows: 2000,
  maxAttempts: 5,
  isStopping: () => false,
  ...overrides,
});

/** Claims and runs whatever is due, as the worker loop does, until nothing is left. */
export async function runAll(overrides: Partial<ImportRunOptions> = {}) {
  const outcomes: string[] = [];
  for (;;) {
    const options = settings(overrides);
    const job = await unsafeClaimContactImport(services.db, {
      workerId: options.workerId,
      leaseMs: options.leaseMs,
      now: services.now(),
    });
    if (!job) return outcomes;
    outcomes.push(await unsafeRunContactImport(services, job, options));
    if (outcomes.at(-1) === 'stopped') return outcomes;
  }
}

export const get = async (id: string) => getContactImport(as(services, principal), { import_id: id });
export const contactOf = async (email: string) =>
  (
    await services.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.email, email)))
  )[0];
export const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { kind: string; message: string },
  );
  expect(error, 'expected the verb to refuse').not.toBeNull();
  return error!;
};
