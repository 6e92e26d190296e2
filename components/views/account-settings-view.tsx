'use client';

import { AccountSettingsForm } from '@/components/forms/account-settings-form';
import { TwoFactorRequirementForm } from '@/components/forms/two-factor-requirement-form';
import { V1KeySection } from '@/components/forms/v1-key-section';
import { mayOpen } from '@/components/layout/sections';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { useAccount, useCurrentUser } from '@/lib/client/queries';
import { PausePolicyPanel } from './pause-policy-panel';

export function AccountSettingsView({ accountId }: { accountId: string }) {
  const account = useAccount(accountId);
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((candidate) => candidate.id === accountId)?.scopes ?? [];
  return (
    <>
      <PageHeader
        title="Settings"
        description="How this account sends by default, which recipients it refuses, and how long Mailstead keeps message data."
      />
      {account.isPending ? <LoadingState /> : null}
      {account.error ? (
        <Alert tone="error" title="Settings could not be loaded">
          {account.error.message}
        </Alert>
      ) : null}
      {account.data ? <AccountSettingsForm account={account.data} canEdit={mayOpen(scopes, 'accounts:write')} /> : null}
      {mayOpen(scopes, 'accounts:write') ? (
        <div className="mt-8">
          <TwoFactorRequirementForm accountId={accountId} />
        </div>
      ) : null}
      {mayOpen(scopes, 'statistics-transactional:read:all') ? (
        <div className="mt-8">
          <PausePolicyPanel accountId={accountId} />
        </div>
      ) : null}
      {mayOpen(scopes, 'api-keys:read') ? (
        <div className="mt-8">
          <V1KeySection accountId={accountId} canEdit={mayOpen(scopes, 'api-keys:write')} />
        </div>
      ) : null}
    </>
  );
}
