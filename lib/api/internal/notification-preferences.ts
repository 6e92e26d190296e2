import { getNotificationPreferences } from '@/lib/core/notifications/get-notification-preferences';
import { updateNotificationPreferencesSchema } from '@/lib/core/notifications/schemas';
import { updateNotificationPreferences } from '@/lib/core/notifications/update-notification-preferences';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/** The signed-in person's email notifications (their profile); no id in the path: only one's own. */
export const notificationPreferenceInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/me/notification-preferences',
    verb: getNotificationPreferences,
    status: 200,
    summary: 'Which notification emails the signed-in person gets',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'put',
    path: '/internal/me/notification-preferences',
    verb: updateNotificationPreferences,
    status: 200,
    summary: 'Turn notification emails of the signed-in person on or off, per kind',
    tags: ['Internal'],
    body: updateNotificationPreferencesSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
];
