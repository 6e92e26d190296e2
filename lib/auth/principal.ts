/** How the caller reached us. */
export type PrincipalKind = 'api_key' | 'session' | 'smtp_credential' | 'v1_key' | 'system' | 'anonymous';

export type MemberRole = 'Administrator' | 'Developer' | 'Analyst' | 'Billing Manager';

/**
 * Who is calling, built by each entry point (v2, v1, dashboard, SMTP, CLI, workers) and passed to
 * every core verb. Verbs never look at headers or sockets; they look at this.
 */
export type Principal = {
  kind: PrincipalKind;
  /** The account the credential belongs to. */
  accountId: string;
  /** The account the request acts on: the same, or a sub account managed by a parent. */
  targetAccountId: string;
  scopes: readonly string[];
  apiKeyId?: string;
  userId?: string;
  /** The dashboard session (its user_sessions row) a session principal came with. */
  sessionId?: string;
  role?: MemberRole;
  clientIp: string | null;
  isSandbox: boolean;
  /** The id of the SMTP credential, for the audit log. */
  credentialId?: string;
  /** How the audit log names the caller: the key's label, the person's email, the credential's username. */
  label?: string;
  /** A system principal acting for the operator (CLI), not for a scheduled job. */
  isOperator?: boolean;
};

/** The operator's own principal (CLI, migrations, scheduled jobs): every scope, on one account. */
export function systemPrincipal(accountId: string): Principal {
  return { kind: 'system', accountId, targetAccountId: accountId, scopes: ['*'], clientIp: null, isSandbox: false };
}

/** The system principal of an operator's command (CLI): the audit log names the operator, not a job. */
export function operatorPrincipal(accountId: string): Principal {
  return { ...systemPrincipal(accountId), isOperator: true };
}

/** A caller with no credential (first-run setup): holds no scope, so only `any` verbs accept it. */
export function anonymousPrincipal(clientIp: string | null): Principal {
  return { kind: 'anonymous', accountId: '', targetAccountId: '', scopes: [], clientIp, isSandbox: false };
}
