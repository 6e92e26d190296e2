'use client';

import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import {
  DeleteRouteDialog,
  EditRouteDialog,
  TestRouteDialog,
  describeRecipient,
} from '@/components/dialogs/route-dialogs';
import { useRoute, useUpdateRoute } from '@/lib/client/route-queries';
import type { RouteObject } from '@/lib/client/types';
import { ReceiverDetailView } from './receiver-detail-view';
import { useRouteDomainNames, useRoutePermissions } from './routes-view';

/** What a route adds to a receiver's page: the inbound address it matches and what it posts. */
function routeFacts(route: RouteObject): [string, ReactNode][] {
  const options = [
    route.attachments && 'attachments',
    route.headers && 'headers',
    route.group_by_message_id && 'one request per message',
    route.strip_replies && 'quoted replies stripped',
  ].filter(Boolean);
  return [
    [
      'Recipient',
      <span key="recipient" className="wrap-anywhere">
        {describeRecipient(route.recipient)}
      </span>,
    ],
    [
      'Payload',
      options.length
        ? options.join(', ')
        : 'Text and HTML bodies, no attachments or headers; one request per matching address',
    ],
  ];
}

export function RouteDetailView({ accountId, routeId }: { accountId: string; routeId: string }) {
  const router = useRouter();
  const route = useRoute(accountId, routeId);
  const can = useRoutePermissions(accountId);
  const domainNames = useRouteDomainNames(accountId, can);
  const toggle = useUpdateRoute(accountId);
  return (
    <ReceiverDetailView
      accountId={accountId}
      kind="route"
      id={routeId}
      query={route}
      facts={routeFacts}
      canWrite={can.canWrite}
      canDelete={can.canDelete}
      toggle={{
        isPending: toggle.isPending,
        error: toggle.error,
        setEnabled: (enabled, onSuccess) => toggle.mutate({ id: routeId, enabled }, { onSuccess }),
      }}
      dialogs={({ dialog, onClose, onSaved, onTestSent }) => (
        <>
          <EditRouteDialog
            accountId={accountId}
            route={dialog === 'edit' ? (route.data ?? null) : null}
            domains={domainNames}
            onClose={onClose}
            onSaved={onSaved}
          />
          <DeleteRouteDialog
            accountId={accountId}
            route={dialog === 'delete' ? (route.data ?? null) : null}
            onClose={onClose}
            onDeleted={() => router.push(`/${accountId}/routes`)}
          />
          <TestRouteDialog
            accountId={accountId}
            route={dialog === 'test' ? (route.data ?? null) : null}
            onClose={onClose}
            onSent={onTestSent}
          />
        </>
      )}
    />
  );
}
