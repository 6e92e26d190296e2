import { z } from '@/lib/core/zod';
import { NOTIFICATION_KIND_IDS, type NotificationKind } from './kinds';

/** PUT /internal/me/notification-preferences: the kinds to change, each on or off; others stay. */
export const updateNotificationPreferencesSchema = z.strictObject({
  preferences: z
    .array(
      z.strictObject({
        kind: z.enum(NOTIFICATION_KIND_IDS as [NotificationKind, ...NotificationKind[]], {
          error: `must be one of ${NOTIFICATION_KIND_IDS.join(', ')}`,
        }),
        is_enabled: z.boolean({ error: 'must be true or false' }),
      }),
    )
    .min(1, 'name at least one kind')
    .max(NOTIFICATION_KIND_IDS.length, `at most ${NOTIFICATION_KIND_IDS.length} kinds`),
});

export type NotificationPreferenceView = {
  kind: NotificationKind;
  label: string;
  description: string;
  is_enabled: boolean;
};
