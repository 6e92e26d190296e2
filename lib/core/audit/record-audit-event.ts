import type { Principal } from '@/lib/auth/principal';
import type { DbOrTx } from '@/lib/db/client';
import { auditEvents } from '@/lib/db/schema';

export type AuditActorType = 'api_key' | 'user' | 'smtp_credential' | 'operator' | 'system';
export type AuditActor = { type: AuditActorType; id: string | null; label: string | null };

export type AuditEventInput = {
  /** `<resource>.<verb>`, e.g. `api_key.create`: the list is in docs/security.md#audit-log. */
  action: string;
  resource: { type: string; id: string | null };
  /** Names of the fields that changed; never their values. */
  changes?: readonly string[];
  /** The account the change belongs to; by default the principal's target account. */
  accountId?: string;
  /** Who did it, when not the principal (a sign-in before any session exists, say). */
  actor?: AuditActor;
};

/** What the audit log needs of a verb's context: who is calling, and which request this is. */
export type AuditSource = { principal: Principal; requestId?: string };

/** How the audit log names a principal: the key, the person, the credential, the operator or a job. */
export function actorOf(principal: Principal): AuditActor {
  switch (principal.kind) {
    case 'api_key':
    case 'v1_key':
      return { type: 'api_key', id: principal.apiKeyId ?? null, label: principal.label ?? null };
    case 'session':
      return { type: 'user', id: principal.userId ?? null, label: principal.label ?? null };
    case 'smtp_credential':
      return { type: 'smtp_credential', id: principal.credentialId ?? null, label: principal.label ?? null };
    case 'system':
      return { type: principal.isOperator ? 'operator' : 'system', id: null, label: null };
    case 'anonymous':
      return { type: 'system', id: null, label: null };
  }
}

/**
 * Records one change, with the writes it describes: call it with the same transaction (`tx`) so that
 * the change and its event commit or roll back together. One insert, no reads: the cost a change pays.
 */
export async function recordAuditEvent(tx: DbOrTx, source: AuditSource, event: AuditEventInput): Promise<void> {
  const actor = event.actor ?? actorOf(source.principal);
  await tx.insert(auditEvents).values({
    accountId: event.accountId ?? source.principal.targetAccountId,
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label,
    action: event.action,
    resourceType: event.resource.type,
    resourceId: event.resource.id,
    ip: source.principal.clientIp,
    requestId: source.requestId ?? null,
    changes: [...(event.changes ?? [])],
  });
}
