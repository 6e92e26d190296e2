import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client';

export type AuditEvent = {
  object: 'audit_event';
  id: string;
  occurred_at: string;
  account_id: string;
  actor: { type: string; id: string | null; label: string | null };
  action: string;
  resource: { type: string; id: string | null };
  ip: string | null;
  request_id: string | null;
  changes: string[];
};

const cursorOf = (id: string) => Buffer.from(JSON.stringify({ id })).toString('base64url');

/** Every audit event the account (and, for a partner, its sub accounts) holds, newest first. */
export async function allAuditEvents(api: ApiClient, query = ''): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let after = '';
  for (;;) {
    const page = await api.get(api.account(`/audit-events?limit=100${query}${after}`));
    expect(page.status, page.text).toBe(200);
    events.push(...page.body.data);
    if (!page.body.pagination.has_more) return events;
    after = `&after=${page.body.pagination.next_cursor}`;
  }
}

/** The newest event's id now, so that what one request adds can be read afterwards. */
export async function newestAuditEventId(api: ApiClient): Promise<string | null> {
  const page = await api.get(api.account('/audit-events?limit=1'));
  expect(page.status, page.text).toBe(200);
  return page.body.data[0]?.id ?? null;
}

/** The events added since `mark` (newest first). */
export async function auditEventsSince(api: ApiClient, mark: string | null): Promise<AuditEvent[]> {
  if (mark === null) return allAuditEvents(api);
  const events: AuditEvent[] = [];
  let before = cursorOf(mark);
  for (;;) {
    const page = await api.get(api.account(`/audit-events?limit=100&before=${before}`));
    expect(page.status, page.text).toBe(200);
    events.unshift(...page.body.data);
    if (!page.body.pagination.previous_cursor) return events;
    before = page.body.pagination.previous_cursor;
  }
}

/** Runs `request` and returns its response with the audit events it added. */
export async function withAuditEvents(
  api: ApiClient,
  request: () => Promise<ApiResponse>,
): Promise<{ response: ApiResponse; events: AuditEvent[] }> {
  const mark = await newestAuditEventId(api);
  const response = await request();
  return { response, events: await auditEventsSince(api, mark) };
}

/** What the server sees of a test client on loopback. */
export const LOOPBACK_IP = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;
