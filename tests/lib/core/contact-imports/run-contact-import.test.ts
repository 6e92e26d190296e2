import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { unsafeClaimContactImport } from '@/lib/core/contact-imports/claim-contact-import';
import { unsafeRunContactImport } from '@/lib/core/contact-imports/run-contact-import';
import type { ContactImportObject } from '@/lib/core/contact-imports/schemas';
import { contactImportChunks, contactImports, contacts, listMemberships } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import {
  accountId,
  contactOf,
  get,
  listId,
  runAll,
  services,
  settings,
  upload,
  useImportServices,
} from './contact-import-fixture';

/**
 * The worker's run of an import on an in-memory PGlite: CSV and JSON lines into contacts and list
 * memberships, row errors and whole-file failures, stopping and resuming, a lease taken over, the
 * attempt limit, and how the file is read (byte-order mark, line ends, long lines). Uploading is in
 * create-contact-import.test.ts.
 */
useImportServices();

describe('running an import', () => {
  it('CSV: creates and updates contacts, converts cells to attribute types, lists row errors with their row numbers', async () => {
    await services.db.insert(contacts).values({
      id: newId(),
      accountId,
      email: 'old@csv.example',
      firstName: 'Old',
      lastName: 'Name',
      attributes: { plan: 'free', keep: 1 },
    });
    const csv = [
      'Email,first_name,Last_Name,plan,age,vip,birthday',
      'new1@csv.example,Ada,Lovelace,gold,36,true,1815-12-10',
      ' OLD@csv.example ,,,pro,,FALSE,',
      'not-an-address,X,,,,,',
      'bad-age@csv.example,,,,"forty",,',
      'bad-date@csv.example,,,,,,2024-1-5',
      '',
      '"quoted@csv.example","=HYPERLINK(""http://evil"")","O\'Brien, Jr",,,,',
      'new1@csv.example,,,silver,,,',
    ].join('\r\n');
    const job = await upload(csv, { list_id: listId });
    expect(await runAll()).toEqual(['completed']);
    const done = await get(job.id);
    expect(done).toMatchObject({
      status: 'completed',
      counts: { processed: 8, created: 2, updated: 2, errors: 3 },
      failure_reason: null,
      processed_bytes: Buffer.byteLength(csv),
    });
    expect(done.errors).toEqual([
      { row: 4, email: 'not-an-address', reason: 'email: invalid email address' },
      { row: 5, email: 'bad-age@csv.example', reason: 'attribute `age` must be a number, e.g. 42' },
      {
        row: 6,
        email: 'bad-date@csv.example',
        reason: 'attribute `birthday` must be a date as "YYYY-MM-DD", e.g. "2024-01-05"',
      },
    ]);
    expect(await contactOf('new1@csv.example')).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      attributes: { plan: 'silver', age: 36, vip: true, birthday: '1815-12-10' },
    });
    // Empty cells leave stored values alone; given ones replace them; the subscription is untouched.
    expect(await contactOf('old@csv.example')).toMatchObject({
      firstName: 'Old',
      lastName: 'Name',
      attributes: { plan: 'pro', keep: 1, vip: false },
      unsubscribed: false,
    });
    // A formula is text like any other; quotes and commas survive.
    expect(await contactOf('quoted@csv.example')).toMatchObject({
      firstName: '=HYPERLINK("http://evil")',
      lastName: "O'Brien, Jr",
    });
    const members = await services.db.select().from(listMemberships).where(eq(listMemberships.listId, listId));
    expect(members.map((member) => member.subscriptionStatus)).toEqual(['confirmed', 'confirmed', 'confirmed']);
    expect(
      await services.db.select().from(contactImportChunks).where(eq(contactImportChunks.importId, job.id)),
    ).toEqual([]);
  });

  it('an existing membership keeps its status (unsubscribed, complained) and an unsubscribed contact stays unsubscribed', async () => {
    const ids = [newId(), newId()];
    await services.db.insert(contacts).values([
      { id: ids[0], accountId, email: 'complained@member.example', unsubscribed: true, unsubscribedAt: services.now() },
      { id: ids[1], accountId, email: 'unsub@member.example' },
    ]);
    await services.db.insert(listMemberships).values([
      { listId, contactId: ids[0], accountId, subscriptionStatus: 'complained' },
      { listId, contactId: ids[1], accountId, subscriptionStatus: 'unsubscribed' },
    ]);
    const job = await upload('email,first_name\ncomplained@member.example,C\nunsub@member.example,U\n', {
      list_id: listId,
    });
    await runAll();
    expect((await get(job.id)).counts).toEqual({ processed: 2, created: 0, updated: 2, errors: 0 });
    const statuses = await services.db
      .select({ contactId: listMemberships.contactId, status: listMemberships.subscriptionStatus })
      .from(listMemberships)
      .where(eq(listMemberships.listId, listId));
    expect(
      statuses
        .filter((row) => ids.includes(row.contactId))
        .map((row) => row.status)
        .sort(),
    ).toEqual(['complained', 'unsubscribed']);
    expect(await contactOf('complained@member.example')).toMatchObject({ firstName: 'C', unsubscribed: true });
  });

  it('JSON lines: objects with attributes, line numbers in errors, hostile values refused per row', async () => {
    const lines = [
      JSON.stringify({ email: 'j1@jsonl.example', first_name: 'J', attributes: { age: 3, vip: true } }),
      '',
      JSON.stringify({ email: 'j2@jsonl.example', attributes: { age: '3' } }),
      '{broken',
      JSON.stringify({ email: 'j3@jsonl.example', attributes: { __proto__: 1 } }).replace('"__proto__"', '"__proto__"'),
      '{"email":"j4@jsonl.example","attributes":{"__proto__":{"x":1}}}',
      JSON.stringify({ email: 'j5@jsonl.example', first_name: 'nul\u0000' }),
      JSON.stringify({ email: 'j6@jsonl.example', phone: '1' }),
      JSON.stringify({ email: 'j7@jsonl.example', first_name: 'x'.repeat(256) }),
      '[1,2]',
      JSON.stringify({ email: 'j8@jsonl.example', last_name: null, attributes: null }),
    ].join('\n');
    const job = await upload(lines, {}, 'application/x-ndjson');
    await runAll();
    const done = await get(job.id);
    // Line 5's `{ __proto__: 1 }` literal sets no key: its attributes are empty, and it is valid.
    expect(done.counts).toEqual({ processed: 11, created: 3, updated: 0, errors: 7 });
    expect(done.errors.map((error) => [error.row, error.reason])).toEqual([
      [3, 'attribute `age` must be a number, e.g. 42'],
      [4, expect.stringMatching(/^not valid JSON/)],
      [6, 'attribute `__proto__` is not defined for this account'],
      [7, 'first_name: contains a NUL character'],
      [8, 'unknown field "phone": a line holds email, first_name, last_name and attributes'],
      [9, 'first_name: must be at most 255 characters'],
      [10, 'expected a JSON object'],
    ]);
    expect(await contactOf('j1@jsonl.example')).toMatchObject({ firstName: 'J', attributes: { age: 3, vip: true } });
    expect(Object.getPrototypeOf((await contactOf('j8@jsonl.example')).attributes)).toBe(Object.prototype);
  });

  it.each([
    ['bad CSV quoting', 'email,first_name\na@q.example,"open\n', /the file is not valid CSV: Quote Not Closed/],
    [
      'no email column',
      'mail,first_name\na@q.example,A\n',
      /the header has no email column \(its columns: "mail", "first_name"\)/,
    ],
    [
      'an unknown column',
      'email,phone,__proto__\na@q.example,1,2\n',
      /unknown columns "phone", "__proto__": a column must be email, first_name, last_name or an attribute of this account \(plan, age, vip, birthday\)/,
    ],
    ['a column twice', 'email,plan,PLAN\n', /the column "plan" appears twice/],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('email,first_name\na@q.example,'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]),
      /not valid UTF-8/,
    ],
  ])('a file with %s fails with a clear failure_reason and its chunks are deleted', async (_name, body, reason) => {
    const job = await upload(body as string);
    expect(await runAll()).toEqual(['failed']);
    const done = await get(job.id);
    expect(done.status).toBe('failed');
    expect(done.failure_reason).toMatch(reason);
    expect(done.finished_at).not.toBeNull();
    expect(
      await services.db.select().from(contactImportChunks).where(eq(contactImportChunks.importId, job.id)),
    ).toEqual([]);
  });

  it('a CSV broken near its end fails; what it says was imported is what was stored', async () => {
    const rows = Array.from({ length: 3000 }, (_, index) => `broken${index}@broken.example`);
    const job = await upload(['email', ...rows, '"unclosed@broken.example'].join('\n'));
    await runAll({ batchRows: 500 });
    const done = await get(job.id);
    expect(done).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/Quote Not Closed/) });
    const stored = await services.db.select().from(contacts).where(eq(contacts.accountId, accountId));
    expect(stored.filter((contact) => contact.email.endsWith('@broken.example'))).toHaveLength(done.counts.created);
  });

  it('a stop between batches hands the job back, and the next run resumes after the last committed batch: no row twice', async () => {
    const rows = Array.from(
      { length: 95 },
      (_, index) => `r${index}@resume.example,${index % 7 === 0 ? 'bad' : index}`,
    );
    const job = await upload(['email,age', ...rows].join('\n'));
    let batches = 0;
    expect(await runAll({ batchRows: 10, isStopping: () => ++batches >= 3 })).toEqual(['stopped']);
    const paused = await get(job.id);
    expect(paused).toMatchObject({ status: 'running', counts: { processed: 30 } });
    const [row] = await services.db.select().from(contactImports).where(eq(contactImports.id, job.id));
    expect(row).toMatchObject({ lockedBy: null, attempts: 0 });
    expect(await runAll({ batchRows: 10, workerId: 'another-worker' })).toEqual(['completed']);
    const done: ContactImportObject = await get(job.id);
    expect(done.counts).toEqual({ processed: 95, created: 81, updated: 0, errors: 14 });
    expect(done.errors).toHaveLength(14);
    expect(new Set(done.errors.map((error) => error.row)).size).toBe(14);
    const stored = await services.db.select().from(contacts).where(eq(contacts.accountId, accountId));
    expect(stored.filter((contact) => contact.email.endsWith('@resume.example'))).toHaveLength(81);
  });

  it('a worker whose lease was taken over writes nothing more', async () => {
    const job = await upload('email\nlease1@lease.example\nlease2@lease.example\n');
    const first = await unsafeClaimContactImport(services.db, { workerId: 'slow', leaseMs: 1000, now: services.now() });
    services.clock.advance(2000);
    const second = await unsafeClaimContactImport(services.db, {
      workerId: 'fast',
      leaseMs: 60_000,
      now: services.now(),
    });
    expect(second?.id).toBe(job.id);
    expect(await unsafeRunContactImport(services, first!, settings({ workerId: 'slow', batchRows: 1 }))).toBe('lost');
    expect(await unsafeRunContactImport(services, second!, settings({ workerId: 'fast' }))).toBe('completed');
    expect((await get(job.id)).counts).toEqual({ processed: 2, created: 2, updated: 0, errors: 0 });
  });

  it('an import that keeps being interrupted fails after the last attempt', async () => {
    const job = await upload('email\nretry@attempts.example\n');
    await services.db.update(contactImports).set({ attempts: 5 }).where(eq(contactImports.id, job.id));
    expect(await runAll()).toEqual(['failed']);
    expect((await get(job.id)).failure_reason).toMatch(/interrupted 5 times/);
  });

  it('errors beyond the first 1,000 are counted, not kept', async () => {
    const job = await upload(['email', ...Array.from({ length: 1203 }, (_, index) => `bad-${index}`)].join('\n'));
    await runAll({ batchRows: 500 });
    const done = await get(job.id);
    expect(done.counts.errors).toBe(1203);
    expect(done.errors).toHaveLength(1000);
    expect(done.errors.at(-1)!.row).toBe(1001);
  });
});

describe('reading the file', () => {
  it('a UTF-8 byte-order mark is dropped, CRLF line ends and a last line without one are read', async () => {
    const job = await upload(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('email,first_name\r\nbom@read.example,Zoë\r\nlast@read.example,Ünal'),
      ]),
    );
    await runAll();
    expect((await get(job.id)).counts).toEqual({ processed: 2, created: 2, updated: 0, errors: 0 });
    expect(await contactOf('bom@read.example')).toMatchObject({ firstName: 'Zoë' });
    expect(await contactOf('last@read.example')).toMatchObject({ firstName: 'Ünal' });
  });

  it('a JSON line over 1 MB is a row error, and the lines after it are read', async () => {
    const long = JSON.stringify({ email: 'long@read.example', first_name: 'x'.repeat(1024 * 1024 + 1) });
    const job = await upload(
      [long, JSON.stringify({ email: 'after@read.example' }), ''].join('\r\n'),
      {},
      'application/jsonl',
    );
    await runAll();
    const done = await get(job.id);
    expect(done.counts).toEqual({ processed: 2, created: 1, updated: 0, errors: 1 });
    expect(done.errors).toEqual([{ row: 1, email: null, reason: 'the line is longer than 1 MB' }]);
  });
});
