import type { z } from 'zod';
import type { AccountObject } from '@/lib/core/accounts/internal/present';
import type { ContactObject } from '@/lib/core/contacts/internal/present';
import type { ApiKeyObject } from '@/lib/core/api-keys/internal/present';
import type { DeliverabilitySettings } from '@/lib/core/deliverability-settings/get-deliverability-settings';
import type { ProviderPacingView } from '@/lib/core/deliverability/schemas';
import type { DomainObject } from '@/lib/core/domains/internal/present';
import type { ListMembershipObject } from '@/lib/core/lists/internal/present';
import type { MessageDetails } from '@/lib/core/messages/get-message-details';
import type { presentRoute } from '@/lib/core/routes/internal/present';
import type { AccountOverview } from '@/lib/core/overview/get-account-overview';
import type {
  bounceStatisticsSchema,
  deliverabilityStatisticsSchema,
  deliveryTimeStatisticsSchema,
  providerStatisticsSchema,
} from '@/lib/core/statistics/schemas';
import type { providerChecklistSchema } from '@/lib/core/domains/schemas';
import type { SmtpCredentialObject } from '@/lib/core/smtp-credentials/internal/present';
import type { SuppressionObject } from '@/lib/core/suppressions/internal/present';
import type { getWebhookDelivery } from '@/lib/core/webhooks/get-webhook-delivery';
import type { presentDelivery, WebhookObject } from '@/lib/core/webhooks/internal/present';
import type { ResponseOf } from './endpoints';

export type { AccountObject, AccountOverview, ApiKeyObject, DeliverabilitySettings, DomainObject, MessageDetails };
export type DnsRecordObject = DomainObject['dns_records'][number];

/** A message as GET /v2/.../messages/{message_id} answers it: the summary, with its content while retained. */
export type MessageObject = ResponseOf<'GET /v2/accounts/{account_id}/messages/{message_id}'>;

export type { ListEnvelope } from './endpoints';

export type CurrentUser = {
  id: string;
  email: string;
  name: string | null;
  /** False for a person made by single sign-on until they set a password. */
  has_password: boolean;
  accounts: {
    id: string;
    name: string;
    status: string;
    role: string;
    is_owner: boolean;
    /** Only a `partner` has sub accounts. */
    tier: 'standard' | 'partner';
    scopes: string[];
    /** Set on a sub account: the partner it belongs to. */
    parent_account: { id: string; name: string } | null;
    /** `parent`: the person's role in the partner, which reaches its sub accounts. */
    via: 'member' | 'parent';
  }[];
};

/** `{object:'list', data}` without pagination: the statistics reports and the create-suppression answer. */
export type PlainList<T> = { object: 'list'; data: T[] };

export type DeliverabilityBucket = z.output<typeof deliverabilityStatisticsSchema>;
export type BounceBucket = z.output<typeof bounceStatisticsSchema>;
export type DeliveryTimeBucket = z.output<typeof deliveryTimeStatisticsSchema>;
export type ProviderStatistics = z.output<typeof providerStatisticsSchema>;
export type ProviderChecklist = z.output<typeof providerChecklistSchema>;

export type { WebhookObject };
export type WebhookDelivery = ReturnType<typeof presentDelivery>;
export type WebhookDeliveryDetail = Awaited<ReturnType<typeof getWebhookDelivery>>;
export type WebhookAttempt = WebhookDeliveryDetail['attempts_log'][number];

/** An inbound route; its deliveries are rows of the same outbox, so they read as webhook deliveries. */
export type RouteObject = ReturnType<typeof presentRoute>;

export type { SuppressionObject };
export type { SmtpCredentialObject };
export type SmtpSettings = {
  host: string;
  port: number | null;
  security: 'STARTTLS';
  tls_port: number | null;
  auth_methods: string[];
};

export type {
  AttributeDefinitionObject as AttributeDefinition,
  ContactObject,
} from '@/lib/core/contacts/internal/present';
export type { ContactListObject } from '@/lib/core/lists/internal/present';
export type { SubscriptionStatus } from '@/lib/core/lists/schemas';
export type { AttributeType } from '@/lib/core/contacts/attribute-values';
export type MembershipObject = ListMembershipObject & { contact?: ContactObject };

export type { ContactImportError, ContactImportObject } from '@/lib/core/contact-imports/schemas';

export type { TemplateObject, TemplateVersionObject } from '@/lib/core/templates/internal/present';
export type { TemplateKind } from '@/lib/core/templates/schemas';
export type { TemplatePreviewObject } from '@/lib/core/templates/preview-template';

export type ProviderPacing = ProviderPacingView;
