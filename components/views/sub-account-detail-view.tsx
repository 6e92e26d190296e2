'use client';

import Link from 'next/link';
import { useState } from 'react';
import { SubAccountUsageChart } from '@/components/charts/sub-account-usage-chart';
import { SuspendSubAccountDialog, UnsuspendSubAccountDialog } from '@/components/dialogs/sub-account-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { STATUS_LABELS, STATUS_TONES } from '@/components/tables/sub-account-table';
import { Button } from '@/components/ui/button';
import { Alert, Badge, LoadingState, PageHeader } from '@/components/ui/feedback';
import { StatCard } from '@/components/ui/stat-card';
import { ApiError } from '@/lib/client/api';
import { formatCount, formatDateTime } from '@/lib/client/format';
import { useCurrentUser } from '@/lib/client/queries';
import { useSubAccount, useSubAccountUsageHistory, type SubAccountObject } from '@/lib/client/sub-account-queries';

/** One sub account: its state, figures, usage month by month, and the way into it. */
export function SubAccountDetailView({ accountId, subAccountId }: { accountId: string; subAccountId: string }) {
  const { can, isLoaded } = useAccountScopes(accountId);
  const me = useCurrentUser();
  const sub = useSubAccount(accountId, subAccountId);
  const history = useSubAccountUsageHistory(accountId, subAccountId, {
    enabled: isLoaded && can('sub-accounts:usage') && sub.isSuccess,
  });
  const [dialog, setDialog] = useState<'suspend' | 'unsuspend' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const back = (
    <Link href={`/${accountId}/sub-accounts`} className="font-medium underline">
      All sub accounts
    </Link>
  );
  if (sub.isPending) return <LoadingState label="Loading sub account…" />;
  if (sub.error) {
    const code = sub.error instanceof ApiError ? sub.error.status : 0;
    return (
      <Alert
        tone={code === 403 || code === 404 ? 'warning' : 'error'}
        title={code === 404 ? 'No such sub account' : 'This sub account could not be shown'}
      >
        {sub.error.message}. {back}
      </Alert>
    );
  }
  const data = sub.data;
  // The dashboard opens a child for whoever the server lets in (findSessionAccess); /internal/me lists it.
  const canOpen = me.data?.accounts.some((account) => account.id === data.id) ?? false;
  const actions = (
    <>
      {canOpen ? (
        <Link
          href={`/${data.id}`}
          className="inline-flex items-center justify-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
        >
          Open sub account
        </Link>
      ) : null}
      {can('sub-accounts:suspend') && data.status === 'active' ? (
        <Button variant="secondary" onClick={() => setDialog('suspend')}>
          Suspend
        </Button>
      ) : null}
      {can('sub-accounts:suspend') && data.status === 'suspended' ? (
        <Button variant="secondary" onClick={() => setDialog('unsuspend')}>
          Unsuspend
        </Button>
      ) : null}
    </>
  );
  return (
    <>
      <p className="mb-2 text-sm">{back}</p>
      <PageHeader title={data.name} description={<SubAccountSummary sub={data} />} actions={actions} />
      <div className="space-y-6">
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {data.status === 'suspended' && data.suspension_reason ? (
          <Alert tone="warning" title="Suspended">
            <span className="wrap-anywhere">{data.suspension_reason}</span>
          </Alert>
        ) : null}
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard
            name="monthly-credit"
            label="Monthly credit"
            value={data.monthly_credit > 0 ? formatCount(data.monthly_credit) : 'No cap'}
            detail="messages per calendar month (UTC)"
          />
          <StatCard name="domains" label="Domains" value={formatCount(data.domain_count)} />
          <StatCard
            name="members"
            label="Members"
            value={formatCount(data.member_count)}
            detail="its own; yours reach it through this account"
          />
          <StatCard
            name="last-activity"
            label="Last activity"
            value={data.last_activity_at ? formatDateTime(data.last_activity_at) : 'None yet'}
          />
        </div>
        {history.isPending && history.fetchStatus !== 'idle' ? <LoadingState label="Loading usage…" /> : null}
        {history.error ? (
          <Alert tone="error" title="Usage could not be loaded">
            {history.error.message}
          </Alert>
        ) : null}
        {history.data ? <SubAccountUsageChart history={history.data} /> : null}
      </div>
      <SuspendSubAccountDialog
        accountId={accountId}
        sub={dialog === 'suspend' ? data : null}
        onClose={() => setDialog(null)}
        onSuspended={(next) => setNotice(`${next.name} is suspended.`)}
      />
      <UnsuspendSubAccountDialog
        accountId={accountId}
        sub={dialog === 'unsuspend' ? data : null}
        onClose={() => setDialog(null)}
        onUnsuspended={(next) => setNotice(`${next.name} is active again.`)}
      />
    </>
  );
}

function SubAccountSummary({ sub }: { sub: SubAccountObject }) {
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <span data-testid="sub-account-status">
        <Badge tone={STATUS_TONES[sub.status]}>{STATUS_LABELS[sub.status]}</Badge>
      </span>
      <span className="wrap-anywhere">{sub.website}</span>
      <span className="font-mono text-xs wrap-anywhere">{sub.id}</span>
    </span>
  );
}
