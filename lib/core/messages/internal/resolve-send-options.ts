import type { Principal } from '@/lib/auth/principal';
import type { accounts } from '@/lib/db/schema';
import type { Acceptance } from './accept-messages';
import type { ControlHeaders } from './message-headers';
import type { resolveSchedule } from './resolve-schedule';

type OptionFields = {
  sandbox?: boolean | null;
  sandbox_result?: string | null;
  tags?: string[] | null;
  tracking?: { open?: boolean | null; click?: boolean | null } | null;
  retention?: { metadata?: number | null; data?: number | null } | null;
};

/**
 * How a send behaves, decided in one place for every send path: a body field wins over an
 * `AhaSend-*` control header, which wins over the account's default; a sandboxed key always sandboxes.
 */
export function resolveSendOptions(
  input: OptionFields,
  context: {
    principal: Principal;
    control: ControlHeaders;
    account: typeof accounts.$inferSelect;
    schedule: ReturnType<typeof resolveSchedule>;
  },
): Acceptance['options'] {
  const { principal, control, account, schedule } = context;
  return {
    isSandbox: principal.isSandbox || (input.sandbox ?? control.isSandbox ?? false),
    sandboxResult: input.sandbox_result ?? control.sandboxResult ?? null,
    tags: [...new Set(input.tags ?? control.tags ?? [])],
    trackOpens: input.tracking?.open ?? control.trackOpens ?? account.trackOpens,
    trackClicks: input.tracking?.click ?? control.trackClicks ?? account.trackClicks,
    ...schedule,
    metadataRetentionDays: input.retention?.metadata ?? control.metadataRetention ?? account.messageMetadataRetention,
    dataRetentionDays: input.retention?.data ?? control.dataRetention ?? account.messageDataRetention,
  };
}
