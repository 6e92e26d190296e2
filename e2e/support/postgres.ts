import pg from 'pg';

/**
 * A throw-away database on the test PostgreSQL server, so that runs never see each other's data. A
 * copy of the run's migrated, empty template (global-setup.ts; no master key recorded yet), unless
 * `empty`: a first start's migrations, or a restore's target, which must hold no database.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix = 'mailstead_e2e',
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const template = options.empty ? undefined : process.env.MAILSTEAD_TEST_POSTGRES_TEMPLATE;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

export const postgresAdminUrl = () => process.env.MAILSTEAD_TEST_POSTGRES_URL ?? null;
