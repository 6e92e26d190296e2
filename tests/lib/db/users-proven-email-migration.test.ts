import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '@/lib/db/client';

/**
 * 0016 (lib/core/users/internal/email-identity.ts): users that existed before keep what they had when their
 * address was proven or they own an account; an unproven one keeps only the account whose link made
 * it (its first membership), since any later one was joined with a password nobody proved.
 */
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')).entries as {
  tag: string;
}[];
const statementsOf = (tag: string) =>
  readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8').split('--> statement-breakpoint');
const TARGET = '0016_users_proven_email';

let client: PGlite;
beforeAll(async () => {
  client = new PGlite();
  for (const { tag } of journal.slice(
    0,
    journal.findIndex((entry) => entry.tag === TARGET),
  )) {
    for (const statement of statementsOf(tag)) await client.exec(statement);
  }
}, 60_000);
afterAll(async () => client.close());

const ids = {
  proven: '00000000-0000-4000-8000-000000000001',
  owner: '00000000-0000-4000-8000-000000000002',
  unproven: '00000000-0000-4000-8000-000000000003',
};
const accounts = { a: '00000000-0000-4000-8000-00000000000a', b: '00000000-0000-4000-8000-00000000000b' };

describe(TARGET, () => {
  it('keeps proven users and owners global, and limits an unproven user to the account whose link made it', async () => {
    await client.exec(`
      insert into users (id, email, password_hash, is_email_verified) values
        ('${ids.proven}', 'proven@example.org', 'x', true),
        ('${ids.owner}', 'owner@example.org', 'x', false),
        ('${ids.unproven}', 'unproven@example.org', 'x', false);
      insert into accounts (id, owner_id, name) values ('${accounts.a}', '${ids.owner}', 'A'), ('${accounts.b}', '${ids.proven}', 'B');
      insert into memberships (account_id, user_id, role, created_at) values
        ('${accounts.a}', '${ids.owner}', 'Administrator', now()),
        ('${accounts.b}', '${ids.proven}', 'Administrator', now()),
        ('${accounts.a}', '${ids.proven}', 'Analyst', now()),
        ('${accounts.a}', '${ids.unproven}', 'Analyst', now() - interval '1 day'),
        ('${accounts.b}', '${ids.unproven}', 'Administrator', now());
    `);
    for (const statement of statementsOf(TARGET)) await client.exec(statement);

    const users = await client.query<{ id: string; verified: boolean; limited: string | null }>(
      `select id, email_verified_at is not null as verified, limited_to_account_id as limited from users order by id`,
    );
    expect(users.rows).toEqual([
      { id: ids.proven, verified: true, limited: null },
      { id: ids.owner, verified: true, limited: null },
      { id: ids.unproven, verified: false, limited: accounts.a },
    ]);
    const memberships = await client.query<{ account_id: string; user_id: string }>(
      `select account_id, user_id from memberships order by user_id, account_id`,
    );
    expect(memberships.rows).toEqual([
      { account_id: accounts.a, user_id: ids.proven },
      { account_id: accounts.b, user_id: ids.proven },
      { account_id: accounts.a, user_id: ids.owner },
      { account_id: accounts.a, user_id: ids.unproven },
    ]);
    // The address may now have a proven user besides the unproven one.
    await client.exec(
      `insert into users (id, email, password_hash, email_verified_at) values ('00000000-0000-4000-8000-000000000004', 'unproven@example.org', 'y', now())`,
    );
    await expect(
      client.exec(
        `insert into users (id, email, password_hash, email_verified_at) values ('00000000-0000-4000-8000-000000000005', 'unproven@example.org', 'z', now())`,
      ),
    ).rejects.toThrow(/users_verified_email_idx/);
  });
});
