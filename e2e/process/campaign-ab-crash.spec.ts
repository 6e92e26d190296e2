import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { fetch } from 'undici';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { verifiedDomain } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * SIGKILL of the process sending an A/B campaign, once while its test part is queued and once
 * during the winner's fan-out: after each restart the campaign goes on from the phase and cursor it
 * committed, and in the end every recipient has exactly one message, of their drawn variant (test)
 * or of the winner (the rest).
 */
const CONTACTS = 12_000;

async function queryDatabase<T>(databaseUrl: string | null, dataDir: string, statement: string, params: unknown[]) {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query(statement, params);
    await client.end();
    return rows as T[];
  }
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  const { rows } = await db.query(statement, params);
  await db.close();
  return rows as T[];
}

test('SIGKILL during the test part and during the winner fan-out: each recipient gets exactly one message, none lost', async () => {
  test.setTimeout(600_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    // Small batches, so that each kill lands between commits rather than after the last one.
    const env: Record<string, string> = { LOG_LEVEL: 'warn', DNS_CHECK_CACHE_SECONDS: '0', CAMPAIGN_BATCH_SIZE: '200' };
    const adminUrl = postgresAdminUrl();
    let databaseUrl: string | null = null;
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_abcrash');
      cleanups.push(scratch.drop);
      databaseUrl = scratch.url;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'AB crash');
    let api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const sender = `abcrash-${Date.now().toString(36)}.example.com`;
    await verifiedDomain(api, sender);
    expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
    const list = (await api.post(api.account('/lists'), { name: 'AB crash' })).body;
    const csv = [
      'email,first_name',
      ...Array.from({ length: CONTACTS }, (_, index) => `reader${index}@ab-crash.invalid,R${index}`),
    ].join('\n');
    const uploaded = await fetch(`${server.baseUrl}${api.account(`/contacts/import?list_id=${list.id}`)}`, {
      method: 'POST',
      body: csv,
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'text/csv' },
      dispatcher: api.agent,
    });
    const importId = ((await uploaded.json()) as { id: string }).id;
    await expect
      .poll(async () => (await api.get(api.account(`/contacts/import/${importId}`))).body.status, { timeout: 120_000 })
      .toBe('completed');

    const campaign = (
      await api.post(api.account('/campaigns'), {
        name: 'AB crash',
        from: { email: `news@${sender}` },
        subject: 'Hi {{ first_name }}',
        text_content: 'Hello',
        list_ids: [list.id],
        variants: [{ subject: 'A {{ first_name }}' }, { subject: 'B' }, { subject: 'C' }],
        ab_test: { test_percent: 50, metric: 'opens', wait_minutes: 1440 },
      })
    ).body;
    const read = async () => (await api.get(api.account(`/campaigns/${campaign.id}`))).body;
    const restart = async () => {
      server.process.kill('SIGKILL');
      await server.exited;
      server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
      api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    };
    expect((await api.post(api.account(`/campaigns/${campaign.id}/send`))).status).toBe(200);
    let seen: any = null;
    await expect
      .poll(
        async () => {
          seen = await read();
          return seen.ab_phase === 'testing' && seen.counts.queued > 0;
        },
        { timeout: 60_000, intervals: [20] },
      )
      .toBe(true);
    await restart();
    console.log(`killed in testing with ${seen.counts.queued}/${CONTACTS / 2} of the test part queued`);
    expect(seen.counts.queued).toBeLessThan(CONTACTS / 2);

    await expect.poll(async () => (await read()).ab_phase, { timeout: 120_000 }).toBe('waiting');
    expect((await read()).counts.queued).toBe(CONTACTS / 2);
    expect((await api.post(api.account(`/campaigns/${campaign.id}/variants/c/choose`))).status).toBe(200);
    await expect
      .poll(
        async () => {
          seen = await read();
          return seen.counts.queued > CONTACTS / 2 || seen.queued_at !== null;
        },
        { timeout: 60_000, intervals: [20] },
      )
      .toBe(true);
    await restart();
    console.log(`killed in the fan-out with ${seen.counts.queued}/${CONTACTS} queued`);
    expect(seen.queued_at).toBeNull();

    await expect.poll(async () => (await read()).queued_at, { timeout: 120_000 }).not.toBeNull();
    expect(await read()).toMatchObject({
      ab_phase: 'winner_sent',
      winner_variant_id: 'c',
      counts: { recipients: CONTACTS, queued: CONTACTS },
    });
    expect(await server.stop()).toBe(0);
    const [messages] = await queryDatabase<{ total: string | number; contacts: string | number }>(
      databaseUrl,
      server.dataDir,
      'select count(*) as total, count(distinct contact_id) as contacts from messages where campaign_id = $1',
      [campaign.id],
    );
    expect({ total: Number(messages.total), contacts: Number(messages.contacts) }).toEqual({
      total: CONTACTS,
      contacts: CONTACTS,
    });
    // Each message carries the variant its recipient was drawn for; the rest, the winner's.
    const [mismatched] = await queryDatabase<{ n: string | number }>(
      databaseUrl,
      server.dataDir,
      `select count(*) as n from campaign_recipients r join messages m on m.campaign_id = r.campaign_id and m.contact_id = r.contact_id
       where r.campaign_id = $1 and m.campaign_variant_id is distinct from coalesce(r.variant_id, 'c')`,
      [campaign.id],
    );
    expect(Number(mismatched.n)).toBe(0);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
