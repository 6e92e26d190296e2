/** Types of bin/server-build.js (plain JavaScript: bin/mailstead.js loads it before any TypeScript loader). */
export function isServerBuildFresh(root?: string): boolean;
export function buildServer(root?: string): Promise<void>;
