import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { unsafeClaimContactExport } from '@/lib/core/contact-exports/claim-contact-export';
import { createContactExport } from '@/lib/core/contact-exports/create-contact-export';
import { getContactExport } from '@/lib/core/contact-exports/get-contact-export';
import { unsafePurgeExpiredContactExports } from '@/lib/core/contact-exports/purge-expired-contact-exports';
import { unsafeRunContactExport, type ExportRunOptions } from '@/lib/core/contact-exports/run-contact-export';
import { streamContactExportFile } from '@/lib/core/contact-exports/stream-contact-export-file';
import {
  auditEvents,
  contactAttributeDefinitions,
  contactExports,
  contactLists,
  contacts,
  listMemberships,
} from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** Exports end to end on an in-memory PGlite: the worker's file, restarts, expiry and tenancy. */
let services: TestServices;
let principal: Principal;
let accountId: string;
let listId: string;
let otherPrincipal: Principal;
const exportsDir = mkdtempSync(path.join(tmpdir(), 'export-test-'));
const CONTACTS = 1234;

const options = (overrides: Partial<ExportRunOptions> = {}): ExportRunOptions => ({
  workerId: 'worker-a',
  leaseMs: 60_000,
  pageRows: 100,
  maxAttempts: 5,
  isStopping: () => false,
  ...overrides,
});

async function runNext(overrides: Partial<ExportRunOptions> = {}) {
  const settings = options(overrides);
  const job = await unsafeClaimContactExport(services.db, { ...settings, now: services.now() });
  if (!job) throw new Error('nothing to claim');
  return { job, outcome: await unsafeRunContactExport(services, job, settings) };
}

async function fileRows(exportId: string, who = principal) {
  const file = await streamContactExportFile(as(services, who), { export_id: exportId });
  return parse(await text(file.stream)) as string[][];
}

beforeAll(async () => {
  services = await memoryServices({ exportsDir });
  ({ principal, accountId } = await newAccount(services));
  ({ principal: otherPrincipal } = await newAccount(services, 'Other'));
  await services.db.insert(contactAttributeDefinitions).values([
    { accountId, key: 'plan', type: 'string' },
    { accountId, key: 'age', type: 'number' },
  ]);
  listId = newId();
  await services.db.insert(contactLists).values({ id: listId, accountId, name: 'Half' });
  const rows = Array.from({ length: CONTACTS }, (_, index) => ({
    id: newId(),
    accountId,
    email: `c${index}@export.example`,
    firstName: index === 0 ? 'Zoë, "q"\nnext' : `F${index}`,
    attributes: index % 2 ? { plan: index % 4 === 1 ? 'gold' : 'free', age: index } : { prefs: { a: [1] } },
  }));
  await services.db.insert(contacts).values(rows);
  await services.db
    .insert(listMemberships)
    .values(rows.filter((_, index) => index % 2 === 0).map((row) => ({ listId, contactId: row.id, accountId })));
}, 60_000);

afterAll(() => services?.close());

