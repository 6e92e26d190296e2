/**
 * Writes about a person rather than one account: each records its event once in every account the
 * person belongs to (lib/core/audit/record-person-event.ts), so they do not fit the one-event rows of
 * the table. Where each event is asserted is named beside it; the public reset request changes
 * nothing an account owns.
 */
export const PERSON_WRITES: Record<string, string> = {
  'DELETE /internal/me/sessions/{session_id}':
    'user.session_end in each account of the person (tests/lib/core/user-sessions)',
  'POST /internal/me/sessions/end-others':
    'user.session_end in each account of the person (tests/lib/core/user-sessions)',
  'POST /internal/me/password': 'user.password_change in each account of the person (tests/lib/core/passwords)',
  'POST /internal/accounts/{account_id}/members/{user_id}/end-sessions':
    'member.sessions_end by the administrator (tests/lib/core/user-sessions)',
  'POST /internal/password-resets': 'a reset request: mails a link when the address is a user, changes nothing else',
  'POST /internal/password-resets/inspect': 'reads a reset link: changes nothing',
  'POST /internal/password-resets/complete':
    'user.password_reset in each account of the person, who is the actor (tests/lib/core/passwords)',
  'POST /internal/me/two-factor/setup': 'a secret waiting for its first code: nothing is on until enable',
  'POST /internal/me/two-factor/enable':
    'user.two_factor_enable in each account of the person (tests/lib/core/two-factor)',
  'POST /internal/me/two-factor/disable':
    'user.two_factor_disable in each account of the person (tests/lib/core/two-factor)',
  'POST /internal/me/two-factor/recovery-codes':
    'user.recovery_codes_regenerate in each account of the person (tests/lib/core/two-factor)',
  'PUT /internal/accounts/{account_id}/two-factor-requirement':
    "account.update with changes ['require_two_factor'] (tests/lib/core/two-factor)",
  'PUT /internal/me/notification-preferences': "a person's own mail settings: no account's change",
};
