import type { Endpoint } from '../endpoint';
import { accountEndpoints } from './accounts';
import { apiKeyEndpoints } from './api-keys';
import { auditEventEndpoints } from './audit-events';
import { contactExportEndpoints } from './contact-exports';
import { contactImportEndpoints } from './contact-imports';
import { contactEndpoints } from './contacts';
import { deliverabilityEndpoints } from './deliverability';
import { domainEndpoints } from './domains';
import { listEndpoints } from './lists';
import { mediaEndpoints } from './media';
import { memberInvitationEndpoints } from './member-invitations';
import { memberEndpoints } from './members';
import { messageEndpoints } from './messages';
import { pingEndpoints } from './ping';
import { webhookEndpoints } from './webhooks';
import { routeEndpoints } from './routes';
import { smtpCredentialEndpoints } from './smtp-credentials';
import { statisticsEndpoints } from './statistics';
import { subAccountEndpoints } from './sub-accounts';
import { suppressionEndpoints } from './suppressions';
import { templateEndpoints } from './templates';
import { campaignEndpoints } from './campaigns';
import { signupFormEndpoints } from './signup-forms';
import { segmentEndpoints } from './segments';

/**
 * Every v2 operation. The URL map: one file per resource, named as its path segment. Contact imports
 * and exports come before contacts, so that `/contacts/import` or `/contacts/export` is never read as `/contacts/{id_or_email}`.
 */
const definitions = [
  ...pingEndpoints,
  ...accountEndpoints,
  ...memberEndpoints,
  ...memberInvitationEndpoints,
  ...apiKeyEndpoints,
  ...auditEventEndpoints,
  ...subAccountEndpoints,
  ...domainEndpoints,
  ...deliverabilityEndpoints,
  ...messageEndpoints,
  ...suppressionEndpoints,
  ...statisticsEndpoints,
  ...webhookEndpoints,
  ...routeEndpoints,
  ...smtpCredentialEndpoints,
  ...contactImportEndpoints,
  ...contactExportEndpoints,
  ...contactEndpoints,
  ...listEndpoints,
  ...segmentEndpoints,
  ...templateEndpoints,
  ...mediaEndpoints,
  ...campaignEndpoints,
  ...signupFormEndpoints,
];

export const v2Endpoints: Endpoint[] = definitions;

/**
 * Each endpoint with its literal method and path, its schemas and its verb's result type: what
 * lib/client derives request and response types from (a type-only import, erased from the bundle).
 */
export type V2Endpoint = (typeof definitions)[number];
