import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import type { ApiClient } from '../support/client';
import { newAccount, sharedServer } from '../support/shared';

let api: ApiClient;
let accountId: string;
let counter = 0;
const fresh = (label = 'd') => `${label}-${Date.now().toString(36)}-${counter++}.example.com`;

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('Domains'));
});

const create = (body: unknown, client = api, headers?: Record<string, string>) =>
  client.post(client.account('/domains'), body, { headers });

test('POST /domains - 201 with every field of the Domain, its DNS records and two DKIM keys', async () => {
  const name = fresh();
  const created = await create({ domain: name });
  expect(created.status).toBe(201);
  const domain = created.body;
  expect(domain).toMatchObject({
    object: 'domain',
    account_id: accountId,
    domain: name,
    last_dns_check_at: null,
    dns_valid: false,
    tracking_subdomain: null,
    return_path_subdomain: null,
    subscription_subdomain: null,
    media_subdomain: null,
    dkim_rotation_interval_days: null,
    dkim_selector: null,
    rotation_ready: false,
    dsn_recipient: null,
    sending_type: 'transactional',
    paused: false,
    paused_at: null,
    pause_reason: null,
    status: 'pending',
  });
  const byLabel = Object.fromEntries(domain.dns_records.map((record: { label: string }) => [record.label, record]));
  expect(byLabel.SPF).toMatchObject({
    type: 'TXT',
    host: name,
    content: 'v=spf1 a:mx.mailstead.test ~all',
    required: true,
    propagated: false,
  });
  expect(byLabel.DKIM.host).toMatch(new RegExp(`^ms[a-z0-9]{10}\\._domainkey\\.${name.replace(/\./g, '\\.')}$`));
  expect(byLabel.DKIM.content).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{390,}$/);
  expect(byLabel.DKIM.required).toBe(true);
  expect(byLabel.DMARC).toMatchObject({ host: `_dmarc.${name}`, required: true });
  expect(byLabel['Return path']).toMatchObject({
    type: 'CNAME',
    host: `rp.${name}`,
    content: 'mx.mailstead.test',
    required: false,
  });
  expect(byLabel['Click and open tracking']).toMatchObject({ type: 'CNAME', host: `t.${name}`, required: false });
  expect(byLabel['DKIM standby (for rotation)'].host).not.toBe(byLabel.DKIM.host);
  expect(byLabel['Inbound mail (MX)']).toMatchObject({
    type: 'MX',
    host: name,
    content: 'mx.mailstead.test',
    priority: 10,
    required: false,
  });
  for (const record of domain.dns_records) expect(record.host.endsWith('.')).toBe(false);

  const fetched = await api.get(api.account(`/domains/${name}`));
  expect(fetched.body).toEqual(domain);
});

test('POST /domains - names are normalised: case, trailing dot, internationalised names as A-labels', async () => {
  const base = fresh();
  const created = await create({ domain: `  ${base.toUpperCase()}. ` });
  expect(created.body.domain).toBe(base);
  const idn = await create({ domain: `bücher-${counter++}.example` });
  expect(idn.status).toBe(201);
  expect(idn.body.domain).toMatch(/^xn--bcher-.*\.example$/);
  // The path takes any of those forms too.
  expect((await api.get(api.account(`/domains/${base.toUpperCase()}.`))).status).toBe(200);
  expect((await api.get(api.account(`/domains/${encodeURIComponent(`bücher-${counter - 1}.example`)}`))).body.id).toBe(
    idn.body.id,
  );
});

const invalid: [string, unknown, number, RegExp][] = [
  ['a missing domain', {}, 400, /domain/],
  ['a single label', { domain: 'localhost' }, 400, /fully qualified/],
  ['an IPv4 literal', { domain: '192.0.2.1' }, 400, /IP address/],
  ['an IPv6 literal', { domain: '[2001:db8::1]' }, 400, /IP address/],
  ['a label over 63 characters', { domain: `${'a'.repeat(64)}.example.com` }, 400, /63/],
  ['a name over 253 characters', { domain: `${'abcdefghi.'.repeat(25)}example.com` }, 400, /253/],
  ['bad characters', { domain: 'exa_mple.com' }, 400, /invalid label/],
  ['a number', { domain: 42 }, 400, /domain/],
  ['sending_type null', { domain: 'x.example.com', sending_type: null }, 400, /sending_type/],
  ['sending_type empty', { domain: 'x.example.com', sending_type: '' }, 400, /sending_type/],
  ['sending_type unknown', { domain: 'x.example.com', sending_type: 'bulk' }, 400, /sending_type/],
  ['a subdomain with a dot', { domain: 'x.example.com', tracking_subdomain: 'a.b' }, 400, /tracking_subdomain/],
  [
    'a subdomain with a leading hyphen',
    { domain: 'x.example.com', return_path_subdomain: '-rp' },
    400,
    /return_path_subdomain/,
  ],
  [
    'dkim_rotation_interval_days',
    { domain: 'x.example.com', dkim_rotation_interval_days: 90 },
    400,
    /dkim_rotation_interval_days.*managed DNS/,
  ],
  [
    'a dkim_selector on a standard account',
    { domain: 'x.example.com', dkim_selector: 'mysel' },
    403,
    /dkim_selector.*partner/,
  ],
  [
    'a dkim_private_key on a standard account',
    { domain: 'x.example.com', dkim_private_key: 'x' },
    403,
    /dkim_private_key.*partner/,
  ],
];

