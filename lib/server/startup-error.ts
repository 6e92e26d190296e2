/** A server that cannot start for a reason the operator can fix: one line, exit 1. */
export class StartupError extends Error {}
