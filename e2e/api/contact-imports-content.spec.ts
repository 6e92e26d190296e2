import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { importHelpers } from '../support/contact-import-fixtures';
import { dashboardSession } from '../support/dashboard-session';
import { newAccount } from '../support/shared';

/**
 * What the rows of a contact import hold, on the shared server: hostile cells (formulas, quotes, NUL
 * bytes, over-long values) and files that fail with a reason, then attribute columns converted per
 * the account's definitions (serial: the hostile files run before any attribute is defined). The
 * import job itself is in contact-imports.spec.ts.
 */
let api: ApiClient;
let accountId: string;
let ownerId: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, accountId, ownerId } = await newAccount('Contact imports'));
});

test.describe.configure({ mode: 'serial' });

const { upload, finished, contact } = importHelpers(() => api);

test('hostile files: formulas and quotes are stored as text; NUL bytes and over-long values are row errors; bad files fail with a reason', async () => {
  const csv = [
    'email,first_name,last_name',
    `formula.${stamp}@hostile.example,"=HYPERLINK(""http://evil.example"",""x"")",+SUM(A1)`,
    `quotes.${stamp}@hostile.example,"O""Brien, ""Jr""","line1\nline2"`,
    `nul.${stamp}@hostile.example,a\u0000b,`,
    `long.${stamp}@hostile.example,${'x'.repeat(300)},`,
    `${'l'.repeat(400)}@hostile.example,,`,
  ].join('\n');
  const job = await finished(api, (await upload(api, csv)).body.id);
  expect(job.counts).toEqual({ processed: 5, created: 2, updated: 0, errors: 3 });
  // Rows are records: the quoted line break above does not start a new row.
  expect(job.errors.map((error: any) => [error.row, error.reason])).toEqual([
    [4, 'first_name: contains a NUL character'],
    [5, 'first_name: must be at most 255 characters'],
    [6, 'email: must be at most 320 characters'],
  ]);
  expect(await contact(`formula.${stamp}@hostile.example`)).toMatchObject({
    first_name: '=HYPERLINK("http://evil.example","x")',
    last_name: '+SUM(A1)',
  });
  expect(await contact(`quotes.${stamp}@hostile.example`)).toMatchObject({
    first_name: 'O"Brien, "Jr"',
    last_name: 'line1\nline2',
  });

  const failures: [string, string | Buffer, RegExp][] = [
    [
      '__proto__ header',
      'email,__proto__,constructor\na@x.example,1,2\n',
      /unknown columns "__proto__", "constructor"/,
    ],
    ['no email column', 'first_name\nA\n', /the header has no email column/],
    ['broken quoting', 'email,first_name\na@x.example,"unclosed\n', /the file is not valid CSV: Quote Not Closed/],
    [
      'a record over 1 MB',
      `email,first_name\na@x.example,"${'y'.repeat(1024 * 1024 + 10)}"\n`,
      /row 2 is longer than 1 MB/,
    ],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('email\na@'), Buffer.from([0xff, 0xfe]), Buffer.from('.example\n')]),
      /not valid UTF-8/,
    ],
    [
      'attribute columns the account has not defined',
      'email,plan\na@x.example,gold\n',
      /unknown column "plan".*\(none defined\)/,
    ],
  ];
  for (const [name, body, reason] of failures) {
    const failed = await finished(api, (await upload(api, body)).body.id);
    expect(failed.status, name).toBe('failed');
    expect(failed.failure_reason, name).toMatch(reason);
  }
  const hostileJson = [
    '{"email":"proto.' + stamp + '@hostile.example","attributes":{"__proto__":{"polluted":true}}}',
    '{"email":"nul2@hostile.example","last_name":"\\u0000"}',
    '{"email":"lone@hostile.example","first_name":"\\ud800"}',
  ].join('\n');
  const json = await finished(api, (await upload(api, hostileJson, 'application/x-ndjson')).body.id);
  expect(json.errors.map((error: any) => error.reason)).toEqual([
    'attribute `__proto__` is not defined for this account',
    'last_name: contains a NUL character',
    'first_name: contains an unpaired surrogate',
  ]);
  expect(({} as any).polluted).toBeUndefined();
});

/**
 * The owner's dashboard session, minted the way next-auth mints it with the server's own key (the
 * API suites run without a dashboard build): attribute definitions are managed there only (R4).
 */
async function defineAttributes(definitions: [string, string][]) {
  const headers = await dashboardSession(ownerId);
  for (const [key, type] of definitions) {
    const created = await api.with(null).request('POST', `/internal/accounts/${accountId}/contact-attributes`, {
      body: { key, type },
      headers,
      checkContract: false,
    });
    expect(created.status, created.text).toBe(201);
  }
}

test('attribute cells are converted per definition type ("42" -> 42, TRUE -> true, dates as given); JSON lines take canonical values', async () => {
  await defineAttributes([
    ['plan', 'string'],
    ['age', 'number'],
    ['vip', 'boolean'],
    ['since', 'date'],
  ]);
  const csv = [
    'email,plan,age,vip,since',
    `attr.${stamp}@attr.example,gold,42,TRUE,2024-01-05`,
    `bad.${stamp}@attr.example,,forty,yes,2024-1-5`,
    `partial.${stamp}@attr.example,,-1.5e2,,`,
  ].join('\n');
  const job = await finished(api, (await upload(api, csv)).body.id);
  expect(job.counts).toMatchObject({ created: 2, errors: 1 });
  expect(job.errors).toEqual([
    {
      row: 3,
      email: `bad.${stamp}@attr.example`,
      reason: expect.stringMatching(/^attribute `age` must be a number, e\.g\. 42; attribute `vip` must be a boolean/),
    },
  ]);
  expect((await contact(`attr.${stamp}@attr.example`)).attributes).toEqual({
    plan: 'gold',
    age: 42,
    vip: true,
    since: '2024-01-05',
  });
  expect((await contact(`partial.${stamp}@attr.example`)).attributes).toEqual({ age: -150 });
  const lines = [
    JSON.stringify({ email: `attr.${stamp}@attr.example`, attributes: { age: 43, vip: null } }),
    JSON.stringify({ email: `json.${stamp}@attr.example`, attributes: { age: '43' } }),
  ].join('\n');
  const json = await finished(api, (await upload(api, lines, 'application/x-ndjson')).body.id);
  expect(json.counts).toMatchObject({ updated: 1, errors: 1 });
  // null is absent, as an empty cell: an import never clears a value.
  expect((await contact(`attr.${stamp}@attr.example`)).attributes).toEqual({
    plan: 'gold',
    age: 43,
    vip: true,
    since: '2024-01-05',
  });
});
