import { describe, expect, test } from 'vitest';
import { postgresToolEnvironment, runPostgresTool } from '@/lib/server/backup/run-postgres-tool';

describe('postgresToolEnvironment', () => {
  test.each([
    [
      'postgres://mailstead:s%40cret%20pw@db.internal:6432/mail%20db',
      { PGHOST: 'db.internal', PGPORT: '6432', PGUSER: 'mailstead', PGPASSWORD: 's@cret pw', PGDATABASE: 'mail db' },
    ],
    [
      'postgres://u@[::1]/mail?sslmode=verify-full&sslrootcert=/etc/ca.pem',
      { PGHOST: '::1', PGUSER: 'u', PGDATABASE: 'mail', PGSSLMODE: 'verify-full', PGSSLROOTCERT: '/etc/ca.pem' },
    ],
    [
      'postgres://u@localhost/mail?ssl=true',
      { PGHOST: 'localhost', PGUSER: 'u', PGDATABASE: 'mail', PGSSLMODE: 'require' },
    ],
    ['postgresql:///mail?host=/var/run/postgresql', { PGHOST: '/var/run/postgresql', PGDATABASE: 'mail' }],
    // A name that would be conninfo or a URI if parsed: only ever a variable's value.
    [
      "postgres://u@h/mail%20host%3Devil.example%20dbname%3D'x'",
      { PGHOST: 'h', PGUSER: 'u', PGDATABASE: "mail host=evil.example dbname='x'" },
    ],
  ])('%s: the connection in libpq variables, the password only in PGPASSWORD', (url, expected) => {
    expect(postgresToolEnvironment(url)).toEqual(expected);
  });
});

test('a tool missing from PATH is refused naming it and the package that has it', async () => {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    await expect(runPostgresTool('pg_dump', ['--version'], 'postgres://u@localhost/mail')).rejects.toThrow(
      /pg_dump was not found on PATH: .*postgresql-client/,
    );
  } finally {
    process.env.PATH = path;
  }
});
