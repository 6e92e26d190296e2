import { operatorPrincipal } from '@/lib/auth/principal';
import { turnOffTwoFactorForUser } from '@/lib/core/two-factor/turn-off-two-factor-for-user';
import { createAccount } from '@/lib/core/accounts/create-account';
import { listEvents } from '@/lib/core/events/list-events';
import { addMemberWithPassword } from '@/lib/core/members/add-member-with-password';
import { createV1Key } from '@/lib/core/v1-keys/create-v1-key';
import { createPasswordResetLink } from '@/lib/core/passwords/create-password-reset-link';
import { startOperatorSession } from '@/lib/core/user-sessions/start-operator-session';
import { getAccountById } from '@/lib/core/accounts/queries';
import { invalidInput } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { listAccounts } from '@/lib/core/accounts/list-accounts';
import { setAccountStatus } from '@/lib/core/accounts/set-account-status';
import { setAccountTier } from '@/lib/core/accounts/set-account-tier';
import type { Services } from '@/lib/core/context';
import { unsafeReadDatabaseFacts } from '@/lib/core/system/read-database-facts';
import type { Registry } from './registry';

/**
 * What an operator can do from the command line. The CLI runs these itself, or, when a running
 * server holds the embedded database, sends them to it over the data directory's control socket.
 */
export const OPERATOR_COMMANDS = {
  'accounts.create': (services: Services, args: Record<string, unknown>) => createAccount(system(services), args),
  'accounts.list': (services: Services) => listAccounts(system(services), {}),
  'accounts.set-tier': (services: Services, args: Record<string, unknown>) => setAccountTier(system(services), args),
  'accounts.suspend': (services: Services, args: Record<string, unknown>) =>
    setAccountStatus(system(services), { ...args, status: 'suspended' }),
  'accounts.unsuspend': (services: Services, args: Record<string, unknown>) =>
    setAccountStatus(system(services), { ...args, status: 'active' }),
  'accounts.add-member': (services: Services, args: Record<string, unknown>) =>
    addMemberWithPassword(system(services), args),
  'accounts.v1-key': async (services: Services, args: Record<string, unknown>) => {
    const accountId = String(args.account_id ?? '');
    if (!isUuid(accountId)) throw invalidInput('invalid account_id');
    await getAccountById(services.db, accountId);
    return createV1Key({ ...services, principal: operatorPrincipal(accountId) }, { label: args.label });
  },
  'users.reset-password': (services: Services, args: Record<string, unknown>) =>
    createPasswordResetLink(system(services), args),
  'users.disable-two-factor': (services: Services, args: Record<string, unknown>) =>
    turnOffTwoFactorForUser(system(services), args),
  // No CLI command: for test suites, which mint the session cookie with the master key as next-auth does.
  'users.start-session': (services: Services, args: Record<string, unknown>) => startOperatorSession(services, args),
  'events.list': (services: Services, args: Record<string, unknown>) => listEvents(system(services), args),
  // Read-only: `mailstead doctor` compares these with its own clock, key and migrations.
  'doctor.database': (services: Services) => unsafeReadDatabaseFacts(services),
  // `mailstead backup` while the server holds the embedded database: the dump is taken here.
  'backup.create': async (registry: Registry, args: Record<string, unknown>) => {
    const { createBackup } = await import('./backup/create-backup');
    return createBackup(registry.database, registry.config, args);
  },
  // The server applied migrations when it started.
  migrate: async () => ({ migrated: true }),
} satisfies Record<string, (registry: Registry, args: Record<string, unknown>) => Promise<unknown>>;

export type OperatorCommand = keyof typeof OPERATOR_COMMANDS;

export function isOperatorCommand(name: string): name is OperatorCommand {
  return Object.hasOwn(OPERATOR_COMMANDS, name);
}

function system(services: Services) {
  return { ...services, principal: operatorPrincipal('') };
}
