// The dashboard is served by Mailstead's own HTTPS server (lib/server), never by `next start`.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Database drivers and native-ish packages stay outside the bundle; the server process owns them.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'ioredis'],
  // `npm start` builds without the type check (half of a first start); `npm run typecheck` and CI do it.
  typescript: { ignoreBuildErrors: process.env.MAILSTEAD_BUILD_SKIP_TYPECHECK === '1' },
};
// No usage reports to Vercel from a self-hosted server's builds (`npm run build` included).
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
export default nextConfig;
