'use client';

import { useState } from 'react';
import {
  CreateSubAccountDialog,
  DeleteSubAccountDialog,
  SuspendSubAccountDialog,
  UnsuspendSubAccountDialog,
} from '@/components/dialogs/sub-account-dialogs';
import { mayOpen } from '@/components/layout/sections';
import { SubAccountTable } from '@/components/tables/sub-account-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { formatCount } from '@/lib/client/format';
import { useCurrentUser } from '@/lib/client/queries';
import {
  useSubAccounts,
  useSubAccountsUsage,
  type SubAccountObject,
  type SubAccountUsage,
} from '@/lib/client/sub-account-queries';

export function SubAccountsView({ accountId }: { accountId: string }) {
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const can = {
    write: mayOpen(scopes, 'sub-accounts:write'),
    suspend: mayOpen(scopes, 'sub-accounts:suspend'),
    remove: mayOpen(scopes, 'sub-accounts:delete'),
    usage: mayOpen(scopes, 'sub-accounts:usage'),
  };
  const subAccounts = useSubAccounts(accountId);
  const usage = useSubAccountsUsage(accountId, { enabled: Boolean(me.data) && can.usage && subAccounts.isSuccess });
  const [isCreating, setIsCreating] = useState(false);
  const [suspending, setSuspending] = useState<SubAccountObject | null>(null);
  const [unsuspending, setUnsuspending] = useState<SubAccountObject | null>(null);
  const [deleting, setDeleting] = useState<SubAccountObject | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const createButton =
    can.write && subAccounts.isSuccess ? <Button onClick={() => setIsCreating(true)}>Create sub account</Button> : null;
  const usageById = usage.data
    ? new Map(usage.data.sub_accounts.map((row) => [row.account_id ?? '', row.reception_count]))
    : null;
  return (
    <>
      <PageHeader
        title="Sub accounts"
        description="Accounts of your own customers: each has its own domains, keys and members, and sends within the monthly credit you give it."
        actions={createButton}
      />
      <div className="space-y-6">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        {subAccounts.isPending ? <LoadingState label="Loading sub accounts…" /> : null}
        {subAccounts.error ? (
          subAccounts.error instanceof ApiError && subAccounts.error.status === 403 ? (
            <Alert tone="warning" title="Sub accounts are not available here">
              {subAccounts.error.message}.
            </Alert>
          ) : (
            <Alert tone="error" title="Sub accounts could not be loaded">
              {subAccounts.error.message}
            </Alert>
          )
        ) : null}
        {subAccounts.data && subAccounts.data.length === 0 ? (
          <EmptyState title="No sub accounts yet" action={createButton}>
            Create one for each customer you send for; give it API keys from the API (
            <code>…/sub-accounts/&#123;id&#125;/api-keys</code>).
          </EmptyState>
        ) : null}
        {subAccounts.data && subAccounts.data.length > 0 ? (
          <SubAccountTable
            accountId={accountId}
            subAccounts={subAccounts.data}
            usage={usageById}
            canSuspend={can.suspend}
            canDelete={can.remove}
            onSuspend={setSuspending}
            onUnsuspend={setUnsuspending}
            onDelete={setDeleting}
          />
        ) : null}
        {usage.data ? <UsageSummary usage={usage.data} /> : null}
      </div>

      <CreateSubAccountDialog
        accountId={accountId}
        isOpen={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(sub) => {
          setIsCreating(false);
          setNotice({ tone: 'success', text: `Sub account ${sub.name} created.` });
        }}
      />
      <SuspendSubAccountDialog
        accountId={accountId}
        sub={suspending}
        onClose={() => setSuspending(null)}
        onSuspended={(sub) => setNotice({ tone: 'success', text: `${sub.name} is suspended.` })}
      />
      <UnsuspendSubAccountDialog
        accountId={accountId}
        sub={unsuspending}
        onClose={() => setUnsuspending(null)}
        onUnsuspended={(sub) => setNotice({ tone: 'success', text: `${sub.name} is active again.` })}
      />
      <DeleteSubAccountDialog
        accountId={accountId}
        sub={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(name) => setNotice({ tone: 'success', text: `${name} was deleted.` })}
      />
    </>
  );
}

// The period is a UTC month: shown in UTC, so that no browser's time zone moves it a day.
const formatUtcDay = (value: string | Date) =>
  new Date(value).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The current month's accepted messages: this account, its sub accounts, those deleted this month. */
function UsageSummary({ usage }: { usage: SubAccountUsage }) {
  const live = usage.sub_accounts.reduce((sum, row) => sum + row.reception_count, 0);
  const rows: [string, number][] = [
    ['This account', usage.parent.reception_count],
    ['Sub accounts', live],
    ['Removed sub accounts', usage.removed_sub_accounts.reception_count],
    ['Total', usage.total.reception_count],
  ];
  return (
    <section aria-labelledby="sub-account-usage" className="space-y-2">
      <h2 id="sub-account-usage" className="text-base font-semibold text-slate-900">
        Usage this month
      </h2>
      <p className="text-sm text-slate-600">
        Messages accepted from {formatUtcDay(usage.billing_period.start)} to{' '}
        {formatUtcDay(new Date(Date.parse(usage.billing_period.end) - 1))} (the calendar month in UTC).
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
            <dd
              className="mt-1 text-lg font-semibold text-slate-900"
              data-testid={`usage-${label.toLowerCase().replace(/ /g, '-')}`}
            >
              {formatCount(value)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
