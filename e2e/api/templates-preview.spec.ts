import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import type { ApiClient, ApiResponse } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { isPostgresRun } from '../support/server';
import { newAccount, sharedServer } from '../support/shared';
import { expectError } from '../support/template-fixtures';

/**
 * The template editor's preview route (/internal, dashboard sessions only): drafts rendered with
 * sample values by the render workers, hostile ones refused within the render limits, and only for
 * people of the account whose role may read templates.
 */
let api: ApiClient;
let accountId: string;
let session: Record<string, string>;
let otherSession: Record<string, string>;
let otherAccountId: string;
const stamp = Date.now().toString(36);
const PWNED = path.join(os.tmpdir(), `mailstead-preview-pwned-${stamp}`);

test.beforeAll(async () => {
  const owner = await newAccount('Template preview');
  ({ api, accountId } = owner);
  session = await dashboardSession(owner.ownerId);
  const other = await newAccount('Template preview (other account)');
  otherAccountId = other.accountId;
  otherSession = await dashboardSession(other.ownerId);
});

const previewPath = (account = accountId) => `/internal/accounts/${account}/templates/preview`;
const preview = (body: unknown, headers = session, account = accountId): Promise<ApiResponse> =>
  api.with(null).request('POST', previewPath(account), { body, headers, checkContract: false });

/** What the server was given and must never hand back: its master key, data directory, database URL. */
function expectNothingOfTheServer(text: string) {
  const { dataDir } = sharedServer();
  const secrets = isPostgresRun()
    ? [process.env.MAILSTEAD_TEST_SECRET!, process.env.MAILSTEAD_TEST_DATABASE_URL!, dataDir]
    : [readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim(), dataDir];
  for (const secret of secrets) expect(text).not.toContain(secret);
  for (const marker of ['native code', '=>', '[object', 'uid=', 'PATH=', 'NODE_ENV', '<class'])
    expect(text).not.toContain(marker);
}

test('POST /internal/accounts/:id/templates/preview - an API key is 401: the route takes dashboard sessions only', async () => {
  expect((await api.post(previewPath(), { text_content: 'x' }, { checkContract: false })).status).toBe(401);
});

test('POST /internal/accounts/:id/templates/preview - renders each part with the substitutions, values escaped in HTML', async () => {
  const response = await preview({
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hello {{ first_name }}, plan {{ plan }}{% for item in items %} [{{ item }}]{% endfor %}</p>',
    text_content: 'Hello {{ first_name }} {{ missing }}',
    substitutions: { first_name: 'Ada', plan: '<gold>', items: ['a', 'b'] },
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body).toEqual({
    object: 'template_preview',
    subject: 'Hi Ada',
    html_content: '<p>Hello Ada, plan &lt;gold&gt; [a] [b]</p>',
    text_content: 'Hello Ada ',
  });
});

const syntaxErrors: [string, Record<string, unknown>, string, RegExp][] = [
  [
    'an unclosed expression in html_content',
    { html_content: '<p>\n{{ first_name </p>' },
    'html_content',
    /^html_content: template syntax error: .*line 2/,
  ],
  [
    'a bad expression in text_content',
    { text_content: 'one\ntwo\n{{ a b }}' },
    'text_content',
    /^text_content: template syntax error: .*line 3/,
  ],
  [
    'a stray endif in the subject',
    { subject: 'x {% endif %}' },
    'subject',
    /^subject: template syntax error: .*line 1/,
  ],
];

for (const [name, body, field, message] of syntaxErrors) {
  test(`POST /internal/accounts/:id/templates/preview - ${name} is 400 naming the field and the line`, async () => {
    const response = await preview(body);
    expectError(response, 400, message);
    expect(response.headers.get('mailstead-error-field')).toBe(field);
  });
}

const badBodies: [string, unknown, RegExp][] = [
  ['substitutions that are a list', { text_content: 'x', substitutions: [1] }, /^substitutions: /],
  ['a number for html_content', { html_content: 5 }, /^html_content: must be a string/],
  ['a subject over 2000 characters', { subject: 'x'.repeat(2001) }, /^subject: must be at most 2000 characters/],
];

for (const [name, body, message] of badBodies) {
  test(`POST /internal/accounts/:id/templates/preview - ${name} is 400`, async () => {
    expectError(await preview(body), 400, message);
  });
}

const EXEC = `return process.mainModule.require('child_process').execSync('touch ${PWNED}').toString()`;

/** Templates written to reach JavaScript or Python internals, to run forever or to exhaust memory: each is a 400 naming the field, quickly. */
const hostile: [string, Record<string, unknown>, RegExp][] = [
  [
    'running a command through a JavaScript constructor',
    { text_content: `{{ range.constructor("${EXEC}")() }}` },
    /^text_content: template error: /,
  ],
  [
    'reading the environment through a string constructor',
    { html_content: '<p>{{ "".constructor.constructor("return JSON.stringify(process.env)")() }}</p>' },
    /^html_content: template error: /,
  ],
  [
    'Python class traversal to subclasses',
    { subject: '{{ "".__class__.__mro__[1].__subclasses__() }}' },
    /^subject: template error: /,
  ],
  [
    'Python globals through a helper',
    { text_content: "{{ cycler.__init__.__globals__.os.popen('id').read() }}" },
    /^text_content: template error: /,
  ],
  [
    'a loop over a hundred million items',
    { text_content: '{% for i in range(100000000) %}xxxxxxxx{% endfor %}' },
    /^text_content: template error: range of 100000000 items \(limit 10000\)$/,
  ],
  [
    'nested loops past the iteration limit',
    { html_content: '{% for i in range(10000) %}{% for j in range(10000) %}x{% endfor %}{% endfor %}' },
    /^html_content: template error: /,
  ],
  [
    'endless recursion',
    { text_content: '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}' },
    /^text_content: template error: nested deeper than/,
  ],
  [
    'a string doubled until it is huge',
    {
      text_content:
        '{% set ns = namespace(s="x") %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}',
    },
    /^text_content: template error: a string of \d+ characters/,
  ],
  [
    'exponential macro calls',
    { text_content: '{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}' },
    /^text_content: template error: /,
  ],
  // Refused by the request body's own nesting limit before any render.
  [
    'substitutions nested 80 levels deep',
    { text_content: '{{ a }}', substitutions: JSON.parse(`${'{"a":'.repeat(80)}1${'}'.repeat(80)}`) },
    /^substitutions\.a\.a.*: nested deeper than 32 levels/,
  ],
];

for (const [name, body, message] of hostile) {
  test(`POST /internal/accounts/:id/templates/preview - ${name} is 400 within the render limits`, async () => {
    const started = Date.now();
    const response = await preview({ substitutions: { first_name: 'Ada' }, ...body });
    expectError(response, 400, message);
    expectNothingOfTheServer(response.text);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(PWNED)).toBe(false);
  });
}