for (const [name, body, status, message] of invalid) {
  test(`POST /domains - ${name} is ${status}`, async () => {
    const response = await create(body);
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
  });
}

test('POST /domains - a duplicate is 409; Idempotency-Key replays the 201 and stores the 409', async () => {
  const name = fresh();
  const key = `domain-${name}`;
  const first = await create({ domain: name }, api, { 'Idempotency-Key': key });
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const replay = await create({ domain: name }, api, { 'Idempotency-Key': key });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.id).toBe(first.body.id);
  const duplicate = await create({ domain: name.toUpperCase() }, api, { 'Idempotency-Key': `${key}-2` });
  expect(duplicate.status).toBe(409);
  expect(duplicate.body).toEqual({ message: 'domain already exists' });
  expect(duplicate.headers.get('idempotent-replayed')).toBeNull();
  const duplicateReplay = await create({ domain: name.toUpperCase() }, api, { 'Idempotency-Key': `${key}-2` });
  expect(duplicateReplay.status).toBe(409);
  expect(duplicateReplay.headers.get('idempotent-replayed')).toBe('true');
});

test('partner accounts bring their own DKIM key and selector', async () => {
  const partner = await newAccount('Partner');
  expect((await runCli(['accounts', 'set-tier', partner.accountId, 'partner'], sharedServer().cliEnv)).code).toBe(0);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const created = await partner.api.post(partner.api.account('/domains'), {
    domain: fresh('partner'),
    dkim_private_key: pem,
    dkim_selector: '  Brand2026 ',
  });
  expect(created.status).toBe(201);
  expect(created.body.dkim_selector).toBe('brand2026');
  const dkim = created.body.dns_records.find((record: { label: string }) => record.label === 'DKIM');
  expect(dkim.host).toBe(`brand2026._domainkey.${created.body.domain}`);
  expect(dkim.content).toBe(
    `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  );

  const weak = generateKeyPairSync('rsa', { modulusLength: 512 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  for (const [body, message] of [
    [{ domain: fresh('partner'), dkim_private_key: weak }, /at least 1024 bits/],
    [{ domain: fresh('partner'), dkim_private_key: 'not a key' }, /not a PEM/],
    [
      {
        domain: fresh('partner'),
        dkim_private_key: generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
      },
      /RSA/,
    ],
    [{ domain: fresh('partner'), dkim_selector: 'bad_selector' }, /dkim_selector/],
    [{ domain: fresh('partner'), dkim_selector: 'x'.repeat(63) }, /dkim_selector/],
  ] as const) {
    const response = await partner.api.post(partner.api.account('/domains'), body);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  }
  // Empty or whitespace means the default selector.
  const blank = await partner.api.post(partner.api.account('/domains'), {
    domain: fresh('partner'),
    dkim_selector: '   ',
  });
  expect(blank.status).toBe(201);
  expect(blank.body.dkim_selector).toBeNull();
});

test('GET /domains - list, dns_valid filter, pagination', async () => {
  const { api: own } = await newAccount('Domains list');
  const names = [fresh('l'), fresh('l'), fresh('l')];
  for (const name of names) await own.post(own.account('/domains'), { domain: name });
  const page = await own.get(own.account('/domains?limit=2'));
  expect(page.body.data.map((d: { domain: string }) => d.domain)).toEqual([names[2], names[1]]);
  expect(page.body.pagination.has_more).toBe(true);
  const next = await own.get(own.account(`/domains?limit=2&cursor=${page.body.pagination.next_cursor}`));
  expect(next.body.data.map((d: { domain: string }) => d.domain)).toEqual([names[0]]);
  expect((await own.get(own.account('/domains?dns_valid=true'))).body.data).toEqual([]);
  expect((await own.get(own.account('/domains?dns_valid=false'))).body.data).toHaveLength(3);
  expect((await own.get(own.account('/domains?dns_valid='))).body.data).toHaveLength(3);
  const bad = await own.get(own.account('/domains?dns_valid=maybe'));
  expect(bad.status).toBe(400);
  expect(bad.body.message).toMatch(/dns_valid/);
});

test('PUT /domains/:domain - partial update; null restores a default; non-partners cannot pick selectors', async () => {
  const name = fresh('u');
  await create({ domain: name });
  const path = api.account(`/domains/${name}`);
  const updated = await api.put(path, {
    return_path_subdomain: 'Bounces',
    sending_type: 'marketing',
    dsn_recipient: 'DSN@Example.com',
  });
  expect(updated.status).toBe(200);
  expect(updated.body).toMatchObject({
    return_path_subdomain: 'bounces',
    tracking_subdomain: null,
    sending_type: 'marketing',
    dsn_recipient: 'dsn@example.com',
  });
  expect(updated.body.dns_records.find((r: { label: string }) => r.label === 'Return path').host).toBe(
    `bounces.${name}`,
  );
  const reset = await api.put(path, { return_path_subdomain: null });
  expect(reset.body.return_path_subdomain).toBeNull();
  expect((await api.put(path, { dkim_selector: 'mine' })).status).toBe(403);
  expect((await api.put(path, { dkim_rotation_interval_days: 30 })).status).toBe(400);
  expect((await api.put(path, { media_subdomain: 'two.labels' })).status).toBe(400);
  expect((await api.put(api.account('/domains/unknown.example.org'), { sending_type: 'marketing' })).status).toBe(404);
});

test('DELETE /domains/:domain - gone from the API, key scopes naming it removed, the name can be added again', async () => {
  const name = fresh('del');
  await create({ domain: name });
  const key = await api.post(api.account('/api-keys'), {
    label: 'scoped',
    scopes: [`messages:send:{${name.toUpperCase()}.}`, 'domains:read'],
  });
  expect(key.status).toBe(201);
  const scope = key.body.scopes.find((s: { scope: string }) => s.scope.startsWith('messages:send'));
  expect(scope.scope).toBe(`messages:send:{${name}}`);
  expect(scope.domain_id).toBeTruthy();

  const deleted = await api.delete(api.account(`/domains/${name}`));
  expect(deleted.status).toBe(200);
  expect(deleted.body.message).toContain(name);
  expect((await api.get(api.account(`/domains/${name}`))).status).toBe(404);
  expect((await api.delete(api.account(`/domains/${name}`))).status).toBe(404);
  const after = await api.get(api.account(`/api-keys/${key.body.id}`));
  expect(after.body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['domains:read']);
  const again = await create({ domain: name });
  expect(again.status).toBe(201);
  expect(again.body.id).not.toBe(scope.domain_id);
});

test('key scopes: a domain scope needs an owned domain; an :all scope drops the same domain scopes; IDN scopes are stored as A-labels', async () => {
  const name = fresh('scope');
  await create({ domain: name });
  const dropped = await api.post(api.account('/api-keys'), {
    label: 'all wins',
    scopes: ['messages:send:all', `messages:send:{${name}}`, `messages:read:{${name}}`],
  });
  expect(dropped.body.scopes.map((s: { scope: string }) => s.scope).sort()).toEqual([
    'messages:read:{' + name + '}',
    'messages:send:all',
  ]);
  const idnName = `bücher-scope-${counter++}.example`;
  const idn = await create({ domain: idnName });
  const scoped = await api.post(api.account('/api-keys'), { label: 'idn', scopes: [`messages:send:{${idnName}}`] });
  expect(scoped.body.scopes[0].scope).toBe(`messages:send:{${idn.body.domain}}`);
  const other = await newAccount('Scope other');
  const foreign = await other.api.post(other.api.account('/api-keys'), {
    label: 'x',
    scopes: [`messages:send:{${name}}`],
  });
  expect(foreign.status).toBe(400);
  expect(foreign.body.message).toMatch(/does not have/);
});

test('scopes: read, write and delete, including a key scoped to another domain', async () => {
  const mine = fresh('own');
  const theirs = fresh('other');
  await create({ domain: mine });
  await create({ domain: theirs });
  const make = async (scopes: string[]) =>
    api.with((await api.post(api.account('/api-keys'), { label: scopes.join(' '), scopes })).body.secret_key);
  const reader = await make(['domains:read']);
  const deleter = await make([`domains:delete:{${mine}}`]);
  const writer = await make(['domains:write']);
  expect((await reader.get(reader.account('/domains'))).status).toBe(200);
  expect((await reader.post(reader.account('/domains'), { domain: fresh() })).status).toBe(403);
  expect((await reader.delete(reader.account(`/domains/${mine}`))).status).toBe(403);
  expect((await writer.get(writer.account('/domains'))).status).toBe(403);
  expect((await writer.post(writer.account(`/domains/${mine}/check-dns`))).status).toBe(200);
  const wrongDomain = await deleter.delete(deleter.account(`/domains/${theirs}`));
  expect(wrongDomain.status).toBe(403);
  expect(wrongDomain.body.message).toContain(`domains:delete:{${theirs}}`);
  expect((await deleter.delete(deleter.account(`/domains/${mine}`))).status).toBe(200);
  const all = await make(['domains:delete:all']);
  expect((await all.delete(all.account(`/domains/${theirs}`))).status).toBe(200);
});

test("tenancy: another account's domain is 404 by name", async () => {
  const name = fresh('tenant');
  await create({ domain: name });
  const other = await newAccount('Domains tenant');
  for (const response of [
    await other.api.get(other.api.account(`/domains/${name}`)),
    await other.api.put(other.api.account(`/domains/${name}`), { sending_type: 'marketing' }),
    await other.api.delete(other.api.account(`/domains/${name}`)),
    await other.api.post(other.api.account(`/domains/${name}/check-dns`)),
  ]) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'domain not found' });
  }
  // And the same name can exist in both accounts.
  expect((await other.api.post(other.api.account('/domains'), { domain: name })).status).toBe(201);
});
