/** Whether PostgreSQL raised this SQLSTATE, as node-postgres and PGlite report it (possibly wrapped by drizzle). */
export function hasPostgresCode(error: unknown, code: '23503' | '23505'): boolean {
  for (
    let current: unknown = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    if ((current as { code?: unknown }).code === code) return true;
  }
  return false;
}
