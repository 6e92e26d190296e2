import 'server-only';
import type { DashboardAuth } from '@/lib/server/dashboard-auth';

/** The server's auth functions, published on globalThis by lib/server/dashboard-auth.ts. */
export function dashboardAuth(): DashboardAuth {
  const auth = publishedDashboardAuth();
  if (!auth) throw new Error('the dashboard runs only inside the Mailstead server (npm start)');
  return auth;
}

/** The same, or null where the server did not publish them (`next build` evaluating modules). */
export function publishedDashboardAuth(): DashboardAuth | null {
  return ((globalThis as Record<symbol, unknown>)[Symbol.for('mailstead.dashboardAuth')] as DashboardAuth) ?? null;
}
