import { sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { notificationPreferences } from '@/lib/db/schema';
import { presentPreferences, sessionUserId } from './get-notification-preferences';
import { updateNotificationPreferencesSchema } from './schemas';

/** Turns kinds on or off for the signed-in person only (their user id comes from the session). */
export const updateNotificationPreferences = defineVerb({
  scope: 'any',
  input: updateNotificationPreferencesSchema,
  async run({ db, principal, now }, input) {
    const userId = sessionUserId(principal);
    const at = now();
    const byKind = new Map(input.preferences.map((preference) => [preference.kind, preference.is_enabled]));
    await db
      .insert(notificationPreferences)
      .values([...byKind].map(([kind, isEnabled]) => ({ userId, kind, isEnabled, updatedAt: at })))
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.kind],
        set: { isEnabled: sql`excluded.is_enabled`, updatedAt: at },
      });
    return presentPreferences(db, userId);
  },
});