test('POST /internal/accounts/:id/templates/preview - probes of objects, prototypes and globals render inert', async () => {
  const probes =
    '{{ x.constructor }}|{{ x.__proto__ }}|{{ x["constructor"] }}|{{ process }}|{{ require }}|{{ globalThis }}|{{ self }}|{{ config }}|{{ range.prototype }}';
  const response = await api.with(null).request('POST', previewPath(), {
    // Raw JSON: an own "__proto__" key, as JSON.parse makes one.
    rawBody: `{"text_content":${JSON.stringify(probes)},"substitutions":{"__proto__":{"polluted":1},"x":{}}}`,
    headers: { ...session, 'content-type': 'application/json' },
    checkContract: false,
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.text_content).toBe('||||||||');
  expectNothingOfTheServer(response.text);
});

test("POST /internal/accounts/:id/templates/preview - another account's session cannot use it", async () => {
  const response = await preview(
    { text_content: 'Hello {{ first_name }}', substitutions: { first_name: 'Ada' } },
    otherSession,
  );
  expectError(response, 401, /not a member of this account/);
  // Its own account works: the session is valid, the account is not its.
  expect((await preview({ text_content: 'ok' }, otherSession, otherAccountId)).status).toBe(200);
});

test('POST /internal/accounts/:id/templates/preview - an Analyst may preview; a Billing Manager (no templates:read) is 403', async () => {
  const member = async (role: string) => {
    const email = uniqueEmail(`preview-${role.split(' ')[0].toLowerCase()}`);
    const added = await runCli(
      ['accounts', 'add-member', accountId, '--email', email, '--password', OWNER_PASSWORD, '--role', role],
      sharedServer().cliEnv,
    );
    expect(added.code, added.stderr).toBe(0);
    return dashboardSession(/\(([0-9a-f-]{36})\)/.exec(added.stdout)![1]);
  };
  expect((await preview({ text_content: 'ok' }, await member('Analyst'))).body).toMatchObject({ text_content: 'ok' });
  expectError(await preview({ text_content: 'ok' }, await member('Billing Manager')), 403);
});

test('POST /internal/accounts/:id/templates/preview - a cookie without our Origin is refused', async () => {
  const { cookie } = session;
  expect((await preview({ text_content: 'ok' }, { cookie, origin: 'https://evil.example' })).status).toBe(403);
});

test('after all of it the server is up and its log shows no crash', async () => {
  expect((await api.get('/v2/ping')).status).toBe(200);
  const log = readFileSync(path.join(sharedServer().dataDir, 'server.log'), 'utf8');
  expect(log).not.toMatch(/heap out of memory|FATAL ERROR|uncaughtException|"level":60/);
  expect(existsSync(PWNED)).toBe(false);
});
