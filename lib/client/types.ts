import type { AccountObject } from '@/lib/core/accounts/present';
import type { ApiKeyObject } from '@/lib/core/api-keys/present';
import type { DomainObject } from '@/lib/core/domains/present';
import type { MessageDetails } from '@/lib/core/messages/get-message-details';
import type { MessageSummaryObject } from '@/lib/core/messages/present';
import type { AccountOverview } from '@/lib/core/overview/get-account-overview';

export type { AccountObject, AccountOverview, ApiKeyObject, DomainObject, MessageDetails };
export type DnsRecordObject = DomainObject['dns_records'][number];

export type MessageObject = MessageSummaryObject & {
  content?: string;
  content_parsed?: { parts: { content_type: string; content: string }[]; attachments: { filename: string; content_type: string; content_id: string }[]; headers: Record<string, string[]> };
};

export type ListEnvelope<T> = { object: 'list'; data: T[]; pagination: { has_more: boolean; next_cursor?: string; previous_cursor?: string } };

export type CurrentUser = {
  id: string;
  email: string;
  name: string | null;
  accounts: { id: string; name: string; status: string; role: string; is_owner: boolean; scopes: string[] }[];
};
