'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationKind } from '@/lib/core/notifications/kinds';
import type { NotificationPreferenceView } from '@/lib/core/notifications/schemas';
import { apiRequest } from './api';
import { useQuery } from './use-query';

const PATH = '/internal/me/notification-preferences';
const KEY = ['notification-preferences'];

export type NotificationPreferences = { object: 'notification_preferences'; data: NotificationPreferenceView[] };

/** The signed-in person's own notification emails, whichever account is open. */
export function useNotificationPreferences() {
  return useQuery({ queryKey: KEY, queryFn: () => apiRequest<NotificationPreferences>(PATH) });
}

export function useSetNotificationPreference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (preference: { kind: NotificationKind; is_enabled: boolean }) =>
      apiRequest<NotificationPreferences>(PATH, { method: 'PUT', body: { preferences: [preference] } }),
    onSuccess: (answer) => client.setQueryData(KEY, answer),
  });
}