describe('contact exports through the worker', () => {
  test('all contacts: one row each, header with attribute columns, progress and file_url; audited', async () => {
    const queued = await createContactExport(as(services, principal), {});
    expect(queued).toMatchObject({ object: 'contact_export', status: 'queued', exported: 0, file_url: null });
    const { outcome } = await runNext();
    expect(outcome).toBe('done');
    const done = await getContactExport(as(services, principal), { export_id: queued.id });
    expect(done).toMatchObject({ status: 'done', exported: CONTACTS, total: CONTACTS });
    expect(done.file_url).toBe(`https://mailstead.test/v2/accounts/${accountId}/contacts/export/${queued.id}/file`);
    expect(new Date(done.expires_at!).getTime() - new Date(done.completed_at!).getTime()).toBe(24 * 3600 * 1000);
    const [header, ...rows] = await fileRows(queued.id);
    expect(header).toEqual(['email', 'first_name', 'last_name', 'unsubscribed', 'created_at', 'age', 'plan']);
    expect(rows).toHaveLength(CONTACTS);
    expect(new Set(rows.map((row) => row[0])).size).toBe(CONTACTS);
    expect(rows.find((row) => row[0] === 'c0@export.example')![1]).toBe('Zoë, "q"\nnext');
    expect(rows.find((row) => row[0] === 'c1@export.example')!.slice(5)).toEqual(['1', 'gold']);
    const audited = await services.db.select().from(auditEvents).where(eq(auditEvents.resourceId, queued.id));
    expect(audited.map((event) => event.action)).toEqual(['contact.export']);
  });

  test('a list exports its members only; a filter exports the contacts it matches', async () => {
    const byList = await createContactExport(as(services, principal), { list_id: listId });
    await runNext();
    const listRows = (await fileRows(byList.id)).slice(1);
    expect(listRows).toHaveLength(CONTACTS / 2);
    expect(listRows.every((row) => Number(row[0].match(/\d+/)![0]) % 2 === 0)).toBe(true);

    const byFilter = await createContactExport(as(services, principal), {
      filter: { all: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }] },
    });
    await runNext();
    const gold = (await fileRows(byFilter.id)).slice(1);
    expect(gold.length).toBe(Math.ceil((CONTACTS - 1) / 4));
    expect(gold.every((row) => row[6] === 'gold')).toBe(true);
  });

  test('a reclaimed export (its worker killed mid-file) restarts cleanly: the file is rewritten, no row twice', async () => {
    const queued = await createContactExport(as(services, principal), {});
    const killed = await unsafeClaimContactExport(services.db, { ...options(), leaseMs: 1000, now: services.now() });
    expect(killed!.id).toBe(queued.id);
    // What a worker killed mid-file leaves: its partial file, and a lease that runs out.
    const stale = path.join(exportsDir, `${queued.id}.${killed!.attempts}.csv.part`);
    writeFileSync(stale, 'email\nstale@row.example\n');
    services.clock.advance(2000);
    const { job, outcome } = await runNext({ workerId: 'worker-b' });
    expect([job.id, outcome]).toEqual([queued.id, 'done']);
    expect(existsSync(stale)).toBe(false);
    const rows = (await fileRows(queued.id)).slice(1);
    expect(rows).toHaveLength(CONTACTS);
    expect(new Set(rows.map((row) => row[0])).size).toBe(CONTACTS);
    // The killed worker, were it to wake up, is fenced out and leaves the file alone.
    expect(await unsafeRunContactExport(services, killed!, options())).toBe('lost');
    expect((await fileRows(queued.id)).slice(1)).toHaveLength(CONTACTS);
    expect(await getContactExport(as(services, principal), { export_id: queued.id })).toMatchObject({
      status: 'done',
      exported: CONTACTS,
    });
  });

  test('a stop between pages hands the export back; the next claim writes it whole', async () => {
    const queued = await createContactExport(as(services, principal), {});
    let pages = 0;
    const stopped = await runNext({ isStopping: () => ++pages > 3 });
    expect(stopped.outcome).toBe('stopped');
    expect((await getContactExport(as(services, principal), { export_id: queued.id })).status).toBe('running');
    expect((await runNext()).outcome).toBe('done');
    expect((await fileRows(queued.id)).slice(1)).toHaveLength(CONTACTS);
  });

  test("tenancy: another account's export is 404 for every verb", async () => {
    const mine = await createContactExport(as(services, principal), {});
    await runNext();
    await expect(getContactExport(as(services, otherPrincipal), { export_id: mine.id })).rejects.toThrow(/not found/);
    await expect(streamContactExportFile(as(services, otherPrincipal), { export_id: mine.id })).rejects.toThrow(
      /not found/,
    );
    await expect(createContactExport(as(services, otherPrincipal), { list_id: listId })).rejects.toThrow(
      /list not found/,
    );
  });

  test('expiry: 24 hours after it finished the file is deleted, the export says expired, the file is a clear 404', async () => {
    const queued = await createContactExport(as(services, principal), {});
    await runNext();
    const file = path.join(exportsDir, `${queued.id}.csv`);
    expect(existsSync(file)).toBe(true);
    services.clock.advance(23 * 3600 * 1000);
    await unsafePurgeExpiredContactExports(services, services.now());
    expect(existsSync(file)).toBe(true);
    services.clock.advance(3600 * 1000 + 1000);
    // Past its time, before the purge job runs: the file is already refused.
    await expect(streamContactExportFile(as(services, principal), { export_id: queued.id })).rejects.toThrow(
      /expired: its file is kept for 24 hours/,
    );
    await unsafePurgeExpiredContactExports(services, services.now());
    expect(existsSync(file)).toBe(false);
    expect(await getContactExport(as(services, principal), { export_id: queued.id })).toMatchObject({
      status: 'expired',
      file_url: null,
    });
    await expect(streamContactExportFile(as(services, principal), { export_id: queued.id })).rejects.toThrow(
      /expired: its file is kept for 24 hours/,
    );
    // A week on, the row goes too.
    services.clock.advance(8 * 24 * 3600 * 1000);
    await unsafePurgeExpiredContactExports(services, services.now());
    expect(await services.db.select().from(contactExports).where(eq(contactExports.id, queued.id))).toHaveLength(0);
  });

  test('a list deleted before the run fails the export with the reason', async () => {
    const doomed = newId();
    await services.db.insert(contactLists).values({ id: doomed, accountId, name: 'Doomed' });
    const queued = await createContactExport(as(services, principal), { list_id: doomed });
    await services.db.update(contactLists).set({ deletedAt: services.now() }).where(eq(contactLists.id, doomed));
    expect((await runNext()).outcome).toBe('failed');
    const failed = await getContactExport(as(services, principal), { export_id: queued.id });
    expect(failed).toMatchObject({ status: 'failed', file_url: null });
    expect(failed.error).toMatch(/list not found/);
  });
});
