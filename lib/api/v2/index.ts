import type { Endpoint } from '../endpoint';
import { accountEndpoints } from './accounts';
import { apiKeyEndpoints } from './api-keys';
import { domainEndpoints } from './domains';
import { messageEndpoints } from './messages';
import { pingEndpoints } from './ping';
import { webhookEndpoints } from './webhooks';
import { statisticsEndpoints } from './statistics';
import { suppressionEndpoints } from './suppressions';

/** Every v2 operation. The URL map: one file per resource, named as its path segment. */
export const v2Endpoints: Endpoint[] = [...pingEndpoints, ...accountEndpoints, ...apiKeyEndpoints, ...domainEndpoints, ...messageEndpoints, ...suppressionEndpoints, ...statisticsEndpoints, ...webhookEndpoints];
