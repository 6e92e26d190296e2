import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/lib/server/config';

describe('loadConfig', () => {
  it('has working defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.roles).toEqual(['web', 'worker', 'smtp', 'mx']);
    expect(config.publicUrl.href).toBe('https://localhost:3000/');
    expect(config.mailHostname).toBe('localhost');
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('names the self-signed certificate for the commands the dashboard shows, unless clients see another one', () => {
    expect(loadConfig({ DATA_DIR: '/srv/mailstead' }).selfSignedCertFile).toBe('/srv/mailstead/tls/cert.pem');
    expect(
      loadConfig({ DATA_DIR: '/srv/mailstead', TLS_CERT: '/etc/cert.pem', TLS_KEY: '/etc/key.pem' }).selfSignedCertFile,
    ).toBeNull();
    expect(loadConfig({ DATA_DIR: '/srv/mailstead', TRUST_PROXY: '10.0.0.1' }).selfSignedCertFile).toBeNull();
  });

  it('parses lists', () => {
    const config = loadConfig({
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      DNS_SERVERS: '127.0.0.1:5353,[::1]:53,9.9.9.9',
      ROLES: 'web, worker',
    });
    expect(config.trustProxy.map((cidr) => cidr.text)).toEqual(['10.0.0.0/8', '127.0.0.1/32']);
    expect(config.dnsServers).toEqual([
      { host: '127.0.0.1', port: 5353 },
      { host: '::1', port: 53 },
      { host: '9.9.9.9', port: 53 },
    ]);
    expect(config.roles).toEqual(['web', 'worker']);
  });

  it('has both submission ports on by default; 0 turns either off', () => {
    expect([loadConfig({}).smtpSubmissionPort, loadConfig({}).smtpSubmissionTlsPort]).toEqual([2587, 2465]);
    const config = loadConfig({ SMTP_SUBMISSION_PORT: '587', SMTP_SUBMISSION_TLS_PORT: '0' });
    expect([config.smtpSubmissionPort, config.smtpSubmissionTlsPort]).toEqual([587, 0]);
    expect(() => loadConfig({ SMTP_SUBMISSION_TLS_PORT: '70000' })).toThrow(/SMTP_SUBMISSION_TLS_PORT/);
  });

  it('limits the MX per client address: 50 connections and 30 s of silence by default; other values must be whole and in range', () => {
    expect(loadConfig({}).mxLimits).toEqual({ connectionsPerClient: 50, greetingTimeoutMs: 30_000 });
    expect(loadConfig({ MX_MAX_CONNECTIONS_PER_CLIENT: '5', MX_GREETING_TIMEOUT_SECONDS: '2' }).mxLimits).toEqual({
      connectionsPerClient: 5,
      greetingTimeoutMs: 2000,
    });
    for (const env of [
      { MX_MAX_CONNECTIONS_PER_CLIENT: '0' },
      { MX_MAX_CONNECTIONS_PER_CLIENT: '2.5' },
      { MX_MAX_CONNECTIONS_PER_CLIENT: 'many' },
      { MX_GREETING_TIMEOUT_SECONDS: '0' },
      { MX_GREETING_TIMEOUT_SECONDS: '3601' },
    ]) {
      expect(() => loadConfig(env)).toThrow(new RegExp(`invalid ${Object.keys(env)[0]}=`));
    }
  });

  it('reads SPAMD_URL: unset is no spam scoring; a URL that is not spamd:// or tcp:// is refused naming it', () => {
    expect(loadConfig({}).spamd).toBeNull();
    expect(loadConfig({ SPAMD_URL: 'spamd://127.0.0.1:7830' }).spamd).toEqual({ host: '127.0.0.1', port: 7830 });
    expect(loadConfig({ SPAMD_URL: 'tcp://spamd.internal' }).spamd).toEqual({ host: 'spamd.internal', port: 783 });
    for (const value of ['http://127.0.0.1:783', '127.0.0.1:783', 'spamd://'])
      expect(() => loadConfig({ SPAMD_URL: value })).toThrow(
        `invalid SPAMD_URL="${value}": must be spamd://host:port or tcp://host:port`,
      );
  });

  it("reads the server's IP warm-up: off unless IP_WARMUP_STARTED_AT; a bad date or plan is refused naming what is wrong", () => {
    expect(loadConfig({}).ipWarmup).toBeNull();
    expect(loadConfig({ IP_WARMUP_PLAN: '[{"gmail":5}]' }).ipWarmup).toBeNull();
    expect(loadConfig({ IP_WARMUP_STARTED_AT: '2026-11-27' }).ipWarmup).toEqual({
      startedAt: new Date('2026-11-27T00:00:00Z'),
      plan: null,
    });
    expect(
      loadConfig({ IP_WARMUP_STARTED_AT: '2026-11-27T08:00:00Z', IP_WARMUP_PLAN: '[{"gmail":5,"apple":null}]' })
        .ipWarmup,
    ).toEqual({ startedAt: new Date('2026-11-27T08:00:00Z'), plan: [{ gmail: 5, apple: null }] });
    for (const value of ['yesterday', '27/11/2026', '2026-13-45', "2026-11-27'; drop table domains;--"])
      expect(() => loadConfig({ IP_WARMUP_STARTED_AT: value })).toThrow(
        /invalid IP_WARMUP_STARTED_AT=.*must be a date/,
      );
    for (const [value, message] of [
      ['{"gmail":5}', 'must be "default" or an array of days'],
      ['[{"gmail":-1}]', '0.gmail: must be 0 or more'],
      ['[{"hotmail":5}]', '0: '],
      ['[1,2', 'must be "default" or a JSON array of days'],
      [JSON.stringify(Array.from({ length: 61 }, () => ({ gmail: 1 }))), 'must list at most 60 days'],
    ])
      expect(() => loadConfig({ IP_WARMUP_STARTED_AT: '2026-11-27', IP_WARMUP_PLAN: value })).toThrow(message);
  });

  it('reads the HTTP timeouts', () => {
    expect(loadConfig({}).httpTimeouts).toEqual({ headersMs: 20_000, keepAliveMs: 65_000 });
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000' }).httpTimeouts).toEqual({
      headersMs: 1000,
      keepAliveMs: 5000,
    });
  });

  it('has the metrics listener off by default, on loopback when given a port', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 0, host: '127.0.0.1', token: null });
    expect(loadConfig({}).readyTimeoutMs).toBe(2000);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: null });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '::1' }).metrics.host).toBe('::1');
    const open = loadConfig({
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      METRICS_TOKEN: 'a-long-enough-token-0123',
      READY_TIMEOUT_MS: '500',
    });
    expect(open.metrics).toEqual({ port: 9464, host: '0.0.0.0', token: 'a-long-enough-token-0123' });
    expect(open.readyTimeoutMs).toBe(500);
    // Without a port nothing listens, so no token is needed whatever the host.
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).metrics.port).toBe(0);
  });

  it.each([
    [{ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, /METRICS_TOKEN.*loopback/],
    [{ METRICS_PORT: '9464', METRICS_HOST: '10.1.2.3' }, /METRICS_TOKEN/],
    [{ METRICS_PORT: '3000' }, /METRICS_PORT.*PORT/],
    [{ METRICS_PORT: '70000' }, /METRICS_PORT/],
    [{ METRICS_HOST: 'metrics.example' }, /METRICS_HOST/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN/],
    [{ METRICS_TOKEN: 'has spaces in it, sixteen+' }, /METRICS_TOKEN/],
    [{ READY_TIMEOUT_MS: '10' }, /READY_TIMEOUT_MS/],
  ])('refuses the metrics settings %o naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('reads single sign-on: off by default; issuer, client id and secret together, or a startup error naming what is missing', () => {
    expect(loadConfig({}).singleSignOn).toBeNull();
    const full = {
      OIDC_ISSUER: 'https://id.example.com/realms/acme',
      OIDC_CLIENT_ID: 'mailstead',
      OIDC_CLIENT_SECRET: 's3cret',
    };
    expect(loadConfig(full).singleSignOn).toEqual({
      issuer: 'https://id.example.com/realms/acme',
      clientId: 'mailstead',
      clientSecret: 's3cret',
      buttonLabel: 'Sign in with SSO',
    });
    expect(loadConfig({ ...full, OIDC_BUTTON_LABEL: 'Sign in with Acme ID' }).singleSignOn?.buttonLabel).toBe(
      'Sign in with Acme ID',
    );
    expect(() => loadConfig({ OIDC_ISSUER: full.OIDC_ISSUER, OIDC_CLIENT_ID: 'mailstead' })).toThrow(
      'missing OIDC_CLIENT_SECRET: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together',
    );
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'mailstead', OIDC_CLIENT_SECRET: 's3cret' })).toThrow(
      /^missing OIDC_ISSUER:/,
    );
    expect(() => loadConfig({ OIDC_ISSUER: full.OIDC_ISSUER })).toThrow(
      /^missing OIDC_CLIENT_ID and OIDC_CLIENT_SECRET:/,
    );
    // Plain http only to a provider on this machine.
    expect(() => loadConfig({ ...full, OIDC_ISSUER: 'http://id.example.com' })).toThrow(/invalid OIDC_ISSUER/);
    expect(loadConfig({ ...full, OIDC_ISSUER: 'http://127.0.0.1:8080' }).singleSignOn?.issuer).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it('runs one process per core on PostgreSQL and one on PGlite unless WORKERS says otherwise', () => {
    const postgres = { DATABASE_URL: 'postgres://db/mailstead', MAILSTEAD_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig(postgres).workers).toBe(availableParallelism());
    expect(loadConfig({ ...postgres, WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
  });

  it('refuses WORKERS above 1 on the embedded database, saying why', () => {
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      'invalid WORKERS="2": the embedded database (PGlite) allows one process; set DATABASE_URL to run several, or WORKERS=1',
    );
  });

  it("gives delivery a mail thread per core of each process's share (at least one), unless DELIVERY_THREADS says otherwise", () => {
    const postgres = { DATABASE_URL: 'postgres://db/mailstead', MAILSTEAD_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).delivery.threads).toBe(availableParallelism());
    expect(loadConfig(postgres).delivery.threads).toBe(1);
    expect(loadConfig({ ...postgres, WORKERS: String(availableParallelism() * 2) }).delivery.threads).toBe(1);
    expect(loadConfig({ DELIVERY_THREADS: '3' }).delivery.threads).toBe(3);
    expect(loadConfig({ ...postgres, DELIVERY_THREADS: '0' }).delivery.threads).toBe(0);
  });

  it("shares Postfix's 20 connections per destination among the host's processes, unless DELIVERY_CONNECTIONS says otherwise", () => {
    const postgres = { DATABASE_URL: 'postgres://db/mailstead', MAILSTEAD_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).delivery.connections).toBe(20);
    expect(loadConfig({ ...postgres, WORKERS: '2' }).delivery.connections).toBe(10);
    expect(loadConfig({ ...postgres, WORKERS: '3' }).delivery.connections).toBe(7);
    expect(loadConfig({ ...postgres, WORKERS: '64' }).delivery.connections).toBe(2);
    expect(loadConfig({ ...postgres, WORKERS: '2', DELIVERY_CONNECTIONS: '30' }).delivery.connections).toBe(30);
    expect(() => loadConfig({ DELIVERY_CONNECTIONS: '0' })).toThrow(/DELIVERY_CONNECTIONS/);
  });

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE', () => {
    expect(loadConfig({}).databasePoolSize).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '5' }).databasePoolSize).toBe(5);
  });

  it.each([
    [{ PORT: '70000' }, /PORT/],
    [{ WORKERS: '0' }, /WORKERS/],
    [{ WORKERS: 'many' }, /WORKERS/],
    [{ WORKERS: '1.5' }, /WORKERS/],
    [{ DATABASE_POOL_SIZE: '1' }, /DATABASE_POOL_SIZE/],
    [{ DELIVERY_THREADS: '-1' }, /DELIVERY_THREADS/],
    [{ DELIVERY_THREADS: 'all' }, /DELIVERY_THREADS/],
    [{ DELIVERY_THREADS: '65' }, /DELIVERY_THREADS/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '10' }, /HTTP_HEADERS_TIMEOUT_MS/],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' }, /HTTP_KEEP_ALIVE_TIMEOUT_MS/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL/],
    [{ DNS_SERVERS: 'a:b:c' }, /DNS_SERVERS/],
    [{ ALLOW_PRIVATE_NETWORKS: 'perhaps' }, /ALLOW_PRIVATE_NETWORKS/],
    [{ DATABASE_URL: 'postgres://x/y' }, /MAILSTEAD_SECRET/],
    [
      { ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_CA_FILE: '/nonexistent/ca.pem' },
      /WEBHOOK_CA_FILE=.*cannot be read \(ENOENT\)/,
    ],
    [{ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_CA_FILE: __filename }, /WEBHOOK_CA_FILE=.*must be a PEM certificate/],
  ])('refuses %o naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('reads WEBHOOK_CA_FILE once, and only with ALLOW_PRIVATE_NETWORKS (labs and tests)', async () => {
    const { cert } = (await generate([{ name: 'commonName', value: 'lab-ca' }], { keySize: 2048 })) as { cert: string };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ms-ca-')), 'ca.pem');
    writeFileSync(file, cert);
    expect(loadConfig({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_CA_FILE: file }).webhooks.caPem).toBe(cert);
    expect(loadConfig({}).webhooks.caPem).toBeNull();
    expect(() => loadConfig({ WEBHOOK_CA_FILE: file })).toThrow(
      'invalid WEBHOOK_CA_FILE: it is for labs and tests, and needs ALLOW_PRIVATE_NETWORKS=true',
    );
  });
});
