import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hasShippedMigrations } from '@/lib/db/migrate';
import { openMemoryDatabase } from '../../support/memory-database';

describe('hasShippedMigrations', () => {
  it('is true with every migration applied, false when the database lacks the latest', async () => {
    const db = await openMemoryDatabase();
    expect(await hasShippedMigrations(db)).toBe(true);
    await db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    expect(await hasShippedMigrations(db)).toBe(false);
    await db.execute(sql`delete from drizzle.__drizzle_migrations`);
    expect(await hasShippedMigrations(db)).toBe(false);
  }, 120_000);
});
