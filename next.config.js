// The dashboard is served by Mailstead's own HTTPS server (lib/server), never by `next start`.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Database drivers and native-ish packages stay outside the bundle; the server process owns them.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'ioredis'],
  typescript: { ignoreBuildErrors: false },
};
export default nextConfig;
