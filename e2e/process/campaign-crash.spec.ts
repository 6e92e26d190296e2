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
 * SIGKILL of the process starting a campaign, twice: while its 40,000-contact audience is being
 * frozen (in parts of 5,000, each committed with its cursor) and part-way through queueing it.
 * After each restart on the same data it goes on, and every recipient has exactly one message (a
 * part or a batch and its bookkeeping commit together, so a kill neither loses nor repeats one).
 */
const CONTACTS = 40_000;

async function queryDatabase<T>(
  databaseUrl: string | null,
  dataDir: string,
  statement: string,
  params: unknown[],
): Promise<T[]> {
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

test("SIGKILL while a campaign's audience is frozen, and again while it is queued: after restarts every recipient has exactly one message", async () => {
  test.setTimeout(600_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    // Small batches, so that the kill lands between commits rather than after the last one.
    const env: Record<string, string> = {
      LOG_LEVEL: 'warn',
      DNS_CHECK_CACHE_SECONDS: '0',
      CAMPAIGN_BATCH_SIZE: '1000',
    };
    const adminUrl = postgresAdminUrl();
    let databaseUrl: string | null = null;
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_campaigncrash');
      cleanups.push(scratch.drop);
      databaseUrl = scratch.url;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'Campaign crash');
    let api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const sender = `crash-${Date.now().toString(36)}.example.com`;
    await verifiedDomain(api, sender);
    expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
    const list = (await api.post(api.account('/lists'), { name: 'Crash' })).body;
    const csv = [
      'email,first_name',
      ...Array.from({ length: CONTACTS }, (_, index) => `reader${index}@campaign-crash.invalid,R${index}`),
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
        name: 'Crash',
        from: { email: `news@${sender}` },
        subject: 'Hi {{ first_name }}',
        text_content: 'Hello',
        list_ids: [list.id],
      })
    ).body;
    expect((await api.post(api.account(`/campaigns/${campaign.id}/send`))).status).toBe(200);
    // First kill: once validated, while the audience is being frozen (the campaign still `scheduled`).
    await expect
      .poll(async () => (await api.get(api.account(`/campaigns/${campaign.id}`))).body.status, {
        timeout: 60_000,
        intervals: [10],
      })
      .toBe('scheduled');
    // A moment in: the first parts (5,000 contacts each, ~50-200 ms) have committed, not all eight.
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.process.kill('SIGKILL');
    await server.exited;
    const [frozen] = await queryDatabase<{ through: string | null; n: string | number }>(
      databaseUrl,
      server.dataDir,
      'select c.snapshot_through as through, (select count(*) from campaign_recipients r where r.campaign_id = c.id) as n from campaigns c where c.id = $1',
      [campaign.id],
    );
    console.log(`killed while freezing the audience: ${frozen.n} frozen, cursor ${frozen.through ?? '(none yet)'}`);
    server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);

    // Second kill: part-way through queueing.
    let seen: any = null;
    await expect
      .poll(
        async () => {
          seen = (await api.get(api.account(`/campaigns/${campaign.id}`))).body;
          return seen.status === 'sending' && seen.counts.queued > 0;
        },
        { timeout: 60_000, intervals: [20] },
      )
      .toBe(true);
    server.process.kill('SIGKILL');
    await server.exited;
    console.log(`killed with ${seen.counts.queued}/${seen.counts.recipients} queued`);
    expect(seen.counts.queued).toBeLessThan(CONTACTS);

    server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    // Queued in full after the restart (it becomes `sent` once delivery to these .invalid addresses drains it).
    await expect
      .poll(async () => (await api.get(api.account(`/campaigns/${campaign.id}`))).body.queued_at, { timeout: 120_000 })
      .not.toBeNull();
    expect((await api.get(api.account(`/campaigns/${campaign.id}`))).body.counts).toMatchObject({
      recipients: CONTACTS,
      queued: CONTACTS,
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
    const [orphans] = await queryDatabase<{ n: string | number }>(
      databaseUrl,
      server.dataDir,
      'select count(*) as n from campaign_recipients r where r.campaign_id = $1 and not exists (select 1 from messages m where m.campaign_id = r.campaign_id and m.contact_id = r.contact_id)',
      [campaign.id],
    );
    expect(Number(orphans.n)).toBe(0);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
