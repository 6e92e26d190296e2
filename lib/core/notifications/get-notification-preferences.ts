import { eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import type { DbOrTx } from '@/lib/db/client';
import { notificationPreferences } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
import { NOTIFICATION_KIND_IDS, NOTIFICATION_KINDS } from './kinds';
import type { NotificationPreferenceView } from './schemas';

/** The signed-in person's own choices, one per kind (on unless they turned it off). Sessions only. */
export const getNotificationPreferences = defineVerb({
  scope: 'any',
  input: z.object({}),
  async run({ db, principal }) {
    return presentPreferences(db, sessionUserId(principal));
  },
});

/** Preferences belong to a person, never to a key: only a dashboard session names one. */
export function sessionUserId(principal: Principal): string {
  if (principal.kind !== 'session' || !principal.userId)
    throw new AppError('unauthenticated', 'a dashboard session is required');
  return principal.userId;
}

export async function presentPreferences(db: DbOrTx, userId: string) {
  const rows = await db
    .select({ kind: notificationPreferences.kind, isEnabled: notificationPreferences.isEnabled })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  const chosen = new Map(rows.map((row) => [row.kind, row.isEnabled]));
  const data: NotificationPreferenceView[] = NOTIFICATION_KIND_IDS.map((kind) => ({
    kind,
    label: NOTIFICATION_KINDS[kind].label,
    description: NOTIFICATION_KINDS[kind].description,
    is_enabled: chosen.get(kind) ?? true,
  }));
  return { object: 'notification_preferences' as const, data };
}
